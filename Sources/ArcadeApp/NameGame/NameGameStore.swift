import NameGame
import SpacedRepetition
import Storage
#if canImport(Glibc)
import Glibc
#endif

/// Name Game sessions and rounds in SQLite. A round lives only here: the
/// page never holds its answer before it is answered. Every answer is
/// checked and recorded in one transaction.
struct NameGameStore: Sendable {
    let pool: DatabasePool
    var clock: @Sendable () -> Double = WallClock.system
    var fsrs = FSRS()
    var plan = LearningPlan()

    func nowMilliseconds() -> Int64 { WallClock.milliseconds(clock) }

    struct Session: Sendable {
        let id: Int64
        let mode: Mode
        let startedMilliseconds: Int64
        let ended: Bool
        let stats: Stats
        let nextPeople: [String]
        /// Rounds in a row identified at the first pick: now, and the session's best.
        var streak = 0
        var bestStreak = 0
        /// A review session's people still to ask.
        var queue: [String] = []
    }

    struct RoundRecord: Sendable {
        let id: Int64
        let session: Int64
        let round: Round
        let startedMilliseconds: Int64
        let wrong: [Int]
        let status: String
        var finishedMilliseconds: Int64? = nil
        /// The "who is it?" cheat helped: the name's first letter, or half the wrong faces gone.
        var cheat = false
        var isOpen: Bool { status == "open" }
    }

    enum Refusal: Error, Equatable {
        case unknownRound, alreadyAnswered, invalidChoice, alreadyTried, hidden, timeUp
    }

    func session(id: Int64, player: String) throws -> Session? {
        try pool.connection().first("SELECT * FROM namegame_sessions WHERE id = ? AND player = ?", [.integer(id), .text(player)])
            .map(session)
    }

    func openSession(player: String, mode: Mode) throws -> Session? {
        try pool.connection().first("SELECT * FROM namegame_sessions WHERE player = ? AND mode = ? AND ended = 0",
                                    [.text(player), .text(mode.rawValue)]).map(session)
    }

    func lastSession(player: String, mode: Mode) throws -> Session? {
        try pool.connection().first("SELECT * FROM namegame_sessions WHERE player = ? AND mode = ? ORDER BY id DESC LIMIT 1",
                                    [.text(player), .text(mode.rawValue)]).map(session)
    }

    func startSession(player who: Player, mode: Mode) throws -> Session {
        let player = who.id
        return try pool.write { db in
            try who.ensureRow(db)
            try db.execute("UPDATE namegame_sessions SET ended = 1 WHERE player = ? AND mode = ? AND ended = 0",
                           [.text(player), .text(mode.rawValue)])
            let id = try db.insert("INSERT INTO namegame_sessions (player, mode, started_ms) VALUES (?, ?, ?)",
                                   [.text(player), .text(mode.rawValue), .integer(nowMilliseconds())])
            return Session(id: id, mode: mode, startedMilliseconds: nowMilliseconds(), ended: false,
                           stats: Stats(), nextPeople: [])
        }
    }

    func endSession(_ id: Int64) throws {
        _ = try pool.write { try $0.execute("UPDATE namegame_sessions SET ended = 1 WHERE id = ?", [.integer(id)]) }
    }

    func latestRound(session: Int64, people: Directory) throws -> RoundRecord? {
        try pool.connection().first("SELECT * FROM namegame_rounds WHERE session = ? ORDER BY id DESC LIMIT 1",
                                    [.integer(session)]).flatMap { round($0, people) }
    }

    func round(id: Int64, player: String, people: Directory) throws -> RoundRecord? {
        try pool.connection().first("SELECT * FROM namegame_rounds WHERE id = ? AND player = ?", [.integer(id), .text(player)])
            .flatMap { round($0, people) }
    }

    /// Stores a new round, and the people of the one after it (for prefetching).
    func addRound(_ round: Round, next: [Person], session: Int64, player who: Player) throws -> RoundRecord {
        let player = who.id
        let started = nowMilliseconds()
        let id = try pool.write { db in
            try who.ensureRow(db)
            let id = try db.insert("""
                INSERT INTO namegame_rounds (session, player, mode, people, answer, hide_order, started_ms)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """, [.integer(session), .text(player), .text(round.mode.rawValue), .text(round.people.map(\.id).joined(separator: ",")),
                      SQLValue(round.answer), .text(round.hideOrder.map(String.init).joined(separator: ",")), .integer(started)])
            try db.execute("UPDATE namegame_sessions SET next_people = ? WHERE id = ?",
                           [.text(next.map(\.id).joined(separator: ",")), .integer(session)])
            return id
        }
        return RoundRecord(id: id, session: session, round: round, startedMilliseconds: started, wrong: [], status: "open")
    }

