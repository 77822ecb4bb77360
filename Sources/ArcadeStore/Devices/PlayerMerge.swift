import JSON
import Storage

/// Two histories of one person made one: when a device with progress of its own signs in with a passkey, its player's
/// rows move to the passkey's player, never overwriting. Games and rounds are kept; counts are summed and the longest
/// streaks kept; a daily both played is counted once; each person's learning card comes from the side that reviewed
/// it last; cheats found and the once-store's marks are united. One transaction (the caller's), audited in
/// `player_merges`, which the player's export shows.
package enum PlayerMerge {
    private typealias Game = MastermindStore.GameRow.Columns

    /// What moved, as the audit row and the sign-in's message give it.
    /// `player_merges`: each merge into a player, and what it moved (JSON).
    package enum Merges: TableRecord {
        package static let table = "player_merges"
        package enum Columns: String, ColumnName { case player, mergedFrom = "merged_from", at = "at_ms", moved }
    }

    package struct Moved: Sendable, Equatable {
        package var games = 0, rounds = 0, cards = 0, marks = 0, passkeys = 0
        /// Dailies both sides played (the better-finished game kept) and open games set aside (see `openGames`).
        package var dailiesKept = 0, openGamesEnded = 0

        package var json: JSONValue {
            .object([
                ("games", .integer(Int64(games))), ("rounds", .integer(Int64(rounds))),
                ("cards", .integer(Int64(cards))), ("marks", .integer(Int64(marks))),
                ("passkeys", .integer(Int64(passkeys))), ("dailies_kept_once", .integer(Int64(dailiesKept))),
                ("open_games_ended", .integer(Int64(openGamesEnded))),
            ])
        }
    }

    /// The word "your progress" says after a sign-in: signed in, merged, or merged with a daily played on both
    /// sides kept once (a review read "what you played here was added" while a daily result of the device's went).
    package static func status(_ moved: Moved?) -> String {
        guard let moved else { return "signedin" }
        return moved.dailiesKept > 0 ? "mergeddaily" : "merged"
    }

    /// Moves every row of player `from` into player `into` (inside a write transaction; both rows locked on
    /// PostgreSQL by the caller). `now` in milliseconds.
    package static func merge(from: String, into: String, now: Int64, _ db: Database) throws -> Moved {
        precondition(from != into, "a player merged into itself")
        let (a, b) = (SQLValue.text(from), SQLValue.text(into))
        var moved = Moved()
        try firstSeen(a, b, db)
        moved.dailiesKept = try dailies(a, b, into: into, db)
        moved.openGamesEnded = try openGames(a, b, now: now, db)
        try mastermind(a, b, &moved, db)
        try nameGame(a, b, &moved, db)
        try onceAndCheats(a, b, &moved, db)
        moved.passkeys = try db.execute("UPDATE passkeys SET player = ? WHERE player = ?", [b, a])
        // A code the device made to move its own progress has nothing left to move.
        try db.execute("DELETE FROM transfer_codes WHERE player = ?", [a])
        try db.execute("UPDATE player_merges SET player = ? WHERE player = ?", [b, a])
        try db.execute(
            Merges.insert { row in
                row[.player] = into
                row[.mergedFrom] = from
                row[.at] = now
                row[.moved] = JSONWriter(sortedKeys: true).string(moved.json)
            })
        // The pace and whom to meet first: the passkey's player's own, or else the device's.
        for column in ["namegame_pace", "namegame_focus"] {
            try db.execute(
                """
                UPDATE players SET \(column) = (SELECT \(column) FROM players WHERE id = ?)
                WHERE id = ? AND \(column) IS NULL
                """, [a, b])
        }
        // The name: the passkey's player's own, or else the device's (freed first: one player per name).
        let name = try db.first("SELECT display_name, name_key FROM players WHERE id = ? AND name_key IS NOT NULL", [a])
        // Every table of `PlayerData.tables` was moved above (a test checks that none is left behind).
        try db.execute("DELETE FROM players WHERE id = ?", [a])
        if let name {
            try db.execute(
                "UPDATE players SET display_name = ?, name_key = ? WHERE id = ? AND name_key IS NULL",
                [
                    .text(try name.decode(Player.Table.Columns.displayName)),
                    .text(try name.decode(Player.Table.Columns.nameKey)), b,
                ])
        }
        return moved
    }

    /// Mastermind: games, totals and wins by guesses summed, the longest streak kept, the current one merged.
    private static func mastermind(_ a: SQLValue, _ b: SQLValue, _ moved: inout Moved, _ db: Database) throws {
        let streak = try mergedStreak(a, b, db)
        moved.games = try db.execute("UPDATE mastermind_games SET player = ? WHERE player = ?", [b, a])
        try sum(
            MastermindStore.Totals.self, key: [], sums: [.played, .wins, .hintWins, .hardWins],
            larger: [.longestStreak], a, b, db)
        if let streak {
            try db.execute(
                """
                UPDATE mastermind_totals SET streak = ?,
                    longest_streak = CASE WHEN longest_streak < ? THEN ? ELSE longest_streak END WHERE player = ?
                """, [SQLValue(streak), SQLValue(streak), SQLValue(streak), b])
        }
        try sum(MastermindStore.WinsByGuesses.self, key: [.guesses], sums: [.n], a, b, db)
    }

    /// The Name Game: sessions (one in play per mode), rounds, lifetime figures and each person's card.
    private static func nameGame(_ a: SQLValue, _ b: SQLValue, _ moved: inout Moved, _ db: Database) throws {
        // One session in play per mode: of two, the one started earlier ends.
        try db.execute(
            """
            UPDATE namegame_sessions SET ended = 1 WHERE player IN (?, ?) AND ended = 0
            AND EXISTS (SELECT 1 FROM namegame_sessions o WHERE o.player IN (?, ?) AND o.player != namegame_sessions.player
                AND o.ended = 0 AND o.mode = namegame_sessions.mode AND (o.started_ms > namegame_sessions.started_ms
                    OR (o.started_ms = namegame_sessions.started_ms AND o.id > namegame_sessions.id)))
            """, [a, b, a, b])
        try db.execute("UPDATE namegame_sessions SET player = ? WHERE player = ?", [b, a])
        moved.rounds = try db.execute("UPDATE namegame_rounds SET player = ? WHERE player = ?", [b, a])
        try sum(
            NameGameStore.Lifetime.self, key: [.mode],
            sums: [.rounds, .identified, .correct, .incorrect, .identifyMilliseconds],
            larger: [.bestStreak, .streak], a, b, db)
        moved.cards = try cards(a, b, db)
    }

    /// The once-store's marks, to-dos, sessions and versions, and the cheat codes' progress.
    private static func onceAndCheats(_ a: SQLValue, _ b: SQLValue, _ moved: inout Moved, _ db: Database) throws {
        moved.marks = try db.scalar(Int.self, "SELECT COUNT(*) AS n FROM once_marks WHERE player = ?", [a])
        try sum(OnceStore.Mark.self, key: [.task, .at], sums: [.times], a, b, db)
        try keepFirst(OnceStore.ToDoRow.self, key: [.task], columns: [.created, .expires, .info], a, b, db)
        try keepFirst(OnceStore.Sessions.self, key: [.session], columns: [.started], a, b, db)
        try db.execute(
            """
            UPDATE once_versions SET first_seen_ms = (SELECT o.first_seen_ms FROM once_versions o
                WHERE o.player = ? AND o.version = once_versions.version)
            WHERE player = ? AND first_seen_ms > (SELECT o.first_seen_ms FROM once_versions o
                WHERE o.player = ? AND o.version = once_versions.version)
            """, [a, b, a])
        try keepFirst(OnceStore.Versions.self, key: [.version], columns: [.firstSeen], a, b, db)
        try keepFirst(CheatStore.Progress.self, key: [], columns: [.progress], a, b, db)
    }

    /// The device's player becomes `owner` (a passkey's or a code's): both rows locked in one order (two sign-ins
    /// cannot deadlock), and the device's own rows, if it has any, merged in. Returns the owner and what moved.
    package static func takeOver(
        device: String, owner: String, now: Int64, _ db: Database
    ) throws -> (player: Player, moved: Moved?) {
        for locked in Set([owner, device]).sorted() { try Player.lock(locked, db) }
        var moved: Moved? = nil
        if device != owner, try Player.hasRow(device, db) { moved = try merge(from: device, into: owner, now: now, db) }
        let firstSeen = try db.scalar(Int.self, "SELECT first_seen FROM players WHERE id = ?", [.text(owner)])
        return (Player(id: owner, firstSeen: firstSeen), moved)
    }

    /// The earlier of the two first visits.
    private static func firstSeen(_ a: SQLValue, _ b: SQLValue, _ db: Database) throws {
        try db.execute(
            """
            UPDATE players SET first_seen = (SELECT o.first_seen FROM players o WHERE o.id = ?)
            WHERE id = ? AND first_seen > (SELECT o.first_seen FROM players o WHERE o.id = ?)
            """, [a, b, a])
    }

    /// A daily both sides played is kept once: the better game (won in fewer guesses, then lost, then the one further
    /// along), the other deleted with its guesses. Returns how many there were.
    private static func dailies(_ a: SQLValue, _ b: SQLValue, into: String, _ db: Database) throws -> Int {
        // A win beats a loss, and a win in fewer guesses a win in more (a review's daily in 4 gave way to one in 7);
        // of two games not won, the one further along.
        let guesses = "(SELECT COUNT(*) FROM mastermind_guesses q WHERE q.game = g.id)"
        let rank = """
            (CASE g.status WHEN 'won' THEN 2000 - \(guesses) WHEN 'lost' THEN 1000 + \(guesses) ELSE \(guesses) END)
            """
        let both = try db.query(
            """
            SELECT g.id AS id, g.daily AS daily, g.player AS player, g.status AS status, \(rank) AS rank
            FROM mastermind_games g
            WHERE g.player IN (?, ?) AND g.daily IS NOT NULL
            AND g.daily IN (SELECT daily FROM mastermind_games WHERE player = ? AND daily IS NOT NULL)
            AND g.daily IN (SELECT daily FROM mastermind_games WHERE player = ? AND daily IS NOT NULL)
            ORDER BY g.daily
            """, [a, b, a, b])
        var byDay: [Int: [(id: Int64, rank: Int, player: String, status: String)]] = [:]
        for row in both {
            // On a tie the passkey's own game stays.
            let player: String = try row.decode(Game.player)
            byDay[try row.decode(Game.daily), default: []].append(
                (
                    try row.decode(Game.id), try row.decode("rank") * 2 + (player == into ? 1 : 0), player,
                    try row.decode(Game.status)
                ))
        }
        let twice = byDay.values.filter { $0.count == 2 }
        for games in twice {
            let gone = games.min { $0.rank < $1.rank }!
            try deleteGame(gone.id, db)
            // Its marks go with it ("Your progress" counted a daily played on both devices twice).
            let tasks = [
                "won": [SiteTasks.mastermindPlayed, SiteTasks.mastermindWon], "lost": [SiteTasks.mastermindPlayed],
            ]
            for task in tasks[gone.status] ?? [] {
                let key: [SQLValue] = [.text(gone.player), .text(task)]
                try db.execute(
                    """
                    UPDATE once_marks SET times = times - 1 WHERE player = ? AND task = ?
                    AND at_ms = (SELECT MAX(at_ms) FROM once_marks WHERE player = ? AND task = ?)
                    """, key + key)
                try db.execute("DELETE FROM once_marks WHERE player = ? AND task = ? AND times < 1", key)
            }
        }
        return twice.count
    }

    /// One ordinary game in play per player: of two, the one started later stays; the other ends as the site ends
    /// a game left for a new one: lost and counted if it had a guess, gone if not. Returns how many ended.
    private static func openGames(_ a: SQLValue, _ b: SQLValue, now: Int64, _ db: Database) throws -> Int {
        let open = try db.query(
            """
            SELECT g.id AS id, g.player AS player, g.used_hint AS used_hint, g.hard AS hard,
                (SELECT COUNT(*) FROM mastermind_guesses q WHERE q.game = g.id) AS guesses
            FROM mastermind_games g WHERE g.player IN (?, ?) AND g.status = 'playing' AND g.daily IS NULL
            ORDER BY g.created, g.id
            """, [a, b])
        guard open.count == 2 else { return 0 }
        let older = open[0]
        let id: Int64 = try older.decode(Game.id)
        let owner: String = try older.decode(Game.player)
        guard try older.decode("guesses", as: Int.self) > 0 else {
            try deleteGame(id, db)
            return 1
        }
        try db.execute(
            "UPDATE mastermind_games SET status = 'lost', finished = ? WHERE id = ?",
            [.integer(now / 1000), .integer(id)])
        try db.execute(MastermindStore.Totals.insertIfMissing(owner))
        try db.execute(
            "UPDATE mastermind_totals SET played = played + 1, streak = 0 WHERE player = ?", [.text(owner)])
        return 1
    }

    /// The ordinary games' current streak once both histories are one: wins in a row back from the last game either
    /// side finished, to the first loss among both sides' kept games; with no loss kept on either side, both sides'
    /// streaks run unbroken and add up (a review: 3 wins and 1 win merged into a streak of 1). Nil without totals.
    private static func mergedStreak(_ a: SQLValue, _ b: SQLValue, _ db: Database) throws -> Int? {
        let streaks = try db.query("SELECT streak FROM mastermind_totals WHERE player IN (?, ?)", [a, b])
            .map { row throws in try row.decode(MastermindStore.Totals.Columns.streak, as: Int.self) }
        guard !streaks.isEmpty else { return nil }
        let games = try db.query(
            """
            SELECT status FROM mastermind_games WHERE player IN (?, ?) AND daily IS NULL AND status != 'playing'
            ORDER BY finished DESC, id DESC
            """, [a, b])
        var wins = 0
        for game in games {
            guard try game.decode(Game.status, as: String.self) == "won" else { return wins }
            wins += 1
        }
        return max(wins, streaks.reduce(0, +))
    }

    private static func deleteGame(_ id: Int64, _ db: Database) throws {
        try db.execute("DELETE FROM mastermind_guesses WHERE game = ?", [.integer(id)])
        try db.execute("DELETE FROM mastermind_games WHERE id = ?", [.integer(id)])
    }

    /// Each person's card from the side that reviewed them last; first met at the earlier meeting. Returns the
    /// cards that came from `a`.
    private static func cards(_ a: SQLValue, _ b: SQLValue, _ db: Database) throws -> Int {
        // Whichever card stays, it was met at the earlier meeting.
        let met = "(SELECT o.met_ms FROM namegame_cards o WHERE o.player = ? AND o.person = namegame_cards.person)"
        for (side, other) in [(a, b), (b, a)] {
            try db.execute(
                """
                UPDATE namegame_cards SET met_ms = \(met)
                WHERE player = ? AND \(met) IS NOT NULL AND (met_ms IS NULL OR met_ms > \(met))
                """, [other, side, other, other])
            // A note written on either side stays, whichever card does.
            try db.execute(
                """
                UPDATE namegame_cards SET note = (SELECT o.note FROM namegame_cards o WHERE o.player = ?
                    AND o.person = namegame_cards.person) WHERE player = ? AND note IS NULL
                """, [other, side])
        }
        try db.execute(
            """
            DELETE FROM namegame_cards WHERE player = ? AND person IN (SELECT o.person FROM namegame_cards o
                WHERE o.player = ? AND o.last_ms > namegame_cards.last_ms)
            """, [b, a])
        try db.execute(
            """
            DELETE FROM namegame_cards WHERE player = ? AND person IN (SELECT o.person FROM namegame_cards o
                WHERE o.player = ?)
            """, [a, b])
        return try db.execute("UPDATE namegame_cards SET player = ? WHERE player = ?", [b, a])
    }

    /// `a`'s rows of a table keyed by player and `key` added into `b`'s: `sums` added, `larger` the larger kept.
    private static func sum<R: TableRecord>(
        _: R.Type, key: [R.Columns], sums: [R.Columns], larger: [R.Columns] = [], _ a: SQLValue, _ b: SQLValue,
        _ db: Database
    ) throws {
        let (table, key, sums, larger) = (R.table, key.map(\.rawValue), sums.map(\.rawValue), larger.map(\.rawValue))
        let columns = key + sums + larger
        let set =
            sums.map { "\($0) = \(table).\($0) + excluded.\($0)" }
            + larger.map {
                "\($0) = CASE WHEN excluded.\($0) > \(table).\($0) THEN excluded.\($0) ELSE \(table).\($0) END"
            }
        try db.execute(
            """
            INSERT INTO \(table) (player, \(columns.joined(separator: ", ")))
            SELECT ?, \(columns.joined(separator: ", ")) FROM \(table) WHERE player = ?
            ON CONFLICT (\((["player"] + key).joined(separator: ", "))) DO UPDATE SET \(set.joined(separator: ", "))
            """, [b, a])
        try db.execute("DELETE FROM \(table) WHERE player = ?", [a])
    }

    /// `a`'s rows of a table keyed by player and `key` moved to `b` where `b` has none with that key.
    private static func keepFirst<R: TableRecord>(
        _: R.Type, key: [R.Columns], columns: [R.Columns], _ a: SQLValue, _ b: SQLValue, _ db: Database
    ) throws {
        let (table, key) = (R.table, key.map(\.rawValue))
        let all = (key + columns.map(\.rawValue)).joined(separator: ", ")
        try db.execute(
            """
            INSERT INTO \(table) (player, \(all)) SELECT ?, \(all) FROM \(table) WHERE player = ?
            ON CONFLICT (\((["player"] + key).joined(separator: ", "))) DO NOTHING
            """, [b, a])
        try db.execute("DELETE FROM \(table) WHERE player = ?", [a])
    }
}
