import NameGame
import SpacedRepetition
import Storage

#if canImport(Glibc)
import Glibc
#endif

/// The columns a session and a lifetime share: a mode's figures.
package protocol FiguresColumns: ColumnName {
    static var rounds: Self { get }
    static var identified: Self { get }
    static var correct: Self { get }
    static var incorrect: Self { get }
    static var identifyMilliseconds: Self { get }
}

/// Name Game sessions and rounds in SQLite. A round lives only here: the
/// page never holds its answer before it is answered. Every answer is
/// checked and recorded in one transaction.
package struct NameGameStore: Store {
    package let pool: DatabasePool
    package var clock: @Sendable () -> Double = WallClock.system
    /// Learning steps: a first question one round after the introduction, then after 1, 3 and 10 minutes before the
    /// long-term schedule. A miss goes back to a 40-second step, a known face's too: with the plan's look-ahead it is
    /// asked again a few rounds later, within the lesson (a review: a miss never came back in it).
    /// Out of those steps on the day someone was met, they come back in three days at most (FSRS's first "good"):
    /// four steps in one sitting gave nine (`FSRS.firstDayStability`).
    package var fsrs: FSRS = {
        var fsrs = FSRS(
            learningSteps: [40_000, FSRS.minute, 3 * FSRS.minute, 10 * FSRS.minute],
            relearningSteps: [40_000, 10 * FSRS.minute])
        fsrs.firstDayStability = fsrs.w[2]
        return fsrs
    }()
    /// Learning steps are taken in play: someone comes back once their step is at most a minute and a half away, so a
    /// person met is asked twice in the lesson that met them (picked, then typed) and a miss comes back in it. With half
    /// a minute, each was asked once (a review: "meet A, meet B, quiz A, quiz B", nothing deeper).
    package var plan: LearningPlan = {
        var plan = LearningPlan()
        plan.learnAhead = 3 * FSRS.minute / 2
        return plan
    }()

    package init(pool: DatabasePool, clock: @escaping @Sendable () -> Double = WallClock.system) {
        self.pool = pool
        self.clock = clock
    }

    package func nowMilliseconds() -> Int64 { WallClock.milliseconds(clock) }

    /// A `namegame_sessions` row, with its people to come (`namegame_session_people`).
    package struct Session: Sendable, FetchableRecord, TableRecord {
        package static let table = "namegame_sessions"
        package enum Columns: String, FiguresColumns {
            case id, player, mode, startedMilliseconds = "started_ms", ended, rounds, identified, correct, incorrect
            case identifyMilliseconds = "identify_ms", streak, bestStreak = "best_streak"
            case extraMilliseconds = "extra_ms", penaltyMilliseconds = "penalty_ms", meetMore = "meet_more"
        }
        package let id: Int64
        package let mode: Mode
        package let startedMilliseconds: Int64
        package let ended: Bool
        /// Time a timed session's player added to its clock ("More time").
        package var extraMilliseconds: Int64 = 0
        /// Time a timed session's wrong taps took off its clock (`NameGameStore.wrongTapCost` each).
        package var penaltyMilliseconds: Int64 = 0
        package let stats: Stats
        package var nextPeople: [String]
        /// Rounds in a row identified at the first pick: now, and the session's best.
        package var streak = 0
        package var bestStreak = 0
        /// A review session's people still to ask.
        package var queue: [String] = []
        /// New people a lesson asked for past the day's pace may meet ("Meet 5 more"); 0 for any other.
        package var meetMore = 0

        package init(
            id: Int64, mode: Mode, startedMilliseconds: Int64, ended: Bool, stats: Stats, nextPeople: [String],
            streak: Int = 0, bestStreak: Int = 0, queue: [String] = []
        ) {
            self.id = id
            self.mode = mode
            self.startedMilliseconds = startedMilliseconds
            self.ended = ended
            self.stats = stats
            self.nextPeople = nextPeople
            self.streak = streak
            self.bestStreak = bestStreak
            self.queue = queue
        }

        package init(row: Row) throws(DatabaseError) {
            self.init(
                id: try row.decode(Columns.id), mode: try NameGameStore.mode(row, Columns.mode),
                startedMilliseconds: try row.decode(Columns.startedMilliseconds),
                ended: try row.decode(Columns.ended), stats: try NameGameStore.stats(row, Columns.self), nextPeople: [],
                streak: try row.decode(Columns.streak), bestStreak: try row.decode(Columns.bestStreak))
            extraMilliseconds = try row.decode(Columns.extraMilliseconds)
            penaltyMilliseconds = try row.decode(Columns.penaltyMilliseconds)
            meetMore = try row.decode(Columns.meetMore)
        }

        /// When a timed session's clock runs out: its length, plus the time its player added, less its wrong taps'.
        package func deadline(seconds: Int) -> Int64 {
            startedMilliseconds + Int64(seconds) * 1000 + extraMilliseconds - penaltyMilliseconds
        }

        /// Whether a timed session's clock has run out at `now` (other modes have no clock).
        package func timeIsUp(at now: Int64, seconds: Int) -> Bool {
            mode == .timed && now > deadline(seconds: seconds)
        }
    }

    /// A `namegame_rounds` row; its faces are `Face`s.
    package struct RoundRow: FetchableRecord, TableRecord {
        package static let table = "namegame_rounds"
        package enum Columns: String, ColumnName {
            case id, session, player, mode, answer, startedMilliseconds = "started_ms", status
            case finishedMilliseconds = "finished_ms", cheat, recall, typed
        }
        package let id: Int64, session: Int64, mode: Mode, answer: Int, startedMilliseconds: Int64, status: String
        package let finishedMilliseconds: Int64?, cheat: Bool, recall: Bool, typed: String?

        package init(row: Row) throws(DatabaseError) {
            id = try row.decode(Columns.id)
            session = try row.decode(Columns.session)
            mode = try NameGameStore.mode(row, Columns.mode)
            answer = try row.decode(Columns.answer)
            startedMilliseconds = try row.decode(Columns.startedMilliseconds)
            status = try row.decode(Columns.status)
            finishedMilliseconds = try row.decodeIfPresent(Columns.finishedMilliseconds)
            cheat = try row.decode(Columns.cheat)
            recall = try row.decode(Columns.recall)
            typed = try row.decodeIfPresent(Columns.typed)
        }
    }

    /// A `namegame_round_faces` row: one person shown in a round.
    package struct Face: FetchableRecord, TableRecord {
        package static let table = "namegame_round_faces"
        package enum Columns: String, ColumnName {
            case round, position, person, hideRank = "hide_rank", wrongRank = "wrong_rank"
        }
        package let position: Int, person: String, hideRank: Int?, wrongRank: Int?

        package init(row: Row) throws(DatabaseError) {
            position = try row.decode(Columns.position)
            person = try row.decode(Columns.person)
            hideRank = try row.decodeIfPresent(Columns.hideRank)
            wrongRank = try row.decodeIfPresent(Columns.wrongRank)
        }
    }

    /// A `namegame_lifetime` row: a mode's figures for a lifetime, with its current and best streak.
    package struct Lifetime: Sendable, FetchableRecord, TableRecord {
        package static let table = "namegame_lifetime"
        package enum Columns: String, FiguresColumns {
            case player, mode, rounds, identified, correct, incorrect, identifyMilliseconds = "identify_ms", streak
            case bestStreak = "best_streak"
        }
        package let mode: Mode
        package let stats: Stats
        package let streak: Int
        package let best: Int

        package init(row: Row) throws(DatabaseError) {
            mode = try NameGameStore.mode(row, Columns.mode)
            stats = try NameGameStore.stats(row, Columns.self)
            streak = try row.decode(Columns.streak)
            best = try row.decode(Columns.bestStreak)
        }
    }

    /// A `namegame_cards` row: what a player knows of one person.
    package struct CardRow: FetchableRecord, TableRecord {
        package static let table = "namegame_cards"
        package enum Columns: String, ColumnName {
            case player, person, state, step, stability, difficulty, due = "due_ms", lastReview = "last_ms", reviews
            case lapses, met = "met_ms", introduced
        }
        package let person: String
        package let card: Card

        package init(row: Row) throws(DatabaseError) {
            person = try row.decode(Columns.person)
            let name: String = try row.decode(Columns.state)
            guard let state = Card.State(rawValue: name) else {
                throw DatabaseError("namegame_cards: unknown state \(name)")
            }
            // An introduction is not a review: its stability and difficulty are stored as 0, read as none yet.
            let stability = try row.decode(Columns.stability, as: Double.self)
            let difficulty = try row.decode(Columns.difficulty, as: Double.self)
            card = Card(
                state: state, step: try row.decodeIfPresent(Columns.step), stability: stability > 0 ? stability : nil,
                difficulty: difficulty > 0 ? difficulty : nil, due: try row.decode(Columns.due),
                lastReview: try row.decode(Columns.lastReview, as: Int64.self),
                created: try row.decodeIfPresent(Columns.met))
        }
    }

    /// `namegame_session_people`: a session's people to come (`next`) and, in a review, still to ask (`queue`).
    package enum SessionPeople: TableRecord {
        package static let table = "namegame_session_people"
        package enum Columns: String, ColumnName { case session, list, position, person }
    }

    package struct RoundRecord: Sendable {
        package let id: Int64
        package let session: Int64
        package let round: Round
        package let startedMilliseconds: Int64
        package let wrong: [Int]
        package let status: String
        package var finishedMilliseconds: Int64? = nil
        /// The "who is it?" cheat helped: the name's first letter, or half the wrong faces gone.
        package var cheat = false
        /// What the player typed, when a recall round's answer was wrong.
        package var typed: String? = nil
        /// A recall round's name accepted with a typo forgiven (`NameMatch.spelledRight`), as it was just answered.
        package var typo = false
        package var isOpen: Bool { status == "open" }
    }

    package enum Refusal: Error, Equatable {
        case unknownRound, alreadyAnswered, invalidChoice, alreadyTried, hidden, timeUp
        /// A recall round answered with the person's surname alone, where the first name is asked: said, not scored.
        case surnameOnly
        /// The first name or the surname alone, where a namesake on the team makes the full name asked: said, not
        /// scored.
        case partOfFullName
    }

    package func session(id: Int64, player: String) throws -> Session? {
        try session(pool.connection(), "id = ? AND player = ?", [.integer(id), .text(player)])
    }

    package func openSession(player: String, mode: Mode) throws -> Session? {
        try session(pool.connection(), "player = ? AND mode = ? AND ended = 0", [.text(player), .text(mode.rawValue)])
    }

    package func lastSession(player: String, mode: Mode) throws -> Session? {
        try session(
            pool.connection(), "player = ? AND mode = ? ORDER BY id DESC LIMIT 1",
            [.text(player), .text(mode.rawValue)])
    }

    /// The first session `condition` finds, with its lists.
    private func session(_ db: Database, _ condition: String, _ values: [SQLValue]) throws -> Session? {
        guard
            var session = try db.fetchOne(
                Session.self, "SELECT \(Session.selection) FROM namegame_sessions WHERE \(condition)",
                values)
        else { return nil }
        for row in try db.query(
            "SELECT list, person FROM namegame_session_people WHERE session = ? ORDER BY list, position",
            [.integer(session.id)])
        {
            let person: String = try row.decode(SessionPeople.Columns.person)
            if try row.decode(SessionPeople.Columns.list, as: String.self) == "next" {
                session.nextPeople.append(person)
            } else {
                session.queue.append(person)
            }
        }
        return session
    }

    /// Replaces one of a session's lists of people.
    private func setList(_ db: Database, _ list: String, session: Int64, _ people: [String]) throws {
        try db.execute(
            "DELETE FROM namegame_session_people WHERE session = ? AND list = ?", [.integer(session), .text(list)])
        for (position, person) in people.enumerated() {
            try db.execute(
                SessionPeople.insert { row in
                    row[.session] = session
                    row[.list] = list
                    row[.position] = position
                    row[.person] = person
                })
        }
    }

    /// `meetMore`: new people it may meet past the day's pace (a lesson asked for them).
    package func startSession(player who: Player, mode: Mode, meetMore: Int = 0) throws -> Session {
        let player = who.id
        return try pool.write { db in
            try who.ensureRow(db)
            try db.execute(
                "UPDATE namegame_sessions SET ended = 1 WHERE player = ? AND mode = ? AND ended = 0",
                [.text(player), .text(mode.rawValue)])
            let id = try db.insert(
                Session.insert { row in
                    row[.player] = player
                    row[.mode] = mode.rawValue
                    row[.startedMilliseconds] = nowMilliseconds()
                    row[.meetMore] = meetMore
                })
            var session = Session(
                id: id, mode: mode, startedMilliseconds: nowMilliseconds(), ended: false,
                stats: Stats(), nextPeople: [])
            session.meetMore = meetMore
            return session
        }
    }

    /// "More time" in a timed session, each press this much (WCAG 2.2.1 asks for at least 20 seconds), at most
    /// `maxExtraTime` in all (ten presses: the clock still ends).
    package static let extraTime: Int64 = 30_000
    package static let maxExtraTime: Int64 = 300_000
    /// More time is offered only this close to the end, with a spoken warning (WCAG 2.2.1's "at least 20 seconds to
    /// extend"): offered from the first second, a review read it as a way to buy a minute's score off.
    package static let moreTimeOffered: Int64 = 20_000
    /// What a wrong tap takes off a timed session's clock: tapping faces at random scores less than thinking.
    package static let wrongTapCost: Int64 = 3_000

    /// Adds `extraTime` to the player's open timed session in its clock's last `moreTimeOffered`; false if there is
    /// none, its time is up or not yet near, or it has had all it may.
    package func addTime(player: String, timedSeconds: Int) throws -> Bool {
        let now = nowMilliseconds()
        return try pool.write { db in
            try db.execute(
                """
                UPDATE namegame_sessions SET extra_ms = extra_ms + ? WHERE player = ? AND mode = 'timed' AND ended = 0
                    AND extra_ms < ? AND started_ms + ? + extra_ms BETWEEN ? AND ?
                """,
                [
                    .integer(Self.extraTime), .text(player), .integer(Self.maxExtraTime),
                    .integer(Int64(timedSeconds) * 1000), .integer(now), .integer(now + Self.moreTimeOffered),
                ]) == 1
        }
    }

    package func endSession(_ id: Int64) throws {
        _ = try pool.write { try $0.execute("UPDATE namegame_sessions SET ended = 1 WHERE id = ?", [.integer(id)]) }
    }

    package func latestRound(session: Int64, people: Directory) throws -> RoundRecord? {
        try round(pool.connection(), "session = ? ORDER BY id DESC LIMIT 1", [.integer(session)], people)
    }

    package func round(id: Int64, player: String, people: Directory) throws -> RoundRecord? {
        try round(pool.connection(), "id = ? AND player = ?", [.integer(id), .text(player)], people)
    }

    /// Stores a new round, and the people of the one after it (for prefetching).
    package func addRound(_ round: Round, next: [Person], session: Int64, player who: Player) throws -> RoundRecord {
        let player = who.id
        let started = nowMilliseconds()
        let id = try pool.write { db in
            try who.ensureRow(db)
            let id = try db.insert(
                RoundRow.insert { row in
                    row[.session] = session
                    row[.player] = player
                    row[.mode] = round.mode.rawValue
                    row[.answer] = round.answer
                    row[.startedMilliseconds] = started
                    row[.recall] = round.recall
                })
            for (position, person) in round.people.enumerated() {
                try db.execute(
                    Face.insert { row in
                        row[.round] = id
                        row[.position] = position
                        row[.person] = person.id
                        row[.hideRank] = round.hideOrder.firstIndex(of: position)
                    })
            }
            try setList(db, "next", session: session, next.map(\.id))
            return id
        }
        return RoundRecord(
            id: id, session: session, round: round, startedMilliseconds: started, wrong: [], status: "open")
    }

    /// Marks the round on the player's page as helped by the cheat; false if it is not theirs or not open.
    package func cheat(player: String, round: Int64) throws -> Bool {
        try pool.write { db in
            try db.execute(
                "UPDATE namegame_rounds SET cheat = 1 WHERE id = ? AND player = ? AND status = 'open'",
                [.integer(round), .text(player)]) == 1
        }
    }

    /// What a round's end also writes (the once-store's marks), in the transaction that ends it.
    package typealias Ended = @Sendable (Database) throws -> Void

    /// Records a tap. The round must be open, the choice valid, not tried
    /// before and not hidden; in timed mode the minute must not be over. `ended` runs if the tap ends the round.
    package func answer(
        player: String, round id: Int64, choice: Int, people: Directory, hintInterval: Double,
        timedSeconds: Int, ended: Ended? = nil
    ) throws -> Result<RoundRecord, Refusal> {
        return try pool.write { db throws -> Result<RoundRecord, Refusal> in
            try Player.lock(player, db)  // an answer is checked once, whichever instance runs it
            guard let record = try round(db, "id = ? AND player = ?", [.integer(id), .text(player)], people) else {
                return .failure(.unknownRound)
            }
            guard record.isOpen else { return .failure(.alreadyAnswered) }
            let round = record.round
            guard !round.recall, round.people.indices.contains(choice) else { return .failure(.invalidChoice) }
            guard !record.wrong.contains(choice) else { return .failure(.alreadyTried) }
            let now = nowMilliseconds()
            let elapsed = Double(now - record.startedMilliseconds) / 1000
            if round.hidden(after: elapsed, interval: hintInterval).contains(choice) { return .failure(.hidden) }
            guard let session = try session(db, "id = ?", [.integer(record.session)]) else {
                return .failure(.unknownRound)
            }
            if session.timeIsUp(at: now, seconds: timedSeconds) {
                return .failure(.timeUp)
            }
            let correct = choice == round.answer
            let wrong = correct ? record.wrong : record.wrong + [choice]
            let failed = !correct && round.mode == .practice
            // Hints that ran out left one face: tapping it is waiting for the answer, not knowing it (a review).
            let waitedOut = correct && record.wrong.isEmpty && round.hintsRanOut(after: elapsed, interval: hintInterval)
            let status = waitedOut ? "skipped" : correct ? "identified" : failed ? "failed" : "open"
            try finish(db, player: player, record, session: session, status: status, wrong: wrong, now: now)
            if status != "open" { try ended?(db) }
            if !correct && round.mode == .timed {
                try db.execute(
                    "UPDATE namegame_sessions SET penalty_ms = penalty_ms + ? WHERE id = ?",
                    [.integer(Self.wrongTapCost), .integer(session.id)])
            }
            return .success(
                RoundRecord(
                    id: id, session: record.session, round: round, startedMilliseconds: record.startedMilliseconds,
                    wrong: wrong, status: status, finishedMilliseconds: status == "open" ? nil : now))
        }
    }

    /// "I don't know": the round ends as a miss and shows the answer; a practice run ends after it, as after a wrong
    /// pick.
    package func giveUp(
        player: String, round id: Int64, people: Directory, timedSeconds: Int, ended: Ended? = nil
    ) throws -> Result<RoundRecord, Refusal> {
        try pool.write { db throws -> Result<RoundRecord, Refusal> in
            try Player.lock(player, db)
            guard let record = try round(db, "id = ? AND player = ?", [.integer(id), .text(player)], people) else {
                return .failure(.unknownRound)
            }
            guard record.isOpen else { return .failure(.alreadyAnswered) }
            guard let session = try session(db, "id = ?", [.integer(record.session)]) else {
                return .failure(.unknownRound)
            }
            let now = nowMilliseconds()
            if session.timeIsUp(at: now, seconds: timedSeconds) {
                return .failure(.timeUp)
            }
            try finish(db, player: player, record, session: session, status: "skipped", wrong: record.wrong, now: now)
            try ended?(db)
            return .success(
                RoundRecord(
                    id: id, session: record.session, round: record.round,
                    startedMilliseconds: record.startedMilliseconds, wrong: record.wrong, status: "skipped",
                    finishedMilliseconds: now))
        }
    }

    /// Records a typed name in a recall round: right (the matcher's rule, `NameMatch`) identifies the person, anything
    /// else is a miss that shows the answer. One try, like a tap that ends the round.
    package func recall(
        player: String, round id: Int64, typed: String, people: Directory, timedSeconds: Int, ended: Ended? = nil
    ) throws -> Result<RoundRecord, Refusal> {
        try pool.write { db throws -> Result<RoundRecord, Refusal> in
            try Player.lock(player, db)
            guard let record = try round(db, "id = ? AND player = ?", [.integer(id), .text(player)], people) else {
                return .failure(.unknownRound)
            }
            guard record.isOpen else { return .failure(.alreadyAnswered) }
            guard record.round.recall else { return .failure(.invalidChoice) }
            guard let session = try session(db, "id = ?", [.integer(record.session)]) else {
                return .failure(.unknownRound)
            }
            let now = nowMilliseconds()
            if session.timeIsUp(at: now, seconds: timedSeconds) {
                return .failure(.timeUp)
            }
            let person = record.round.answerPerson
            let met = { (id: String) in
                try db.first(
                    "SELECT 1 AS met FROM namegame_cards WHERE player = ? AND person = ?", [.text(player), .text(id)])
                    != nil
            }
            let fullName = NameMatch.asksFullName(person, among: people.team)
            // Their surname is what they are called too: asked again for the first name, not marked wrong (a review
            // typed Achebe for Matt Achebe and read "Wrong").
            if !fullName && NameMatch.isSurname(typed, of: person) { return .failure(.surnameOnly) }
            if fullName
                && (NameMatch.isSurname(typed, of: person) || NameMatch.fold(typed) == NameMatch.fold(person.firstName))
            {
                return .failure(.partOfFullName)
            }
            let right = try NameMatch.accepts(
                typed, for: person, among: people.people, fullName: fullName, known: met)
            let status = right ? "identified" : "failed"
            // A name forgiven a typo is right, not a clean recall: it comes back sooner, to be spelled (a review: "Amira"
            // for Amara is the very mistake the game is there to prevent).
            let typo = right && !NameMatch.spelledRight(typed, for: person, fullName: fullName)
            try finish(db, player: player, record, session: session, status: status, wrong: [], now: now, helped: typo)
            try ended?(db)
            if !right {
                // Kept to be shown beside the answer: what was typed and what the name is, side by side.
                try db.execute("UPDATE namegame_rounds SET typed = ? WHERE id = ?", [.text(typed), .integer(id)])
            }
            return .success(
                RoundRecord(
                    id: id, session: record.session, round: record.round,
                    startedMilliseconds: record.startedMilliseconds, wrong: [], status: status,
                    finishedMilliseconds: now, typed: right ? nil : typed, typo: typo))
        }
    }

    /// A recall round's hint: its first letter shows (the round is marked helped); false if it is not open.
    package func hint(player: String, round id: Int64) throws -> Bool {
        try pool.write { db in
            try db.execute(
                "UPDATE namegame_rounds SET cheat = 1 WHERE id = ? AND player = ? AND status = 'open' AND recall = 1",
                [.integer(id), .text(player)]) == 1
        }
    }

    /// Records a tap's outcome: the round, the session's and lifetime figures (by exact amounts), the streaks, and, once
    /// the round is over, what the player now knows of the person asked.
    private func finish(
        _ db: Database, player: String, _ record: RoundRecord, session: Session, status: String, wrong: [Int],
        now: Int64, helped: Bool = false
    ) throws {
        let round = record.round
        let mode = round.mode.rawValue
        let identified = status == "identified"
        let gaveUp = status == "skipped"
        let finished = status != "open"
        try db.execute(
            "UPDATE namegame_rounds SET status = ?, finished_ms = ? WHERE id = ?",
            [.text(status), finished ? .integer(now) : .null, .integer(record.id)])
        for (rank, position) in wrong.enumerated().dropFirst(record.wrong.count) {
            try db.execute(
                "UPDATE namegame_round_faces SET wrong_rank = ? WHERE round = ? AND position = ?",
                [SQLValue(rank), .integer(record.id), SQLValue(position)])
        }
        // The first answer decides a round, counted once: right at once is correct; a wrong pick, a wrong name or
        // "I don't know" is incorrect, and the tap on the shown answer that follows a miss only moves on.
        let firstAnswer = record.wrong.isEmpty
        let rightAtOnce = identified && wrong.isEmpty
        // Right with the "who is it?" cheat or a recall's letter is found, not known: it counts neither as right nor
        // as wrong, and leaves the streak as it was (a review: Right and the streak rose for a cheat-helped pick).
        let known = rightAtOnce && !record.cheat
        let missed = firstAnswer && !identified && (!wrong.isEmpty || gaveUp || status == "failed")
        let delta: [SQLValue] = [
            SQLValue(finished ? 1 : 0), SQLValue(rightAtOnce ? 1 : 0), SQLValue(known ? 1 : 0),
            SQLValue(missed ? 1 : 0), .integer(rightAtOnce ? now - record.startedMilliseconds : 0),
        ]
        // Streaks: rounds in a row identified at the first pick, broken by the miss itself (a review saw "Streak 1"
        // beside "Incorrect 1" until the shown answer was tapped), "I don't know" too (a review saw Wrong rise and the
        // streak stay).
        let streak: String =
            missed ? "0" : !finished ? "streak" : known ? "streak + 1" : rightAtOnce ? "streak" : "0"
        // In the SQL both engines read: no two-argument max(), no OR over integers.
        let best = "CASE WHEN best_streak > \(streak) THEN best_streak ELSE \(streak) END"
        try db.execute(
            """
            UPDATE namegame_sessions SET rounds = rounds + ?, identified = identified + ?, correct = correct + ?,
                incorrect = incorrect + ?, identify_ms = identify_ms + ?, streak = \(streak),
                best_streak = \(best) WHERE id = ?
            """, delta + [.integer(record.session)])
        try db.execute(
            Lifetime.insert("ON CONFLICT DO NOTHING") { row in
                row[.player] = player
                row[.mode] = mode
            })
        try db.execute(
            """
            UPDATE namegame_lifetime SET rounds = rounds + ?, identified = identified + ?, correct = correct + ?,
                incorrect = incorrect + ?, identify_ms = identify_ms + ?, streak = \(streak),
                best_streak = \(best) WHERE player = ? AND mode = ?
            """, delta + [.text(player), .text(mode)])
        // Review my misses drills: someone missed is asked again at the end of its list (a review: once each was thin,
        // where Anki relearns a card until it is remembered).
        if round.mode == .review && missed { try requeue(db, session: record.session, person: round.answerPerson.id) }
        try teach(db, player: player, record, wrong: wrong, status: status, now: now, helped: helped)
    }

    /// Every mode teaches the scheduler about the person asked, once a round: at its first miss (a wrong pick
    /// counts at once, even if the player then leaves the round), or when it ends without one.
    private func teach(
        _ db: Database, player: String, _ record: RoundRecord, wrong: [Int], status: String, now: Int64,
        helped: Bool
    ) throws {
        let round = record.round
        let (gaveUp, finished) = (status == "skipped", status != "open")
        let firstMiss = wrong.count > 0 && record.wrong.isEmpty
        guard firstMiss || (finished && record.wrong.isEmpty) else { return }
        let person = round.answerPerson.id
        let known = try db.fetchOne(
            CardRow.self, "SELECT \(CardRow.selection) FROM namegame_cards WHERE player = ? AND person = ?",
            [.text(player), .text(person)])?.card
        // A quiz asks about someone never met only until the player has met a few of its pool (`quizRound`): that
        // round meets them, shown, named and placed whatever the guess, which rates nothing (a review: every face of
        // eight modes' sessions ended "New to you", never met). Earlier, a minute of Timed put sixty strangers "due
        // today"; now it meets four.
        guard known != nil || Self.meets(round.mode) else {
            // Due after a learning step's minute, not at once: the round just showed who they are. Not introduced:
            // Learn does that before it asks about them (a review: it quizzed people it had never shown).
            try meet(db, player: player, person: person, now: now, due: now + 60_000, introduced: false)
            return
        }
        let card = known ?? Card(due: now)
        let rating = plan.rating(
            wrongPicks: wrong.count, gaveUp: gaveUp || status == "failed",
            milliseconds: Int(now - record.startedMilliseconds), helped: record.cheat || helped, typed: round.recall,
            usual: try usualMilliseconds(
                session: record.session, typed: round.recall, before: record.startedMilliseconds, db))
        // Someone asked before they are due is practice (Anki's cramming): a miss counts, a right answer moves nothing.
        // So in every quiz (a review: one timed minute of four people marked them all learned), and for anyone past
        // their learning steps in any mode (a review: 25 minutes of recall and lessons made a person met that day
        // "Learned").
        if rating != .again && card.due > now
            && (card.state == .review || !Self.meets(round.mode))
        {
            return
        }
        // A coin toss between two faces proves nothing: in 50/50 only a miss counts (a review: ten rounds of it marked
        // two people just missed "Strengthened" and cleared their review).
        if round.mode == .fifty && rating != .again { return }
        try save(fsrs.review(card, rating, at: now), rating, player: player, person: person, now: now, db)
    }

    /// A review's card: the first makes it; later ones count up, and keep when it was met.
    private func save(
        _ next: Card, _ rating: Rating, player: String, person: String, now: Int64, _ db: Database
    )
        throws
    {
        let reviewed = """
            ON CONFLICT (player, person) DO UPDATE SET state = excluded.state, step = excluded.step,
                stability = excluded.stability, difficulty = excluded.difficulty, due_ms = excluded.due_ms,
                last_ms = excluded.last_ms, reviews = namegame_cards.reviews + 1,
                lapses = namegame_cards.lapses + excluded.lapses
            """
        try db.execute(
            CardRow.insert(reviewed) { row in
                row[.player] = player
                row[.person] = person
                row[.state] = next.state.rawValue
                row[.step] = next.step
                row[.stability] = next.stability ?? 0
                row[.difficulty] = next.difficulty ?? 0
                row[.due] = next.due
                row[.lastReview] = now
                row[.reviews] = 1
                row[.lapses] = rating == .again ? 1 : 0
                row[.met] = now
            })
    }

    /// An introduction of someone new was seen: they are met. In Learn they are due at once; the caller plans the
    /// next round without them, so the first question about them comes one round later (a review: asked a second after
    /// meeting them, the answer was only remembered), then drops this one (`dropIntroduction`). In a quiz the question
    /// about them is this round, asked at once: its clock starts now, and they are due in a minute, so the answer read
    /// off the introduction rates nothing (cramming, as `teach` says). Nil: no such open round.
    package func introduce(player: String, round id: Int64, people: Directory) throws -> RoundRecord? {
        try pool.write { db in
            guard let record = try round(db, "id = ? AND player = ?", [.integer(id), .text(player)], people),
                record.isOpen, record.round.mode.introducesNewFaces
            else { return nil }
            let now = nowMilliseconds()
            let person = record.round.answerPerson.id
            guard record.round.mode != .learn else {
                try meet(db, player: player, person: person, now: now)
                return record
            }
            guard record.wrong.isEmpty else { return nil }
            try meet(db, player: player, person: person, now: now, due: now + 60_000)
            try db.execute(
                "UPDATE namegame_rounds SET started_ms = ? WHERE id = ? AND status = 'open'",
                [.integer(now), .integer(id)])
            return record
        }
    }

    /// An introduction's round asked nothing: it goes once a later round has taken its place. Only then: SQLite
    /// gives a new row the highest id plus one, so a deleted last round's id would come back, and a second tap on
    /// its "Got it" would meet the next person unseen.
    package func dropIntroduction(player: String, round id: Int64, replacedBy later: Int64) throws {
        guard later > id else { return }
        try pool.write { db in
            guard
                try db.first(
                    "SELECT 1 AS open FROM namegame_rounds WHERE id = ? AND player = ? AND status = 'open'",
                    [.integer(id), .text(player)]) != nil
            else { return }
            // The "who is it?" cheat used on the introduction helps the question that follows, as it said (a review:
            // promised, and all six faces stayed: the mark went with the introduction).
            try db.execute(
                """
                UPDATE namegame_rounds SET cheat = 1 WHERE id = ? AND player = ? AND status = 'open'
                    AND EXISTS (SELECT 1 FROM namegame_rounds i WHERE i.id = ? AND i.cheat = 1)
                """, [.integer(later), .text(player), .integer(id)])
            try db.execute("DELETE FROM namegame_round_faces WHERE round = ?", [.integer(id)])
            try db.execute("DELETE FROM namegame_rounds WHERE id = ?", [.integer(id)])
        }
    }

    /// Modes in which the player meets people (a card is made for them): learn, recall, and review, which drills
    /// someone missed after showing who they are (a review: 18 rounds of drilling left strangers "Not met yet"). The
    /// others quiz: they rate people already met, and leave strangers alone.
    package static func meets(_ mode: Mode) -> Bool { mode == .learn || mode == .recall || mode == .review }

    /// Someone is met: a learning card due at once (or at `due`), unless the player already has one, which an
    /// introduction marks introduced.
    private func meet(
        _ db: Database, player: String, person: String, now: Int64, due: Int64? = nil, introduced: Bool = true
    ) throws {
        let introduces = """
            ON CONFLICT (player, person) DO UPDATE SET introduced = 1 WHERE excluded.introduced = 1
                AND namegame_cards.introduced = 0
            """
        try db.execute(
            CardRow.insert(introduces) { row in
                row[.player] = player
                row[.person] = person
                row[.state] = Card.State.learning.rawValue
                row[.step] = 0
                row[.stability] = 0.0
                row[.difficulty] = 0.0
                row[.due] = due ?? now
                row[.lastReview] = now
                row[.reviews] = 0
                row[.met] = now
                row[.introduced] = introduced
            })
    }

    /// The longest note a player keeps on someone met, in characters.
    package static let maxNote = 140

    /// A player's note on someone they have met (cut to `maxNote` characters; empty clears it). False: not met, no
    /// card to keep it on.
    package func setNote(player: String, person: String, note: String) throws -> Bool {
        let kept = String(note.trimmingSpaces.prefix(Self.maxNote))
        return try pool.write { db in
            try db.execute(
                "UPDATE namegame_cards SET note = ? WHERE player = ? AND person = ?",
                [kept.isEmpty ? .null : .text(kept), .text(player), .text(person)]) > 0
        }
    }

    /// The player's notes, by person.
    package func notes(player: String) throws -> [String: String] {
        var notes: [String: String] = [:]
        for row in try pool.connection().query(
            "SELECT person, note FROM namegame_cards WHERE player = ? AND note IS NOT NULL", [.text(player)])
        {
            notes[try row.decode("person")] = try row.decode("note")
        }
        return notes
    }

    /// The note of the player who played `round` on `person`, if any.
    package func note(round: Int64, person: String) throws -> String? {
        try pool.connection().value(
            String.self,
            """
            SELECT c.note FROM namegame_cards c JOIN namegame_rounds r ON r.player = c.player
            WHERE r.id = ? AND c.person = ? AND c.note IS NOT NULL
            """, [.integer(round), .text(person)])
    }

    /// Whether the player met someone only by a guess in a quiz, and Learn has not introduced them yet.
    package func notIntroduced(player: String, person: String) throws -> Bool {
        try pool.connection().first(
            "SELECT 1 AS guessed FROM namegame_cards WHERE player = ? AND person = ? AND introduced = 0",
            [.text(player), .text(person)]) != nil
    }

    /// Whether the player has met anyone at all (one row read, not their cards).
    package func hasMetAnyone(player: String) throws -> Bool {
        try pool.connection().first("SELECT 1 AS met FROM namegame_cards WHERE player = ? LIMIT 1", [.text(player)])
            != nil
    }

    /// How many people the player first met since `since` (learn mode's daily limit of new people).
    package func met(player: String, since: Int64) throws -> Int {
        try pool.connection().value(
            Int.self, "SELECT COUNT(*) FROM namegame_cards WHERE player = ? AND met_ms >= ?",
            [.text(player), .integer(since)]) ?? 0
    }

    /// Whether the player has met someone (been introduced, or asked about them in any mode).
    package func hasMet(player: String, person: String) throws -> Bool {
        try pool.connection().first(
            "SELECT 1 AS met FROM namegame_cards WHERE player = ? AND person = ?", [.text(player), .text(person)])
            != nil
    }

    /// What the player knows of each person met.
    package func cards(player: String) throws -> [String: Card] {
        var cards: [String: Card] = [:]
        for row in try pool.connection().fetchAll(
            CardRow.self, "SELECT \(CardRow.selection) FROM namegame_cards WHERE player = ?",
            [.text(player)])
        {
            cards[row.person] = row.card
        }
        return cards
    }

    /// The people a session asked about last, latest first.
    package func recentlyAsked(session: Int64, limit: Int) throws -> [String] {
        guard limit > 0 else { return [] }
        return try pool.connection().query(
            """
            SELECT f.person FROM namegame_rounds r JOIN namegame_round_faces f ON f.round = r.id AND f.position = r.answer
            WHERE r.session = ? ORDER BY r.id DESC LIMIT ?
            """, [.integer(session), SQLValue(limit)]
        ).map { try $0.decode(Face.Columns.person) }
    }

    /// Whether the player's last round about `person` outside a review (before round `before`, if given) asked the
    /// name to be typed; with `missed`, typed and not named.
    package func lastAskedTyped(
        player: String, person: String, before: Int64 = .max, missed: Bool = false
    ) throws -> Bool {
        guard
            let last = try pool.connection().first(
                """
                SELECT r.recall, r.status FROM namegame_rounds r
                JOIN namegame_round_faces f ON f.round = r.id AND f.position = r.answer
                WHERE r.player = ? AND f.person = ? AND r.mode != 'review' AND r.id < ? ORDER BY r.id DESC LIMIT 1
                """, [.text(player), .text(person), .integer(before)])
        else { return false }
        return try last.int("recall") == 1 && !(missed && last.decode("status", as: String.self) == "identified")
    }

    /// The people a session missed (a wrong pick, a failed round, "I don't know"), in the order they were asked.
    package func misses(session: Int64, people: Directory) throws -> [Person] {
        let rows = try pool.connection().query(
            """
            SELECT f.person FROM namegame_rounds r
            JOIN namegame_round_faces f ON f.round = r.id AND f.position = r.answer
            WHERE r.session = ? AND (r.status IN ('failed', 'skipped')
                OR EXISTS (SELECT 1 FROM namegame_round_faces w WHERE w.round = r.id AND w.wrong_rank IS NOT NULL))
            ORDER BY r.id
            """, [.integer(session)])
        var seen = Set<String>()
        var result: [Person] = []
        for row in rows {
            let id: String = try row.decode(Face.Columns.person)
            guard seen.insert(id).inserted, let person = people.person(id) else { continue }
            result.append(person)
        }
        return result
    }

    /// A review session asking `people` once each, in order; the player's previous review session ends.
    package func startReview(player who: Player, people: [Person]) throws -> Session {
        let session = try startSession(player: who, mode: .review)
        try pool.write { db in try setList(db, "queue", session: session.id, people.map(\.id)) }
        return Session(
            id: session.id, mode: .review, startedMilliseconds: session.startedMilliseconds, ended: false,
            stats: Stats(), nextPeople: [], streak: 0, queue: people.map(\.id))
    }

    /// How often a review asks one person at most.
    package static let reviewAsks = 3

    /// Puts someone a review missed back at the end of its queue, unless it has asked them `reviewAsks` times.
    private func requeue(_ db: Database, session: Int64, person: String) throws {
        let asked =
            try db.first(
                """
                SELECT COUNT(*) AS n FROM namegame_rounds r
                JOIN namegame_round_faces f ON f.round = r.id AND f.position = r.answer WHERE r.session = ? AND f.person = ?
                """, [.integer(session), .text(person)])?.int("n") ?? 0
        guard asked < Self.reviewAsks else { return }
        let last = try db.first(
            "SELECT MAX(position) AS p FROM namegame_session_people WHERE session = ? AND list = 'queue'",
            [.integer(session)])?.int("p")
        try db.execute(
            SessionPeople.insert { row in
                row[.session] = session
                row[.list] = "queue"
                row[.position] = (last ?? -1) + 1
                row[.person] = person
            })
    }

    /// Takes the head of a review session's queue.
    package func popQueue(session: Int64) throws -> String? {
        try pool.write { db in
            guard
                let row = try db.first(
                    """
                    SELECT position, person FROM namegame_session_people WHERE session = ? AND list = 'queue'
                    ORDER BY position LIMIT 1\(db.forUpdate)
                    """, [.integer(session)])
            else { return nil }
            try db.execute(
                "DELETE FROM namegame_session_people WHERE session = ? AND list = 'queue' AND position = ?",
                [.integer(session), .integer(try row.decode(SessionPeople.Columns.position))])
            return try row.decode(SessionPeople.Columns.person, as: String.self)
        }
    }

    package func lifetime(player: String) throws -> [Lifetime] {
        try pool.connection().fetchAll(
            Lifetime.self, "SELECT \(Lifetime.selection) FROM namegame_lifetime WHERE player = ?",
            [.text(player)]
        ).sorted { Mode.allCases.firstIndex(of: $0.mode)! < Mode.allCases.firstIndex(of: $1.mode)! }
    }

    /// Seconds to identify someone, over the player's last rounds (oldest first).
    package func recentIdentifyTimes(player: String, limit: Int = 20) throws -> [Double] {
        try pool.connection().query(
            """
            SELECT finished_ms - started_ms AS ms FROM namegame_rounds
            WHERE player = ? AND status = 'identified' ORDER BY finished_ms DESC LIMIT ?
            """, [.text(player), SQLValue(limit)]
        )
        .map { row throws in Double(try row.decode("ms", as: Int.self)) / 1000 }.reversed()
    }

    fileprivate static func stats<C: FiguresColumns>(_ row: Row, _: C.Type) throws(DatabaseError) -> Stats {
        var stats = Stats()
        stats.rounds = try row.decode(C.rounds)
        stats.identified = try row.decode(C.identified)
        stats.correctTaps = try row.decode(C.correct)
        stats.incorrectTaps = try row.decode(C.incorrect)
        stats.identifyMilliseconds = try row.decode(C.identifyMilliseconds)
        return stats
    }

    fileprivate static func mode(_ row: Row, _ column: some ColumnName) throws(DatabaseError) -> Mode {
        let name: String = try row.decode(column)
        guard let mode = Mode(rawValue: name) else {
            throw DatabaseError("unknown Name Game mode \(name) (in: \(row.query))")
        }
        return mode
    }

    /// The first round `condition` finds, with its faces; nil when its people are no longer in the directory.
    private func round(
        _ db: Database, _ condition: String, _ values: [SQLValue], _ directory: Directory
    ) throws
        -> RoundRecord?
    {
        guard
            let row = try db.fetchOne(
                RoundRow.self, "SELECT \(RoundRow.selection) FROM namegame_rounds WHERE \(condition)", values)
        else { return nil }
        let faces = try db.fetchAll(
            Face.self, "SELECT \(Face.selection) FROM namegame_round_faces WHERE round = ? ORDER BY position",
            [.integer(row.id)])
        let people = faces.compactMap { directory.person($0.person) }
        let hide = faces.filter { $0.hideRank != nil }.sorted { $0.hideRank! < $1.hideRank! }.map(\.position)
        let wrong = faces.filter { $0.wrongRank != nil }.sorted { $0.wrongRank! < $1.wrongRank! }.map(\.position)
        guard !people.isEmpty, people.indices.contains(row.answer) else { return nil }
        return RoundRecord(
            id: row.id, session: row.session,
            round: Round(mode: row.mode, people: people, answer: row.answer, hideOrder: hide, recall: row.recall),
            startedMilliseconds: row.startedMilliseconds, wrong: wrong, status: row.status,
            finishedMilliseconds: row.finishedMilliseconds, cheat: row.cheat, typed: row.typed)
    }
}