    /// Marks the player's latest open round as helped by the cheat; false if none is open.
    func cheat(player: String) throws -> Bool {
        try pool.write { db in
            try db.execute("""
                UPDATE namegame_rounds SET cheat = 1 WHERE id = (SELECT id FROM namegame_rounds WHERE player = ? AND status = 'open'
                    ORDER BY id DESC LIMIT 1)
                """, [.text(player)]) == 1
        }
    }

    /// Records a tap. The round must be open, the choice valid, not tried
    /// before and not hidden; in timed mode the minute must not be over.
    func answer(player: String, round id: Int64, choice: Int, people: Directory, hintInterval: Double,
                timedSeconds: Int) throws -> Result<RoundRecord, Refusal> {
        return try pool.write { db throws -> Result<RoundRecord, Refusal> in
            guard let record = try round(id: id, player: player, people: people) else { return .failure(.unknownRound) }
            guard record.isOpen else { return .failure(.alreadyAnswered) }
            let round = record.round
            guard round.people.indices.contains(choice) else { return .failure(.invalidChoice) }
            guard !record.wrong.contains(choice) else { return .failure(.alreadyTried) }
            let now = nowMilliseconds()
            let elapsed = Double(now - record.startedMilliseconds) / 1000
            if round.hidden(after: elapsed, interval: hintInterval).contains(choice) { return .failure(.hidden) }
            guard let session = try db.first("SELECT * FROM namegame_sessions WHERE id = ?", [.integer(record.session)]).map(session)
            else { return .failure(.unknownRound) }
            if round.mode == .timed && now - session.startedMilliseconds > Int64(timedSeconds) * 1000 { return .failure(.timeUp) }
            let correct = choice == round.answer
            let wrong = correct ? record.wrong : record.wrong + [choice]
            let failed = !correct && round.mode == .practice
            let status = correct ? "identified" : failed ? "failed" : "open"
            try finish(db, player: player, record, session: session, status: status, wrong: wrong, now: now)
            return .success(RoundRecord(id: id, session: record.session, round: round, startedMilliseconds: record.startedMilliseconds,
                                        wrong: wrong, status: status, finishedMilliseconds: status == "open" ? nil : now))
        }
    }

    /// "I don't know": the round ends as a miss and shows the answer; practice ends there, as on a wrong pick.
    func giveUp(player: String, round id: Int64, people: Directory, timedSeconds: Int) throws -> Result<RoundRecord, Refusal> {
        try pool.write { db throws -> Result<RoundRecord, Refusal> in
            guard let record = try round(id: id, player: player, people: people) else { return .failure(.unknownRound) }
            guard record.isOpen else { return .failure(.alreadyAnswered) }
            guard let session = try db.first("SELECT * FROM namegame_sessions WHERE id = ?", [.integer(record.session)]).map(session)
            else { return .failure(.unknownRound) }
            let now = nowMilliseconds()
            if record.round.mode == .timed && now - session.startedMilliseconds > Int64(timedSeconds) * 1000 { return .failure(.timeUp) }
            try finish(db, player: player, record, session: session, status: "skipped", wrong: record.wrong, now: now)
            return .success(RoundRecord(id: id, session: record.session, round: record.round,
                                        startedMilliseconds: record.startedMilliseconds, wrong: record.wrong, status: "skipped",
                                        finishedMilliseconds: now))
        }
    }

