import NameGame
import SpacedRepetition
import Storage

/// What a lesson's summary reads: whom it covered and how, its time, the player's day streak and timed best.
extension NameGameStore {
    /// One person a lesson asked about, in the order first asked.
    package struct Covered: Sendable, Equatable {
        package let person: String
        /// Missed at least once in the lesson (a wrong pick, a wrong name, "I don't know", the clock), or found too
        /// slowly to count as known (hint mode's faces waited out): as the scheduler rated it, so it comes back soon.
        package var missed: Bool
        /// Missed by a wrong pick, a wrong name, "I don't know" or the clock, not only by a right answer found too
        /// slowly: that one is said as slow, not shown as a failure (a review saw the red ring of a miss on someone it
        /// named right three times).
        package var wrong = false
        /// Rounds in the lesson that rated them (one each).
        package var rounds: Int
        /// Their latest round in the lesson was right: a miss put right later in it (a review read "Missed" beside
        /// someone it had named right three times since).
        package var rightLast = false
        /// Named right only with help (the first letter shown, half the faces gone): rated so, it comes back soon, and
        /// is not said as known (a review's hinted answer read "Remembered again").
        package var helped = false
        /// Named right by typing, at least once: recall, not only recognition among faces (a review: a 50/50 coin
        /// flip and a typed name were both said "Remembered again").
        package var named = false
    }

    package func covered(session: Int64) throws -> [Covered] {
        var result: [Covered] = []
        for round in try rated(session: session) {
            let helped = round.helped && !round.wrong
            if let index = result.firstIndex(where: { $0.person == round.person }) {
                result[index].missed = result[index].missed || round.missed || helped
                result[index].wrong = result[index].wrong || round.wrong
                result[index].rounds += 1
                result[index].rightLast = !round.missed
                result[index].helped = result[index].helped || helped
                result[index].named = result[index].named || (round.typed && !round.missed)
            } else {
                result.append(
                    Covered(
                        person: round.person, missed: round.missed || helped, wrong: round.wrong, rounds: 1,
                        rightLast: !round.missed, helped: helped, named: round.typed && !round.missed))
            }
        }
        return result
    }

    /// Whom a lesson asks once more past its `length` rounds, each in the order first asked and not yet asked since:
    /// `missed`, whose latest round in those rounds was a miss (a wrong pick, a wrong name, "I don't know", the clock);
    /// `unnamed`, met in the session and only picked, never asked to type their name (a review saw one person typed
    /// five times in a lesson, and another picked once among four faces and called "Right today"). Planned once, at the
    /// length: a second miss is not asked a third time (a struggling review's "2 more" stood while the same two people
    /// came back, first letter shown, round after round), so the rounds to come fall by one each round.
    package func unfinished(session: Int64, after length: Int) throws -> (missed: [String], unnamed: [String]) {
        var last: [String: Bool] = [:]
        var typed: Set<String> = []
        var order: [String] = []
        let rounds = try rated(session: session)
        let lesson = rounds.prefix(length)
        for round in lesson {
            if last.updateValue(round.wrong, forKey: round.person) == nil { order.append(round.person) }
            if round.typed { typed.insert(round.person) }
        }
        let met = Set(lesson.filter(\.metHere).map(\.person))
        let askedSince = Set(rounds.dropFirst(length).map(\.person))
        let left = order.filter { !askedSince.contains($0) }
        return (
            left.filter { last[$0] == true },
            left.filter { last[$0] == false && !typed.contains($0) && met.contains($0) }
        )
    }

    /// Each answered round of a session, in order: whom it asked, how the scheduler rated the answer, whether the name
    /// was typed, and whether the person was first met in the session.
    private func rated(
        session: Int64
    ) throws -> [(person: String, missed: Bool, wrong: Bool, typed: Bool, metHere: Bool, helped: Bool)] {
        let rows = try pool.connection().query(
            """
            SELECT f.person, r.status, r.started_ms, r.finished_ms, r.recall, r.cheat,
                (SELECT COUNT(*) FROM namegame_round_faces w WHERE w.round = r.id AND w.wrong_rank IS NOT NULL) AS wrongs,
                (SELECT COUNT(*) FROM namegame_cards c JOIN namegame_sessions s ON s.id = r.session
                    WHERE c.player = r.player AND c.person = f.person AND c.met_ms >= s.started_ms) AS met_here
            FROM namegame_rounds r JOIN namegame_round_faces f ON f.round = r.id AND f.position = r.answer
            WHERE r.session = ? AND r.status <> 'open' ORDER BY r.id
            """, [.integer(session)])
        return try rows.map { row in
            let status: String = try row.decode(RoundRow.Columns.status)
            let wrongs: Int = try row.decode("wrongs")
            let started: Int64 = try row.decode(RoundRow.Columns.startedMilliseconds)
            let finished: Int64 = try row.decodeIfPresent(RoundRow.Columns.finishedMilliseconds) ?? started
            // Missed: wrong, or right but slow (rated hard, so back sooner: the summary says which).
            let wrong = wrongs > 0 || status != "identified"
            let typed = try row.decode("recall", as: Int64.self) == 1
            let slow =
                try !wrong && Int(finished - started) > slowLimit(session: session, typed: typed, before: started)
            let metHere = try row.decode("met_here", as: Int64.self) > 0
            let helped: Bool = try row.decode(RoundRow.Columns.cheat)
            return (try row.decode(Face.Columns.person), wrong || slow, wrong, typed, metHere, helped)
        }
    }

