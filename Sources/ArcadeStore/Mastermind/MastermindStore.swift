import Constants
import Crypto
import Mastermind
import Storage

#if canImport(Glibc)
import Glibc
#endif

/// Mastermind games in SQLite, one active game per player. Every change
/// runs in one transaction, so two tabs guessing at once cannot corrupt a
/// game, and a guess is counted once.
package struct MastermindStore: Store {
    package let pool: DatabasePool
    package let constants: Constants
    package let secrets: SecretSource
    /// The daily code's key: the day alone does not tell the code.
    package let dailyKey: HMACKey
    /// The UTC day (days since 1970) the site first ran: daily #0.
    package let firstDay: Int
    package let clock: @Sendable () -> Double

    package init(
        pool: DatabasePool, constants: Constants, dailyKey: [UInt8], firstDay: Int,
        clock: @escaping @Sendable () -> Double
    ) {
        self.pool = pool
        self.constants = constants
        secrets = SecretSource(constants: constants)
        self.dailyKey = HMACKey(dailyKey)
        self.firstDay = firstDay
        self.clock = clock
    }

    /// Today's daily number.
    package var today: Int { max(0, Int(clock() / 86_400) - firstDay) }

    /// Seconds until the next daily code (at midnight UTC).
    package var secondsToNextDaily: Int {
        let now = clock()
        return max(0, Int(((now / 86_400).rounded(.down) + 1) * 86_400 - now))
    }

    /// The daily code of day `number`, the same for every player: digits from HMAC(key, day), by rejection so each
    /// digit is uniform.
    package func dailyDeal(_ number: Int) -> Deal {
        let rules = self.rules
        var digits: [UInt8] = []
        var counter = 0
        let span = rules.digitMax - rules.digitMin + 1
        while digits.count < rules.length {
            for byte in dailyKey.authenticate("mastermind-daily|\(number)|\(counter)") where digits.count < rules.length
            {
                // Bytes at or over the largest multiple of the span are skipped, so no digit is favoured.
                if Int(byte) < 256 - 256 % span { digits.append(UInt8(rules.digitMin + Int(byte) % span)) }
            }
            counter += 1
        }
        return Deal(rules: rules, secret: Code(digits: digits), daily: number)
    }

    /// The rules for new games, from the constants (so a hotfix applies to the next game).
    package var rules: Rules {
        let length = constants.int("mastermind.codeLength", default: 4)
        let low = constants.int("mastermind.digitMin", default: 0)
        let high = constants.int("mastermind.digitMax", default: 7)
        let attempts = constants.int("mastermind.attempts", default: 10)
        guard (1...8).contains(length), (0...9).contains(low), (low...9).contains(high), attempts >= 1 else {
            return .classic
        }
        let rules = Rules(length: length, digitMin: low, digitMax: high, attempts: attempts)
        // The hint solver enumerates every code: never more than the schema allows, whatever a file says.
        return rules.codeCount <= SiteConstants.maxCodes ? rules : .classic
    }

    /// A new game's rules and secret. The secret may come from random.org, so call it off the event loop,
    /// and outside any transaction.
    package struct Deal: Sendable {
        package let rules: Rules
        package let secret: Code
        package var hard = false
        /// The daily this game is, if it is one.
        package var daily: Int? = nil
        /// The friend's game whose code this one plays (a challenge).
        package var challenge: Int64? = nil

        package init(rules: Rules, secret: Code, hard: Bool = false, daily: Int? = nil, challenge: Int64? = nil) {
            self.rules = rules
            self.secret = secret
            self.hard = hard
            self.daily = daily
            self.challenge = challenge
        }
    }

    package func deal(hard: Bool = false) -> Deal {
        let rules = self.rules
        return Deal(rules: rules, secret: secrets.secret(rules), hard: hard)
    }

    /// The board before a player's first game: nothing is stored (and no secret drawn) until they act on it.
    /// Its id is 0, which a guess sends back to start the game.
    package func unstarted() -> Record {
        let rules = self.rules
        return Record(id: 0, game: Game(rules: rules, secret: Code(index: 0, rules: rules)), usedHint: false, hint: nil)
    }

    package struct Record: Sendable {
        package let id: Int64
        package var game: Game
        package let usedHint: Bool
        package let hint: String?
        /// The position a cheat revealed (0-based), if any.
        package var revealed: Int? = nil
        /// Hard mode: every guess must fit the feedback shown before it.
        package var hard = false
        /// The daily number, for a daily game.
        package var daily: Int? = nil
        /// The friend's game whose code this one plays, for a challenge taken.
        package var challenge: Int64? = nil
    }

    package enum Refusal: Error, Equatable {
        case invalid(Code.Problem)
        case finished
        /// The page showed another game, or an older turn: nothing was counted.
        case stale
        /// Hard mode: the guess could not be the secret, given this (0-based) earlier row.
        case contradicts(row: Int, Feedback)
        /// The guess was already made in this (0-based) row: it would score the same and teach nothing.
        case repeated(row: Int)
    }

    package struct Stats: Sendable {
        package var played = 0, wins = 0, hintWins = 0, hardWins = 0, currentStreak = 0, longestStreak = 0
        /// Wins without a hint, by number of guesses (index 0 is one guess).
        package var distribution: [Int] = []
        package var winPercent: Int { played == 0 ? 0 : Int((Double(wins) * 100 / Double(played)).rounded()) }
        /// Games played and not won (lost or given up).
        package var lost: Int { max(0, played - wins) }

        package init() {}
    }

    /// A `mastermind_games` row.
    package struct GameRow: FetchableRecord, TableRecord {
        package static let table = "mastermind_games"
        package enum Columns: String, ColumnName {
            case id, player, secret, codeLength = "code_length", digitMin = "digit_min", digitMax = "digit_max"
            case attempts, status, usedHint = "used_hint", hint, created, finished, revealed, hard, daily
            case playedDay = "played_day", challenge
        }
        package let id: Int64, player: String, secret: String, rules: Rules, status: String, usedHint: Bool,
            hint: String?
        package let created: Int64, finished: Int64?, revealed: Int?, hard: Bool, daily: Int?, playedDay: Int?
        package let challenge: Int64?

        package init(row: Row) throws(DatabaseError) {
            id = try row.decode(Columns.id)
            player = try row.decode(Columns.player)
            secret = try row.decode(Columns.secret)
            rules = Rules(
                length: try row.decode(Columns.codeLength), digitMin: try row.decode(Columns.digitMin),
                digitMax: try row.decode(Columns.digitMax), attempts: try row.decode(Columns.attempts))
            status = try row.decode(Columns.status)
            usedHint = try row.decode(Columns.usedHint)
            hint = try row.decodeIfPresent(Columns.hint)
            created = try row.decode(Columns.created)
            finished = try row.decodeIfPresent(Columns.finished)
            revealed = try row.decodeIfPresent(Columns.revealed)
            hard = try row.decode(Columns.hard)
            daily = try row.decodeIfPresent(Columns.daily)
            playedDay = try row.decodeIfPresent(Columns.playedDay)
            challenge = try row.decodeIfPresent(Columns.challenge)
        }
    }

    /// A `mastermind_guesses` row.
    package struct GuessRow: FetchableRecord, TableRecord {
        package static let table = "mastermind_guesses"
        package enum Columns: String, ColumnName { case game, number, guess, red, blue, gray, pegs }
        package let game: Int64, number: Int, guess: String, feedback: Feedback, pegs: String

        package init(row: Row) throws(DatabaseError) {
            game = try row.decode(Columns.game)
            number = try row.decode(Columns.number)
            guess = try row.decode(Columns.guess)
            feedback = Feedback(
                red: try row.decode(Columns.red), blue: try row.decode(Columns.blue),
                gray: try row.decode(Columns.gray))
            pegs = try row.decode(Columns.pegs)
        }
    }

    /// A `mastermind_totals` row: the ordinary games' running figures.
    package struct Totals: FetchableRecord, TableRecord {
        package static let table = "mastermind_totals"
        package enum Columns: String, ColumnName {
            case player, played, wins, hintWins = "hint_wins", hardWins = "hard_wins", streak
            case longestStreak = "longest_streak"
        }
        package var stats = Stats()

        package init(row: Row) throws(DatabaseError) {
            stats.played = try row.decode(Columns.played)
            stats.wins = try row.decode(Columns.wins)
            stats.hintWins = try row.decode(Columns.hintWins)
            stats.hardWins = try row.decode(Columns.hardWins)
            stats.currentStreak = try row.decode(Columns.streak)
            stats.longestStreak = try row.decode(Columns.longestStreak)
        }

        /// The player's row, all zeros, unless they have one.
        static func insertIfMissing(_ player: String) -> SQLStatement {
            insert("ON CONFLICT (player) DO NOTHING") { $0[.player] = player }
        }
    }

    /// `mastermind_wins_by_guesses`: a player's wins without a hint, counted by guesses.
    package enum WinsByGuesses: TableRecord {
        package static let table = "mastermind_wins_by_guesses"
        package enum Columns: String, ColumnName { case player, guesses, n }
    }

    /// The player's latest game: the one in play, or the last finished.
    package func latest(player: String) throws -> Record? {
        try load(pool.connection(), Self.latestSQL, [.text(player)])
    }

    private static let latestSQL = "player = ? AND daily IS NULL ORDER BY id DESC LIMIT 1"
    private static let dailySQL = "player = ? AND daily = ?"

    /// The player's game of daily `number`, if they started it.
    package func daily(player: String, _ number: Int) throws -> Record? {
        try load(pool.connection(), Self.dailySQL, [.text(player), SQLValue(number)])
    }

    /// The board of a daily not started yet (game 0, like the first ordinary board).
    package func unstartedDaily(_ number: Int) -> Record {
        var record = unstarted()
        record.daily = number
        return record
    }

    /// Starts a game; one still in play is abandoned and counts as lost.
    package func start(player: Player, _ deal: Deal) throws -> Record {
        try pool.write { db in try insert(player, deal, db) }
    }

    private func insert(_ who: Player, _ deal: Deal, _ db: Database) throws -> Record {
        try who.ensureRow(db)
        let now = Int64(clock())
        let rules = deal.rules
        if deal.daily == nil { try abandon(who.id, now: now, db) }
        let id = try db.insert(
            GameRow.insert { row in
                row[.player] = who.id
                row[.secret] = deal.secret.description
                row[.codeLength] = rules.length
                row[.digitMin] = rules.digitMin
                row[.digitMax] = rules.digitMax
                row[.attempts] = rules.attempts
                row[.status] = "playing"
                row[.created] = now
                row[.hard] = deal.hard
                row[.daily] = deal.daily
                row[.playedDay] = today
                row[.challenge] = deal.challenge
            })
        return Record(
            id: id, game: Game(rules: rules, secret: deal.secret), usedHint: false, hint: nil,
            hard: deal.hard, daily: deal.daily, challenge: deal.challenge)
    }

    /// Ordinary games kept per player (with their guesses); older finished ones live on only in the totals.
    package static let keptGames = 100

    /// The ordinary game in play, if any, ends as lost and is counted; one without a guess is not kept (it holds
    /// nothing but that count). Older finished games beyond `keptGames` go, so a player's rows stay bounded.
    private func abandon(_ player: String, now: Int64, _ db: Database) throws {
        for row in try db.query(
            """
            UPDATE mastermind_games SET status = 'lost', finished = ?
            WHERE player = ? AND status = 'playing' AND daily IS NULL RETURNING id, used_hint, hard
            """, [.integer(now), .text(player)])
        {
            let id: Int64 = try row.decode(GameRow.Columns.id)
            let guesses = try db.scalar(
                Int.self, "SELECT COUNT(*) AS n FROM mastermind_guesses WHERE game = ?", [.integer(id)])
            // A game left before its first guess was never played: gone, and neither a game played nor a loss (it
            // counted as both, so switching to hard mode on a fresh board ended the streak).
            if guesses == 0 {
                try db.execute("DELETE FROM mastermind_games WHERE id = ?", [.integer(id)])
                continue
            }
            try tally(
                player, won: false, usedHint: try row.decode(GameRow.Columns.usedHint),
                hard: try row.decode(GameRow.Columns.hard),
                guesses: guesses, db)
        }
        guard
            let oldest = try db.value(
                Int64.self,
                "SELECT id FROM mastermind_games WHERE player = ? AND daily IS NULL ORDER BY id DESC LIMIT 1 OFFSET ?",
                [.text(player), SQLValue(Self.keptGames - 1)])
        else { return }
        let older =
            "SELECT id FROM mastermind_games WHERE player = ? AND daily IS NULL AND id < ? AND status != 'playing'"
        try db.execute("DELETE FROM mastermind_guesses WHERE game IN (\(older))", [.text(player), .integer(oldest)])
        try db.execute("DELETE FROM mastermind_games WHERE id IN (\(older))", [.text(player), .integer(oldest)])
    }

    /// Counts an ordinary game that just ended in the player's totals, in the transaction that ended it.
    private func tally(_ player: String, won: Bool, usedHint: Bool, hard: Bool, guesses: Int, _ db: Database) throws {
        try db.execute(Totals.insertIfMissing(player))
        let win = SQLValue(won ? 1 : 0)
        try db.execute(
            """
            UPDATE mastermind_totals SET played = played + 1, wins = wins + ?, hint_wins = hint_wins + ?,
                hard_wins = hard_wins + ?, streak = CASE WHEN ? = 1 THEN streak + 1 ELSE 0 END,
                longest_streak = CASE WHEN ? = 1 AND streak + 1 > longest_streak THEN streak + 1 ELSE longest_streak END
            WHERE player = ?
            """,
            [win, SQLValue(won && usedHint ? 1 : 0), SQLValue(won && hard ? 1 : 0), win, win, .text(player)])
        guard won, !usedHint, guesses >= 1 else { return }
        let counted = "ON CONFLICT (player, guesses) DO UPDATE SET n = mastermind_wins_by_guesses.n + 1"
        try db.execute(
            WinsByGuesses.insert(counted) { row in
                row[.player] = player
                row[.guesses] = guesses
                row[.n] = 1
            })
    }

    /// Scores a guess for the game the page showed, at the turn it showed. Game 0 is the unstarted board:
    /// for a player with no game yet, `first` becomes the game, stored with its first valid guess (an invalid
    /// guess stores nothing); for anyone else it is a page out of date.
    /// A daily game is found by its number (`first.daily`), an ordinary one as the player's latest. A guess that ends
    /// the game runs `ended` in its transaction.
    package func guess<R: RandomNumberGenerator>(
        player who: Player, game id: Int64?, turn: Int?, _ text: String, first: Deal?, assisted: Bool = false,
        using random: inout R, ended: Ended? = nil
    ) throws -> Result<Record, Refusal> {
        return try pool.write { db throws -> Result<Record, Refusal> in
            // The player's row, locked: two tabs on two instances score one turn.
            try Player.lock(who.id, db)
            func current() throws -> Record? {
                try first?.daily.map { try load(db, Self.dailySQL, [.text(who.id), SQLValue($0)]) }
                    ?? load(db, Self.latestSQL, [.text(who.id)])
            }
            var record: Record
            let existing = try current()
            if let existing {
                record = existing
            } else if id == 0, let first {
                record = Record(
                    id: 0, game: Game(rules: first.rules, secret: first.secret), usedHint: false, hint: nil,
                    daily: first.daily)
            } else {
                return .failure(.stale)
            }
            if let id, id != record.id { return .failure(.stale) }
            guard record.game.outcome == .playing else { return .failure(.finished) }
            if let turn, turn != record.game.turns.count { return .failure(.stale) }
            if let refusal = Self.refusal(text, record.game, hard: record.hard) { return .failure(refusal) }
            let scored: Turn
            do throws(Game.Refusal) { scored = try record.game.guess(text, using: &random) } catch {
                switch error {
                case .invalid(let problem): return .failure(.invalid(problem))
                case .finished: return .failure(.finished)
                }
            }
            if record.id == 0, let first {
                // A new player has no row to lock until now: another tab's first guess may have started the game.
                try who.ensureRow(db)
                if try current() != nil { return .failure(.stale) }
                let turns = record.game.turns
                record = try insert(who, first, db)
                record.game = Game(rules: first.rules, secret: first.secret, turns: turns)
            }
            // Played with the codes left in sight (`assisted`): helped, like a hint (a review: such a win was praised,
            // shared clean and charted). Never a daily, where the switch is not offered.
            let helped = record.usedHint || (assisted && record.daily == nil)
            if helped && !record.usedHint {
                try db.execute("UPDATE mastermind_games SET used_hint = 1 WHERE id = ?", [.integer(record.id)])
            }
            record = Record(
                id: record.id, game: record.game, usedHint: helped, hint: record.hint, revealed: record.revealed,
                hard: record.hard, daily: record.daily, challenge: record.challenge)
            try save(scored, of: record, player: who.id, db)
            // The hint is spent by the guess; a cheat's reveal stays for the rest of the game.
            record = Record(
                id: record.id, game: record.game, usedHint: record.usedHint, hint: nil, revealed: record.revealed,
                hard: record.hard, daily: record.daily, challenge: record.challenge)
            if record.game.outcome != .playing { try ended?(record, db) }
            return .success(record)
        }
    }

    /// A guess refused before it is scored: a repeat (before hard mode's rule, which would name the same row less
    /// plainly), or in hard mode one that does not fit a row.
    package static func refusal(_ text: String, _ game: Game, hard: Bool) -> Refusal? {
        guard let code = try? Code(text, rules: game.rules) else { return nil }
        if let row = game.turns.firstIndex(where: { $0.guess == code }) { return .repeated(row: row) }
        if hard, let row = game.contradiction(code) { return .contradicts(row: row, game.turns[row].feedback) }
        return nil
    }

    /// Stores a scored guess, the game's outcome and, for an ordinary game that ended, the player's totals.
    private func save(_ scored: Turn, of record: Record, player: String, _ db: Database) throws {
        try db.execute(
            GuessRow.insert { row in
                row[.game] = record.id
                row[.number] = record.game.turns.count
                row[.guess] = scored.guess.description
                row[.red] = scored.feedback.red
                row[.blue] = scored.feedback.blue
                row[.gray] = scored.feedback.gray
                row[.pegs] = String(scored.pegs.map { $0.rawValue.first! })
            })
        let outcome = record.game.outcome
        try db.execute(
            "UPDATE mastermind_games SET status = ?, hint = NULL, finished = ? WHERE id = ?",
            [.text(outcome.rawValue), outcome == .playing ? .null : .integer(Int64(clock())), .integer(record.id)])
        if outcome != .playing, record.daily == nil {
            try tally(
                player, won: outcome == .won, usedHint: record.usedHint, hard: record.hard,
                guesses: record.game.turns.count, db)
        }
        if outcome != .playing, record.daily != nil {
            try tallyDaily(record.id, won: outcome == .won, guesses: record.game.turns.count, db)
        }
    }

    /// Counts a daily game that just ended in that daily's figures over every player, in the transaction that ended it;
    /// only a game played on its own day, as today's board counts (a past day's played later is an archive game).
    private func tallyDaily(_ game: Int64, won: Bool, guesses: Int, _ db: Database) throws {
        try db.execute(
            """
            INSERT INTO mastermind_daily_totals (daily, played, wins, win_guesses)
            SELECT daily, 1, ?, ? FROM mastermind_games WHERE id = ? AND played_day = daily
            ON CONFLICT (daily) DO UPDATE SET played = mastermind_daily_totals.played + 1,
                wins = mastermind_daily_totals.wins + excluded.wins,
                win_guesses = mastermind_daily_totals.win_guesses + excluded.win_guesses
            """, [SQLValue(won ? 1 : 0), SQLValue(won ? guesses : 0), .integer(game)])
    }

    /// A daily's figures over every player: games finished, won, and the guesses the wins took.
    package struct Everyone: Equatable, Sendable {
        package var played = 0, wins = 0, winGuesses = 0
    }

    /// One row by its key, however many play.
    package func everyone(daily: Int) throws -> Everyone? {
        guard
            let row = try pool.connection().first(
                "SELECT played, wins, win_guesses FROM mastermind_daily_totals WHERE daily = ?", [SQLValue(daily)])
        else { return nil }
        return Everyone(
            played: try row.decode("played"), wins: try row.decode("wins"), winGuesses: try row.decode("win_guesses"))
    }

    /// What else a game's end writes, in the transaction that ends it (the once-store's marks): one commit, so a
    /// failure leaves the game as it was, not ended without them.
    package typealias Ended = @Sendable (Record, Database) throws -> Void

    /// Ends the game in play as lost, if it is still the one the page showed; nil when it is not.
    package func giveUp(player: String, game id: Int64, ended: Ended? = nil) throws -> Record? {
        try pool.write { db in
            guard
                try db.execute(
                    "UPDATE mastermind_games SET status = 'lost', finished = ? WHERE id = ? AND player = ? AND status = 'playing'",
                    [.integer(Int64(clock())), .integer(id), .text(player)]) == 1
            else { return nil }
            let record = try load(db, "id = ?", [.integer(id)])
            if let record, record.daily == nil {
                try tally(
                    player, won: false, usedHint: record.usedHint, hard: record.hard,
                    guesses: record.game.turns.count, db)
            }
            if record?.daily != nil { try tallyDaily(id, won: false, guesses: 0, db) }
            if let record { try ended?(record, db) }
            return record
        }
    }

    /// Remembers a hint on the game in play, and that one was used unless it is `free` (an opening guess, asked for
    /// before any row: it tells nothing of the code).
    package func recordHint(player: String, game id: Int64, hint: Code, free: Bool = false) throws -> Bool {
        try pool.write { db in
            try db.execute(
                """
                UPDATE mastermind_games SET used_hint = CASE WHEN ? = 1 THEN used_hint ELSE 1 END, hint = ?
                WHERE id = ? AND player = ? AND status = 'playing'
                """, [SQLValue(free ? 1 : 0), .text(hint.description), .integer(id), .text(player)]) == 1
        }
    }

    /// What the Konami code's reveal did: a digit shown, or why not (the game is over, its one reveal is used, or it is
    /// a daily).
    /// `revealed`: the position (0 first) and its digit.
    package enum Reveal: Equatable { case revealed(Int, digit: String), finished, used, daily }

    /// Reveals one position of a game in play, once per game: one the player has not yet had red at, chosen at
    /// random. Like a hint, it makes a win assisted. The game is the one on the player's page (`game`), else their
    /// latest; never a daily, one code for everyone (a review's Konami in a normal game was spent on its daily).
    package func reveal<R: RandomNumberGenerator>(player: String, game: Int64?, using random: inout R) throws -> Reveal
    {
        return try pool.write { db in
            try Player.lock(player, db)  // once per game, whichever instance runs it
            let record =
                try game.map {
                    try load(db, "id = ? AND player = ? AND status = 'playing'", [.integer($0), .text(player)])
                }
                ?? load(
                    db, "player = ? AND daily IS NULL AND status = 'playing' ORDER BY id DESC LIMIT 1", [.text(player)])
            guard let record else { return .finished }
            guard record.revealed == nil else { return .used }
            guard record.daily == nil else { return .daily }
            let secret = Array(record.game.secret.description)
            let solved = Set(
                record.game.turns.flatMap { turn in
                    Array(turn.guess.description).indices.filter { Array(turn.guess.description)[$0] == secret[$0] }
                })
            let open = secret.indices.filter { !solved.contains($0) }
            guard let position = (open.isEmpty ? Array(secret.indices) : open).randomElement(using: &random) else {
                return .used
            }
            try db.execute(
                "UPDATE mastermind_games SET revealed = ?, used_hint = 1 WHERE id = ?",
                [SQLValue(position), .integer(record.id)])
            return .revealed(position, digit: String(secret[position]))
        }
    }

    /// The daily's own figures: games, wins, and the streak of dailies won on their own day, one after another
    /// (a missed or lost day ends it; archive games never count).
    package struct DailyStats: Sendable {
        package var played = 0, wins = 0, currentStreak = 0, longestStreak = 0
        /// Dailies played and not won.
        package var lost: Int { max(0, played - wins) }

        package init() {}
    }

    package func dailyStats(player: String) throws -> DailyStats {
        var stats = DailyStats()
        let rows = try pool.connection().query(
            """
            SELECT daily, status, played_day FROM mastermind_games
            WHERE player = ? AND daily IS NOT NULL AND status != 'playing' ORDER BY daily
            """, [.text(player)])
        var streak = 0
        var last: Int? = nil
        for row in rows {
            let day: Int = try row.decode(GameRow.Columns.daily)
            stats.played += 1
            let won = try row.decode(GameRow.Columns.status, as: String.self) == "won"
            if won { stats.wins += 1 }
            // Played on another day: an archive game.
            guard try row.decodeIfPresent(GameRow.Columns.playedDay, as: Int.self) == day else { continue }
            streak = won ? (last == day - 1 ? streak + 1 : 1) : 0
            last = won ? day : nil
            stats.longestStreak = max(stats.longestStreak, streak)
        }
        // A streak lives while its last win is today's or yesterday's daily.
        stats.currentStreak = last.map { today - $0 <= 1 } == true ? streak : 0
        return stats
    }

    /// The ordinary games' figures, from the running totals: one row and at most `attempts` more, however many
    /// games the player has had.
    package func stats(player: String) throws -> Stats {
        let db = try pool.connection()
        var stats = Stats()
        guard
            let totals = try db.fetchOne(
                Totals.self, "SELECT \(Totals.selection) FROM mastermind_totals WHERE player = ?", [.text(player)])
        else { return stats }
        stats = totals.stats
        var counts: [Int: Int] = [:]
        for row in try db.query(
            "SELECT guesses, n FROM mastermind_wins_by_guesses WHERE player = ? AND guesses <= 64", [.text(player)])
        {
            counts[try row.decode(WinsByGuesses.Columns.guesses)] = try row.decode(WinsByGuesses.Columns.n)
        }
        if stats.played > 0 {
            let bars = max(rules.attempts, counts.keys.max() ?? 0)
            stats.distribution = (1...bars).map { counts[$0] ?? 0 }
        }
        return stats
    }

    /// The player's dailies won without help, by guesses used (the first count: one guess), as the ordinary games'
    /// chart is (a review: the daily's results and figures had no chart, Wordle's habit loop). Read apart from
    /// `dailyStats`, which the home page reads for its streak.
    package func dailyDistribution(player: String) throws -> [Int] {
        var counts: [Int: Int] = [:]
        for row in try pool.connection().query(
            """
            SELECT COUNT(*) AS guesses FROM mastermind_guesses u JOIN mastermind_games g ON g.id = u.game
            WHERE g.player = ? AND g.daily IS NOT NULL AND g.status = 'won' AND g.used_hint = 0 GROUP BY g.id
            """, [.text(player)])
        {
            counts[try row.decode("guesses", as: Int.self), default: 0] += 1
        }
        guard !counts.isEmpty else { return [] }
        return (1...max(rules.attempts, counts.keys.max() ?? 0)).map { counts[$0] ?? 0 }
    }

    /// Each daily's outcome (its status) for the player, from day `oldest` through `newest`.
    package func dailyOutcomes(player: String, from oldest: Int, through newest: Int) throws -> [Int: String] {
        var outcomes: [Int: String] = [:]
        for row in try pool.connection().query(
            "SELECT daily, status FROM mastermind_games WHERE player = ? AND daily BETWEEN ? AND ?",
            [.text(player), SQLValue(oldest), SQLValue(newest)])
        {
            outcomes[try row.decode(GameRow.Columns.daily)] = try row.decode(GameRow.Columns.status, as: String.self)
        }
        return outcomes
    }

    /// A finished ordinary game, as a challenge's source: whose it is, and the game. Nil if it is gone (old games
    /// go, `keptGames`), a daily, or still in play.
    package func challengeSource(_ id: Int64) throws -> (player: String, record: Record)? {
        let db = try pool.connection()
        guard
            let player = try db.value(
                String.self,
                "SELECT player FROM mastermind_games WHERE id = ? AND daily IS NULL AND status != 'playing'",
                [.integer(id)]),
            let record = try load(db, "id = ?", [.integer(id)])
        else { return nil }
        return (player, record)
    }

    /// The player's game of the challenge of game `source`, if they took it.
    package func challengeTaken(player: String, source: Int64) throws -> Record? {
        try load(
            pool.connection(), "player = ? AND challenge = ? ORDER BY id DESC LIMIT 1",
            [.text(player), .integer(source)])
    }

    /// Friends' finished games of the challenge of game `source`, first finished first (at most `limit`).
    package func challengers(of source: Int64, limit: Int = 20) throws -> [Record] {
        let db = try pool.connection()
        return try db.query(
            "SELECT id FROM mastermind_games WHERE challenge = ? AND status != 'playing' ORDER BY finished, id LIMIT ?",
            [.integer(source), SQLValue(limit)]
        ).compactMap { row throws in try load(db, "id = ?", [.integer(try row.decode(GameRow.Columns.id))]) }
    }

    /// The first game `condition` finds, with its guesses.
    private func load(_ db: Database, _ condition: String, _ values: [SQLValue]) throws -> Record? {
        guard
            let row = try db.fetchOne(
                GameRow.self, "SELECT \(GameRow.selection) FROM mastermind_games WHERE \(condition)", values)
        else { return nil }
        let rules = row.rules
        let secret = try Code(row.secret, rules: rules)
        var turns: [Turn] = []
        for g in try db.fetchAll(
            GuessRow.self, "SELECT \(GuessRow.selection) FROM mastermind_guesses WHERE game = ? ORDER BY number",
            [.integer(row.id)])
        {
            let pegs = g.pegs.map { ch -> Peg in ch == "r" ? .red : ch == "b" ? .blue : .gray }
            turns.append(Turn(guess: try Code(g.guess, rules: rules), feedback: g.feedback, pegs: pegs))
        }
        // A game abandoned for a new one stays lost.
        let game = Game(
            rules: rules, secret: secret, turns: turns, forfeited: row.status == "lost" && turns.count < rules.attempts)
        return Record(
            id: row.id, game: game, usedHint: row.usedHint, hint: row.hint, revealed: row.revealed, hard: row.hard,
            daily: row.daily, challenge: row.challenge)
    }
}