    /// Records a tap's outcome: the round, the session's and lifetime figures (by exact amounts), the streaks, and, once
    /// the round is over, what the player now knows of the person asked.
    private func finish(_ db: Database, player: String, _ record: RoundRecord, session: Session, status: String, wrong: [Int],
                        now: Int64) throws {
        let round = record.round, mode = round.mode.rawValue
        let identified = status == "identified", gaveUp = status == "skipped", finished = status != "open"
        try db.execute("UPDATE namegame_rounds SET wrong = ?, status = ?, finished_ms = ? WHERE id = ?",
                       [.text(wrong.map(String.init).joined(separator: ",")), .text(status),
                        finished ? .integer(now) : .null, .integer(record.id)])
        // A miss (a wrong pick, or "I don't know") counts as an incorrect tap; the right pick as a correct one.
        let missed = !identified && (wrong.count > record.wrong.count || gaveUp)
        let delta: [SQLValue] = [SQLValue(finished ? 1 : 0), SQLValue(identified ? 1 : 0), SQLValue(identified ? 1 : 0),
                                 SQLValue(missed ? 1 : 0), .integer(identified ? now - record.startedMilliseconds : 0)]
        // Streaks: rounds in a row identified at the first pick. "I don't know" in learn mode leaves it alone.
        let streak: String = !finished ? "streak"
            : identified && wrong.isEmpty ? "streak + 1"
            : gaveUp && round.mode == .learn ? "streak" : "0"
        let ends = status == "failed" || (gaveUp && round.mode == .practice)
        // In the SQL both engines read: no two-argument max(), no OR over integers.
        let best = "CASE WHEN best_streak > \(streak) THEN best_streak ELSE \(streak) END"
        try db.execute("""
            UPDATE namegame_sessions SET rounds = rounds + ?, identified = identified + ?, correct = correct + ?,
                incorrect = incorrect + ?, identify_ms = identify_ms + ?, streak = \(streak),
                best_streak = \(best), ended = CASE WHEN ? = 1 THEN 1 ELSE ended END WHERE id = ?
            """, delta + [SQLValue(ends ? 1 : 0), .integer(record.session)])
        try db.execute("INSERT INTO namegame_lifetime (player, mode) VALUES (?, ?) ON CONFLICT DO NOTHING", [.text(player), .text(mode)])
        try db.execute("""
            UPDATE namegame_lifetime SET rounds = rounds + ?, identified = identified + ?, correct = correct + ?,
                incorrect = incorrect + ?, identify_ms = identify_ms + ?, streak = \(streak),
                best_streak = \(best) WHERE player = ? AND mode = ?
            """, delta + [.text(player), .text(mode)])
        guard finished else { return }
        // Every mode teaches the scheduler about the person asked.
        let person = round.answerPerson.id
        let card = try db.first("SELECT * FROM namegame_cards WHERE player = ? AND person = ?", [.text(player), .text(person)])
            .map(Self.card) ?? Card(due: now)
        let rating = plan.rating(wrongPicks: wrong.count, gaveUp: gaveUp || status == "failed",
                                 milliseconds: Int(now - record.startedMilliseconds))
        let next = fsrs.review(card, rating, at: now)
        try db.execute("""
            INSERT INTO namegame_cards (player, person, state, step, stability, difficulty, due_ms, last_ms, reviews, lapses)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, 1, ?)
            ON CONFLICT (player, person) DO UPDATE SET state = excluded.state, step = excluded.step,
                stability = excluded.stability, difficulty = excluded.difficulty, due_ms = excluded.due_ms,
                last_ms = excluded.last_ms, reviews = namegame_cards.reviews + 1, lapses = namegame_cards.lapses + excluded.lapses
            """, [.text(player), .text(person), .text(next.state.rawValue), next.step.map { SQLValue($0) } ?? .null,
                  .real(next.stability ?? 0), .real(next.difficulty ?? 0), .integer(next.due), .integer(now),
                  SQLValue(rating == .again ? 1 : 0)])
    }

    /// What the player knows of each person met.
    func cards(player: String) throws -> [String: Card] {
        var cards: [String: Card] = [:]
        for row in try pool.connection().query("SELECT * FROM namegame_cards WHERE player = ?", [.text(player)]) {
            if let person = row.string("person") { cards[person] = Self.card(row) }
        }
        return cards
    }

    private static func card(_ row: Row) -> Card {
        Card(state: row.string("state").flatMap(Card.State.init) ?? .learning, step: row.int("step"),
             stability: row.double("stability"), difficulty: row.double("difficulty"), due: Int64(row.int("due_ms") ?? 0),
             lastReview: row.int("last_ms").map { Int64($0) })
    }

    /// The people a session missed (a wrong pick, a failed round, "I don't know"), in the order they were asked.
    func misses(session: Int64, people: Directory) throws -> [Person] {
        let rows = try pool.connection().query("""
            SELECT people, answer FROM namegame_rounds WHERE session = ? AND (wrong != '' OR status IN ('failed', 'skipped'))
            ORDER BY id
            """, [.integer(session)])
        var seen = Set<String>(), result: [Person] = []
        for row in rows {
            let ids = (row.string("people") ?? "").split(separator: ",").map(String.init)
            guard let answer = row.int("answer"), ids.indices.contains(answer), seen.insert(ids[answer]).inserted,
                  let person = people.person(ids[answer]) else { continue }
            result.append(person)
        }
        return result
    }