    /// The time a session was played: each round from its start (or restart, `restartClock`) to its answer, and the
    /// pauses between rounds (an answer read, someone met) up to `away` each; a longer one was time away (a review: a
    /// minute's lesson said "0:10", its rounds' answering alone).
    package func playedMilliseconds(session: Int64, away: Int64) throws -> Int64 {
        try pool.connection().first(
            """
            SELECT SUM(finished_ms - started_ms + CASE WHEN gap BETWEEN 0 AND ? THEN gap ELSE 0 END) AS played FROM (
                SELECT started_ms, finished_ms, started_ms - LAG(finished_ms) OVER (ORDER BY started_ms, id) AS gap
                FROM namegame_rounds WHERE session = ? AND finished_ms IS NOT NULL) AS rounds
            """, [.integer(away), .integer(session)])?
            .decodeIfPresent("played") ?? 0
    }

    /// Starts an open round's clock again, now; false if it is no longer open.
    package func restartClock(round id: Int64) throws -> Bool {
        try pool.write { db in
            try db.execute(
                "UPDATE namegame_rounds SET started_ms = ? WHERE id = ? AND status = 'open'",
                [.integer(nowMilliseconds()), .integer(id)]) == 1
        }
    }

    /// Days in a row (UTC) with a round answered, up to today or yesterday; only the last year is read.
    package func dayStreak(player: String) throws -> Int {
        let day = FSRS.day
        let today = nowMilliseconds() / day
        let days = try pool.connection().query(
            """
            SELECT DISTINCT finished_ms / \(day) AS day FROM namegame_rounds
            WHERE player = ? AND finished_ms >= ? ORDER BY day DESC
            """, [.text(player), .integer((today - 366) * day)]
        ).map { row throws in try row.decode("day", as: Int64.self) }
        guard let latest = days.first, latest >= today - 1 else { return 0 }
        var streak = 0
        for (offset, value) in days.enumerated() where value == latest - Int64(offset) { streak = offset + 1 }
        return streak
    }

    /// Rounds the player answered today (UTC, the days `dayStreak` counts) toward the day's goal: Timed and Sudden
    /// death are played for a score, and a review met the learning goal ("104 of 20") mashing them.
    package func answeredToday(player: String) throws -> Int {
        let day = FSRS.day
        return try pool.connection().value(
            Int.self,
            """
            SELECT COUNT(*) FROM namegame_rounds WHERE player = ? AND finished_ms >= ?
                AND mode NOT IN ('\(Mode.timed.rawValue)', '\(Mode.practice.rawValue)')
            """, [.text(player), .integer(nowMilliseconds() / day * day)]) ?? 0
    }

    /// A session's rounds answered with help (the "who is it?" cheat, a typed name's first letter).
    package func helpedRounds(session: Int64) throws -> Int {
        try pool.connection().value(
            Int.self, "SELECT COUNT(*) FROM namegame_rounds WHERE session = ? AND cheat = 1", [.integer(session)]) ?? 0
    }

    /// The player's best score in `mode` (a timed minute's, a practice run's) before this session (nil: none); a
    /// session given more time, or helped by a cheat, is not a score.
    package func bestScore(player: String, mode: Mode, before session: Int64) throws -> Int? {
        try pool.connection().first(
            """
            SELECT MAX(correct) AS best FROM namegame_sessions s WHERE player = ? AND mode = ? AND id < ?
                AND extra_ms = 0 AND NOT EXISTS (SELECT 1 FROM namegame_rounds r WHERE r.session = s.id AND r.cheat = 1)
            """,
            [.text(player), .text(mode.rawValue), .integer(session)])?.decodeIfPresent("best")
    }
}

extension NameGameStore {
    /// How long a right answer of this kind (a name picked or typed) may take before `before` and still count as a
    /// clean recall for this player (`LearningPlan.slowLimit`).
    package func slowLimit(session: Int64, typed: Bool, before: Int64) throws -> Int {
        plan.slowLimit(
            typed: typed,
            usual: try usualMilliseconds(session: session, typed: typed, before: before, pool.connection()))
    }

    /// The usual time of the session's player for a right answer of this kind, before `before`: the median of their
    /// last 20 outside Timed, once there are 5 (fewer say little). Nil before that.
    func usualMilliseconds(session: Int64, typed: Bool, before: Int64, _ db: Database) throws -> Int? {
        let rows = try db.query(
            """
            SELECT finished_ms - started_ms AS took FROM namegame_rounds
            WHERE player = (SELECT player FROM namegame_sessions WHERE id = ?) AND finished_ms < ?
                AND status = 'identified' AND recall = ? AND mode <> 'timed'
            ORDER BY finished_ms DESC LIMIT 20
            """, [.integer(session), .integer(before), .integer(typed ? 1 : 0)])
        let times = try rows.map { try $0.decode("took", as: Int64.self) }.sorted()
        return times.count < 5 ? nil : Int(times[times.count / 2])
    }
}