    /// A review session asking `people` once each, in order; the player's previous review session ends.
    func startReview(player who: Player, people: [Person]) throws -> Session {
        let session = try startSession(player: who, mode: .review)
        _ = try pool.write { db in
            try db.execute("UPDATE namegame_sessions SET queue = ? WHERE id = ?",
                           [.text(people.map(\.id).joined(separator: ",")), .integer(session.id)])
        }
        return Session(id: session.id, mode: .review, startedMilliseconds: session.startedMilliseconds, ended: false,
                       stats: Stats(), nextPeople: [], streak: 0, queue: people.map(\.id))
    }

    /// Takes the head of a review session's queue.
    func popQueue(session: Int64) throws -> String? {
        try pool.write { db in
            guard let row = try db.first("SELECT queue FROM namegame_sessions WHERE id = ?", [.integer(session)]) else { return nil }
            var queue = (row.string("queue") ?? "").split(separator: ",").map(String.init)
            guard !queue.isEmpty else { return nil }
            let head = queue.removeFirst()
            try db.execute("UPDATE namegame_sessions SET queue = ? WHERE id = ?",
                           [.text(queue.joined(separator: ",")), .integer(session)])
            return head
        }
    }

    /// A mode's figures for a lifetime, with its current and best streak.
    struct Lifetime: Sendable {
        let mode: Mode
        let stats: Stats
        let streak: Int
        let best: Int
    }

    func lifetime(player: String) throws -> [Lifetime] {
        try pool.connection().query("SELECT * FROM namegame_lifetime WHERE player = ?", [.text(player)]).compactMap { row in
            guard let mode = row.string("mode").flatMap(Mode.init) else { return nil }
            return Lifetime(mode: mode, stats: stats(row), streak: row.int("streak") ?? 0, best: row.int("best_streak") ?? 0)
        }.sorted { Mode.allCases.firstIndex(of: $0.mode)! < Mode.allCases.firstIndex(of: $1.mode)! }
    }

    /// Seconds to identify someone, over the player's last rounds (oldest first).
    func recentIdentifyTimes(player: String, limit: Int = 20) throws -> [Double] {
        try pool.connection().query("""
            SELECT finished_ms - started_ms AS ms FROM namegame_rounds
            WHERE player = ? AND status = 'identified' ORDER BY finished_ms DESC LIMIT ?
            """, [.text(player), SQLValue(limit)]).compactMap { $0.int("ms").map { Double($0) / 1000 } }.reversed()
    }

    private func stats(_ row: Row) -> Stats {
        var stats = Stats()
        stats.rounds = row.int("rounds") ?? 0
        stats.identified = row.int("identified") ?? 0
        stats.correctTaps = row.int("correct") ?? 0
        stats.incorrectTaps = row.int("incorrect") ?? 0
        stats.identifyMilliseconds = row.int("identify_ms") ?? 0
        return stats
    }

    private func session(_ row: Row) -> Session {
        Session(id: Int64(row.int("id") ?? 0), mode: row.string("mode").flatMap(Mode.init) ?? .normal,
                startedMilliseconds: Int64(row.int("started_ms") ?? 0), ended: row.int("ended") == 1, stats: stats(row),
                nextPeople: (row.string("next_people") ?? "").split(separator: ",").map(String.init),
                streak: row.int("streak") ?? 0, bestStreak: row.int("best_streak") ?? 0, queue: (row.string("queue") ?? "").split(separator: ",").map(String.init))
    }

    private func round(_ row: Row, _ directory: Directory) -> RoundRecord? {
        guard let mode = row.string("mode").flatMap(Mode.init) else { return nil }
        let people = (row.string("people") ?? "").split(separator: ",").compactMap { directory.person(String($0)) }
        let hide = (row.string("hide_order") ?? "").split(separator: ",").compactMap { Int($0) }
        guard !people.isEmpty, let answer = row.int("answer"), people.indices.contains(answer) else { return nil }
        return RoundRecord(id: Int64(row.int("id") ?? 0), session: Int64(row.int("session") ?? 0),
                           round: Round(mode: mode, people: people, answer: answer, hideOrder: hide),
                           startedMilliseconds: Int64(row.int("started_ms") ?? 0),
                           wrong: (row.string("wrong") ?? "").split(separator: ",").compactMap { Int($0) },
                           status: row.string("status") ?? "open", finishedMilliseconds: row.int("finished_ms").map { Int64($0) },
                           cheat: row.int("cheat") == 1)
    }
}
