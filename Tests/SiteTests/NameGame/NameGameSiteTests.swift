import HTTP
import NameGame
import PropertyList
import Storage
import Synchronization
import TestSupport
import Testing

@testable import ArcadeStore
@testable import ArcadeWeb

extension Player {
    /// A player with a row of their own (a first page and a first round), for set-ups that write their cards.
    func startPlaying() throws {
        try get("/")
        try post("/namegame/next", "mode=normal")
    }

    /// The round on a Name Game page: its id and the answer's index, read
    /// from the database as an oracle (the page must not tell).
    func round(_ html: String) throws -> (id: String, answer: Int) {
        let id = try #require(Player.attribute("data-round", in: html))
        let db = try Database(location: server.database)
        let answer = try #require(
            try db.first("SELECT answer FROM namegame_rounds WHERE id = ?", [.integer(Int64(id)!)])?.int("answer"))
        return (id, answer)
    }

    /// Meets eight people (due now), so that quiz questions ask about people met rather than strangers, and a timed
    /// minute starts. Rounds played before may have met some of them: those are made due alike.
    func meetPeople() throws {
        try get("/namegame")
        #expect(try post("/namegame/pace", "pace=steady").status == 303, "the player's row")
        let db = try Database(location: server.database)
        let met = try db.execute(
            """
            INSERT INTO namegame_cards (player, person, state, step, stability, difficulty, due_ms, last_ms, reviews,
                lapses, met_ms)
            SELECT pl.id, p.id, 'review', NULL, 10, 5, 0, 0, 1, 0, 0 FROM players pl, people p
            WHERE p.id IN (SELECT id FROM people WHERE retired = 0 ORDER BY id LIMIT 8)
            ON CONFLICT (player, person) DO UPDATE SET state = 'review', step = NULL, stability = 10, due_ms = 0,
                met_ms = 0
            """)
        #expect(met == 8)
    }

    /// Recall rounds picked right from `page` until one asks for a typed name (people met come back to be named).
    func untilTyped(from page: String) throws -> String {
        var page = page
        for _ in 0..<16 where !page.contains("data-recall-input") {
            let (shown, answer) = try round(page)
            #expect(try post("/namegame/answer", "mode=recall&round=\(shown)&choice=\(answer)").status == 303)
            try post("/namegame/next", "mode=recall")
            page = try play("recall").text
        }
        return page
    }

    /// Answers `count` rounds of a mode right (a face picked, or a name typed), going on to the next each time.
    func answerRounds(_ mode: String, count: Int) throws {
        for _ in 0..<count {
            try answerRight(mode, try play(mode).text)
            try post("/namegame/next", "mode=\(mode)")
        }
    }

    /// Whether the person a round asks for shares a first name with someone else on the team (the oracle).
    func namesake(_ round: String) throws -> Bool {
        try Database(location: server.database).value(
            Int.self,
            """
            SELECT COUNT(*) FROM people o JOIN namegame_round_faces f ON f.round = ? JOIN namegame_rounds r ON r.id = f.round
                AND f.position = r.answer JOIN people p ON p.id = f.person
            WHERE o.first_name = p.first_name AND o.id <> p.id AND o.retired = 0
            """, [.integer(Int64(round)!)]) ?? 0 > 0
    }

    /// Answers a lesson's rounds right until it ends (past its length, it asks whom it met and only picked to type
    /// their names), twenty rounds at most; how many were answered.
    @discardableResult func finishLesson(_ mode: String) throws -> Int {
        for answered in 0..<20 {
            let page = try play(mode).text
            if page.contains("data-ended=\"true\"") { return answered }
            try answerRight(mode, page)
            try post("/namegame/next", "mode=\(mode)")
        }
        return 20
    }

    /// Answers the page's round right: the face picked, or (learn mode asks people answered right to be named) the
    /// name typed.
    func answerRight(_ mode: String, _ page: String) throws {
        let (round, answer) = try self.round(page)
        if page.contains("data-recall-input") {
            // The full name: always right (the first name is not where the player knows two people who share it).
            try post("/namegame/recall", "mode=\(mode)&round=\(round)&name=\(URI.encode(try fullName(round)))")
        } else {
            try post("/namegame/answer", "mode=\(mode)&round=\(round)&choice=\(answer)")
        }
    }

    /// The full name of the person a round asks for (the oracle).
    func fullName(_ round: String) throws -> String {
        let db = try Database(location: server.database)
        let row = try #require(
            try db.first(
                """
                SELECT p.first_name || ' ' || p.last_name AS name FROM namegame_rounds r
                JOIN namegame_round_faces f ON f.round = r.id AND f.position = r.answer JOIN people p ON p.id = f.person
                WHERE r.id = ?
                """, [.integer(Int64(round)!)]))
        return try row.decode("name")
    }

    /// The first name of the person a round asks for (the oracle).
    func firstName(_ round: String) throws -> String {
        let db = try Database(location: server.database)
        let row = try #require(
            try db.first(
                """
                SELECT p.first_name FROM namegame_rounds r
                JOIN namegame_round_faces f ON f.round = r.id AND f.position = r.answer JOIN people p ON p.id = f.person
                WHERE r.id = ?
                """, [.integer(Int64(round)!)]))
        return try row.decode("first_name")
    }

    /// Misses a round: a wrong face, then the right one to go on; or, when a name is to be typed, a wrong name.
    func miss(_ mode: String, _ page: String) throws {
        let (round, answer) = try self.round(page)
        if page.contains("data-recall-input") {
            try post("/namegame/recall", "mode=\(mode)&round=\(round)&name=Nobody")
        } else {
            let faces = max(2, page.ranges(of: "data-choice=\"").count)
            try post("/namegame/answer", "mode=\(mode)&round=\(round)&choice=\((answer + 1) % faces)")
            try post("/namegame/answer", "mode=\(mode)&round=\(round)&choice=\(answer)")
        }
    }
}

@Suite("The Name Game over HTTP")
struct NameGameSiteTests {
    @Test(arguments: Engine.allCases) func everyModeIsReachableFromTheMenu(_ engine: Engine) throws {
        let server = try SiteServer(engine: engine)
        defer { server.stop() }
        let player = Player(server)
        try player.meetPeople()  // people met: Practice and Timed wait for that
        let menu = try player.get("/namegame").text
        for mode in ["normal", "matt", "reverse", "recall", "team", "hint", "fifty", "practice", "timed"] {
            // A mode on the menu is a button that deals its first round: one tap to a question, no start card.
            #expect(menu.contains("data-play=\"\(mode)\""), "\(mode)")
            #expect(try player.post("/namegame/next", "mode=\(mode)&resume=1").status == 303)
            let page = try player.get("/namegame/\(mode)")
            #expect(page.status == 200)
            #expect(page.text.contains("data-mode=\"\(mode)\""))
            #expect(!page.text.contains("data-start"), "\(mode)")
            #expect(page.text.contains("<h1 class=\"question\""), "\(mode)")
            // From the menu again: the same round, not a new one nor a refusal.
            let round = Player.attribute("data-round", in: page.text)
            #expect(try player.post("/namegame/next", "mode=\(mode)&resume=1").status == 303)
            #expect(Player.attribute("data-round", in: try player.get("/namegame/\(mode)").text) == round)
        }
        #expect(try player.get("/namegame/nonsense").status == 404)
        // Learn by its address, before a lesson: the start card says how long a lesson is (a review: one sentence and
        // Start said nothing of it).
        let learn = try Player(server).get("/namegame/learn").text
        #expect(
            learn.contains("data-start")
                && learn.contains(
                    "<p data-lesson-length>A lesson is 10 rounds, and anyone you miss is asked once more at the end: a"
                        + " minute or two.</p>")
        )
    }

    @Test(arguments: Engine.allCases) func theAnswerIsNotInThePageBeforeAnswering(_ engine: Engine) throws {
        let server = try SiteServer(engine: engine)
        defer { server.stop() }
        let player = Player(server)
        for mode in ["normal", "reverse", "team", "hint", "fifty"] {
            let page = try player.play("\(mode)").text
            let (_, answer) = try player.round(page)
            #expect(!page.contains("data-result"), "\(mode)")
            #expect(!page.contains("is-right"), "\(mode)")
            let db = try Database(location: server.database)
            let ids = try db.query(
                """
                SELECT person FROM namegame_round_faces WHERE round = (SELECT MAX(id) FROM namegame_rounds)
                ORDER BY position
                """
            ).map { row throws in try row.decode("person", as: String.self) }
            #expect(!ids.isEmpty)
            #expect(!ids.contains { page.contains("value=\"\($0)\"") }, "person ids are not in the page")
            if mode != "reverse" {
                // No names under the faces: only the question's name appears.
                let unnamed = page.ranges(of: "class=\"face-name\"><span class=\"key-hint\"").count
                #expect(unnamed == (mode == "fifty" ? 2 : 6), "\(mode): every face is unnamed")
            }
            _ = answer
        }
    }

    /// Team mode shows everyone's role once the faces are named: after a right answer, and after a miss too (a review:
    /// a miss named six faces and gave four of them no role, though the menu says every role shows).
    @Test func aTeamMissNamesEveryFaceWithItsRole() throws {
        let server = try SiteServer()
        defer { server.stop() }
        let player = Player(server)
        try player.meetPeople()
        let (round, answer) = try player.round(try player.play("team").text)
        try player.post("/namegame/answer", "mode=team&round=\(round)&choice=\((answer + 1) % 6)")
        let page = try player.get("/namegame/team").text
        #expect(page.contains("data-taught=\"true\""))
        #expect(page.ranges(of: "data-named").count == 6 && page.ranges(of: "class=\"face-title\"").count == 6)
    }

    /// Someone not introduced yet is not named by an answer: a review saw "Nadia Everly" under a face after a pick in
    /// a lesson, before her introduction. Their card says they are still to be met, and so does a wrong pick of them.
    @Test func aFaceNotMetYetIsNotNamedAfterAnAnswer() throws {
        let server = try SiteServer()
        defer { server.stop() }
        let player = Player(server)
        let (round, answer) = try player.round(try player.play("team").text)
        let db = try Database(location: server.database)
        let faces = try db.query(
            """
            SELECT f.position, p.first_name || ' ' || p.last_name AS name,
                EXISTS (SELECT 1 FROM namegame_cards c WHERE c.person = p.id) AS met
            FROM namegame_round_faces f JOIN people p ON p.id = f.person WHERE f.round = ? ORDER BY f.position
            """, [.integer(Int64(round)!)])
        let strangers = faces.filter { $0.int("met") == 0 }
        try #require(!strangers.isEmpty, "a new player's round shows people not met yet")
        let wrong = try #require(strangers.first?.int("position"))
        try player.post("/namegame/answer", "mode=team&round=\(round)&choice=\(wrong)")
        let page = try player.get("/namegame/team").text
        for stranger in strangers {
            let name: String = try stranger.decode("name")
            #expect(!page.contains(name), "\(name) is named before being met")
        }
        #expect(page.ranges(of: "data-unmet>Not met yet</span>").count == strangers.count)
        #expect(page.contains("Wrong. </span>That’s someone you haven’t met yet: you will.</p>"))
        let asked: String = try #require(faces.first { $0.int("position") == answer }).decode("name")
        #expect(page.contains(asked), "the one asked about is named")
    }

    @Test(arguments: Engine.allCases) func aRoundPlaysAndBadOrReplayedAnswersChangeNothing(_ engine: Engine) throws {
        let server = try SiteServer(engine: engine)
        defer { server.stop() }
        let player = Player(server)
        try player.meetPeople()
        let page = try player.play("normal").text
        let (round, answer) = try player.round(page)
        let wrongChoice = (answer + 1) % 6
        #expect(try player.post("/namegame/answer", "mode=normal&round=\(round)&choice=\(wrongChoice)").status == 303)
        let afterWrong = try player.play("normal").text
        #expect(
            afterWrong.contains("data-choice=\"\(wrongChoice)\" data-key=\"\(wrongChoice + 1)\" data-result=\"wrong\""))
        #expect(!afterWrong.contains("data-answered"), "a wrong tap does not end the round")
        // Tapping the same wrong face again, a choice out of range, a foreign round, nonsense.
        for body in [
            "round=\(round)&choice=\(wrongChoice)", "round=\(round)&choice=9", "round=999&choice=0",
            "round=\(round)&choice=x", "round=\(round)",
        ] {
            let response = try player.post("/namegame/answer", "mode=normal&" + body)
            #expect(response.status == 422, "\(body)")
            #expect(response.text.contains("data-error"), "\(body)")
        }
        // The tap on the answer a miss showed only moves on (issue 41: it was scored "Right" and counted correct):
        // the next round is dealt, and the round stays one miss.
        #expect(try player.post("/namegame/answer", "mode=normal&round=\(round)&choice=\(answer)").status == 303)
        let done = try player.play("normal").text
        #expect(Player.attribute("data-round", in: done) != round && !done.contains("data-answered"))
        #expect(!done.contains("Right:") && !done.contains("data-result=\"correct\""))
        #expect(done.contains("data-session-correct=\"0\" data-session-incorrect=\"1\""))
        // Replaying the winning answer counts nothing more.
        let replay = try player.post("/namegame/answer", "mode=normal&round=\(round)&choice=\(answer)")
        #expect(replay.status == 422)
        #expect(replay.text.contains("already answered"))
        let stats = try player.get("/namegame/stats").text
        #expect(stats.contains("data-mode=\"normal\" data-rounds=\"1\" data-correct=\"0\" data-incorrect=\"1\""))
        #expect(stats.contains("<svg class=\"chart\""))
        // Right, wrong and answered, which add up; no "Rounds" beside them, which counted rounds finished only (a review
        // read 7, 7, 1 and 8).
        #expect(!stats.contains(">Rounds</th>") && stats.contains("data-label=\"Answered\">1</td>"))
        // A forged post (no token) is refused.
        let forged = try server.post(
            "/namegame/answer", body: "mode=normal&round=\(round)&choice=0", headers: ["Cookie": player.cookieHeader])
        #expect(forged.status == 403)
        // The fresh round is open: asking for another before answering it is refused.
        #expect(try player.post("/namegame/next", "mode=normal").status == 422)
    }

    /// A run has a finish line: everyone met, each named once (a review ran 27 in a row through twelve people with no
    /// end in sight). Nobody comes twice; the last right answer leads to the run's end, which says so.
    @Test(arguments: Engine.allCases) func practiceEndsOnceEveryoneMetIsNamed(_ engine: Engine) throws {
        let server = try SiteServer(engine: engine)
        defer { server.stop() }
        let player = Player(server)
        try player.meetPeople()
        var asked: [String] = []
        for n in 1...8 {
            let page = try player.play("practice").text
            #expect(!page.contains("data-ended=\"true\""), "round \(n)")
            asked.append(try player.askedID(page))
            let (round, answer) = try player.round(page)
            try player.post("/namegame/answer", "mode=practice&round=\(round)&choice=\(answer)")
            #expect(try player.play("practice").text.contains("See how it went") == (n == 8), "round \(n)")
            try player.post("/namegame/next", "mode=practice")
        }
        #expect(Set(asked).count == 8, "each of the eight met once: \(asked)")
        let over = try player.play("practice").text
        #expect(over.contains("data-ended=\"true\"") && over.contains("data-score=\"8\""))
        #expect(over.contains("<h1>Clean sweep: everyone you’ve met, named</h1>") && !over.contains("Run over"))
        // Its end does not show the day's goal, which it does not count toward.
        #expect(!over.contains("data-today"))
    }

    @Test(arguments: Engine.allCases) func practiceEndsAtTheFirstMistakeWithTheStreak(_ engine: Engine) throws {
        let server = try SiteServer(engine: engine)
        defer { server.stop() }
        let player = Player(server)
        try player.meetPeople()  // people met: Practice and Timed wait for that
        // Its rule is said on its first round, as modes start at once (a review's first miss ended a "Practice"
        // unwarned).
        #expect(
            try player.play("practice").text.contains(
                "<p class=\"howto\" data-howto>One miss ends the run; name everyone you’ve met to clear it. Just for fun: "
                    + "it doesn’t count toward today’s goal.</p>"))
        for _ in 0..<2 {
            let (round, answer) = try player.round(try player.play("practice").text)
            try player.post("/namegame/answer", "mode=practice&round=\(round)&choice=\(answer)")
            try player.post("/namegame/next", "mode=practice")
        }
        let (round, answer) = try player.round(try player.play("practice").text)
        try player.post("/namegame/answer", "mode=practice&round=\(round)&choice=\((answer + 1) % 6)")
        // The miss is shown first, as in every mode (a review: "Session over" came at once, nothing marked): who was
        // tapped, who was asked, every name; then one button to the run's end.
        let missed = try player.play("practice").text
        #expect(!missed.contains("data-ended=\"true\""))
        #expect(missed.contains("That’s ") && missed.contains("You were looking for "))
        #expect(missed.contains("See how it went"))
        #expect(try player.post("/namegame/answer", "mode=practice&round=\(round)&choice=\(answer)").status == 422)
        #expect(try player.post("/namegame/next", "mode=practice").status == 303)
        let over = try player.play("practice").text
        #expect(over.contains("data-ended=\"true\""))
        #expect(over.contains("data-streak=\"2\""))
        // The run ends on its score, said first, and the best (a review: "Session over", the run small and grey).
        #expect(
            over.contains("<h1>Run over</h1>") && over.contains("data-score=\"2\"")
                && !over.contains("Session over"))
        #expect(over.contains("data-best=\"2\"") && over.contains("Personal best: 2"))
        #expect(try player.post("/namegame/next", "mode=practice").status == 303)
        let next = try player.play("practice").text
        #expect(!next.contains("data-ended"), "a new run")
        // A shorter run keeps the best; one miss at once is a score of 0.
        let (first, right) = try player.round(next)
        try player.post("/namegame/answer", "mode=practice&round=\(first)&choice=\((right + 1) % 6)")
        try player.post("/namegame/next", "mode=practice")
        let short = try player.play("practice").text
        #expect(short.contains("data-score=\"0\"") && short.contains("Personal best: 2"))
    }

    /// A run a cheat helped is played, not compared (a review's "Who is it?" in Timed made "A new personal best!"):
    /// its end says why, and the next run's best does not count it.
    @Test func aRunACheatHelpedIsNoPersonalBest() throws {
        let server = try SiteServer()
        defer { server.stop() }
        let player = Player(server)
        try player.meetPeople()
        let (round, answer) = try player.round(try player.play("practice").text)
        for key in ["w", "h", "o"] { try player.post("/cheats/actions", "kind=key&value=\(key)&round=\(round)") }
        try player.post("/namegame/answer", "mode=practice&round=\(round)&choice=\(answer)")
        try player.post("/namegame/next", "mode=practice")
        let (miss, right) = try player.round(try player.play("practice").text)
        try player.post("/namegame/answer", "mode=practice&round=\(miss)&choice=\((right + 1) % 6)")
        try player.post("/namegame/next", "mode=practice")
        let over = try player.play("practice").text
        #expect(over.contains("data-score=\"0\""), "the helped answer is not counted right")
        #expect(over.contains("You used a cheat, so this score does not count as a personal best."))
        #expect(!over.contains("A new personal best!"))
        try player.post("/namegame/next", "mode=practice")
        let (next, nextAnswer) = try player.round(try player.play("practice").text)
        try player.post("/namegame/answer", "mode=practice&round=\(next)&choice=\((nextAnswer + 1) % 6)")
        try player.post("/namegame/next", "mode=practice")
        #expect(try player.play("practice").text.contains("Personal best: 0"), "the helped run is not the best")
    }

    /// The site's one clock is injected: the test moves it past the minute instead of waiting.
    @Test func timedSessionsEndWhenTheTimeIsUp() throws {
        let clock = DailySiteTests.Clock()
        let server = try DailySiteTests.server(clock)
        defer { server.stop() }
        let player = Player(server)
        try player.meetPeople()  // a timed minute asks about people met
        let page = try player.play("timed").text
        #expect(Player.attribute("data-seconds-left", in: page) == "60")
        // Its rule said on the round, every mode starting at once (a review raced a clock it had not been told about).
        #expect(
            page.contains(
                "<p class=\"howto\" data-howto>Name as many people as you can in a minute. A wrong pick costs 3 seconds. "
                    + "Just for fun: it doesn’t count toward today’s goal.</p>"))
        let (round, answer) = try player.round(page)
        clock.seconds.withLock { $0 += 59 }
        #expect(Player.attribute("data-seconds-left", in: try player.play("timed").text) == "1")
        clock.seconds.withLock { $0 += 1.5 }
        let late = try player.post("/namegame/answer", "mode=timed&round=\(round)&choice=\(answer)")
        // To the minute's end, the page a reload shows (a review's address bar kept /namegame/answer)…
        #expect(late.status == 303 && late.header("Location") == "/namegame/timed")
        // …which says it, with no alert over it (a review read one as an error).
        let end = try player.play("timed").text
        #expect(end.contains("Time’s up") && !end.contains("data-error") && end.contains("data-ended=\"true\""))
        // "I don't know" late, the same.
        let given = try player.post("/namegame/dontknow", "mode=timed&round=\(round)")
        #expect(given.status == 303 && given.header("Location") == "/namegame/timed")
    }

    /// Timed from the menu is a fresh minute: a review came back to a run whose clock had run down to 42 s. A second
    /// tap at once is the same start.
    @Test func timedFromTheMenuStartsAFreshMinute() throws {
        let clock = DailySiteTests.Clock()
        let server = try DailySiteTests.server(clock)
        defer { server.stop() }
        let player = Player(server)
        try player.meetPeople()
        #expect(try player.post("/namegame/next", "mode=timed&resume=1").status == 303)
        clock.seconds.withLock { $0 += 2 }
        #expect(try player.post("/namegame/next", "mode=timed&resume=1").status == 303)
        #expect(Player.attribute("data-seconds-left", in: try player.play("timed").text) == "58", "the same run")
        clock.seconds.withLock { $0 += 16 }
        #expect(try player.post("/namegame/next", "mode=timed&resume=1").status == 303)
        #expect(Player.attribute("data-seconds-left", in: try player.play("timed").text) == "60", "a fresh minute")
    }

    /// A timed minute that beats the best is a payoff (a review: "the high-score moment falls flat"): the record is
    /// marked to pop and burst the first time it is seen; a first minute sets the best without beating one.
    @Test func aTimedRecordIsCelebrated() throws {
        let clock = DailySiteTests.Clock()
        let server = try DailySiteTests.server(clock)
        defer { server.stop() }
        let player = Player(server)
        try player.meetPeople()
        func minute(right: Int) throws -> String {
            for _ in 0..<right { try player.answerRounds("timed", count: 1) }
            clock.seconds.withLock { $0 += 61 }
            let over = try player.play("timed").text
            try player.post("/namegame/next", "mode=timed")  // Play again
            return over
        }
        let first = try minute(right: 1)
        #expect(first.contains("data-ended=\"true\"") && !first.contains("data-praise"))
        let second = try minute(right: 2)
        #expect(second.contains("data-praise=\"record\"") && second.contains("A new personal best!"))
    }

    /// Eight in ten is "Good going!", without confetti: "Great work!" and a burst at 80 % read as cheap praise (a review).
    @Test func eightInTenIsGoodGoingNotGreat() throws {
        let server = try SiteServer()
        defer { server.stop() }
        let player = Player(server)
        for index in 0..<10 {
            let (round, answer) = try player.round(try player.play("normal").text)
            if index < 2 {
                let wrong = (answer + 1) % 6
                #expect(try player.post("/namegame/answer", "mode=normal&round=\(round)&choice=\(wrong)").status == 303)
            }
            try player.post("/namegame/answer", "mode=normal&round=\(round)&choice=\(answer)")
            try player.post("/namegame/next", "mode=normal")
        }
        let over = try player.play("normal").text
        #expect(over.contains("data-summary-accuracy=\"80\"") && over.contains("data-praise=\"good\""))
    }

    /// A review saw the red ring of a miss on someone it had named right three times, the first slowly: a right
    /// answer too slow to count as known says so in the summary, apart from a miss.
    @Test func aSlowRightAnswerIsSummedUpAsSlowNotAsAMiss() throws {
        let clock = DailySiteTests.Clock()
        let server = try DailySiteTests.server(clock)
        defer { server.stop() }
        let player = Player(server)
        try player.answerRight("learn", try player.play("learn").text)  // the player's row
        _ = try Database(location: server.database).execute("DELETE FROM namegame_cards")
        _ = try LearnDepthSiteTests().met(server, count: 5, stability: 10, due: 0)
        try player.post("/namegame/next", "mode=practice")
        let slow = try player.play("practice").text
        let slowName = try #require(Player.asked(slow)).dropFirst("Who is ".count).dropLast()
        clock.seconds.withLock { $0 += 21 }
        try player.answerRight("practice", slow)
        try player.post("/namegame/next", "mode=practice")
        let missed = try player.play("practice").text
        let missedName = try #require(Player.asked(missed)).dropFirst("Who is ".count).dropLast()
        try player.miss("practice", missed)
        try player.post("/namegame/next", "mode=practice")
        let summary = try player.play("practice").text
        #expect(summary.contains("data-person=\"\(slowName)\" data-tag=\"slow\""), "\(slowName)")
        #expect(summary.contains("<span class=\"summary-tag\">Right, but slowly</span>"))
        #expect(summary.contains("data-person=\"\(missedName)\" data-tag=\"again\""), "\(missedName)")
        // The miss, asked last, is listed first, then the slow answer (a review: a miss buried among nine others).
        let tags = summary.matches(of: /data-tag="(\w+)"/).map { String($0.1) }
        #expect(tags.prefix(2) == ["again", "slow"], "\(tags)")
    }

    /// Each mode is offered once on the menu, whatever the player has met (a keyboard review met 50/50 twice: among
    /// the three ways to play and again behind "Other ways to play").
    @Test func theMenuOffersEachModeOnce() throws {
        let server = try SiteServer()
        defer { server.stop() }
        let player = Player(server)
        var firstThree: [[String]] = []
        for step in 0..<3 {
            if step == 1 { try player.answerRounds("normal", count: 2) }
            if step == 2 { try player.meetPeople() }
            let menu = try player.get("/namegame").text
            let modes = menu.matches(of: /data-play="(\w+)"/).map { String($0.1) }
            #expect(Set(modes).count == modes.count, "step \(step): \(modes)")
            #expect(Set(modes).count == 10, "step \(step): every mode: \(modes)")
            firstThree.append(Array(modes.dropFirst().prefix(3)))
        }
        // …and the three after Learn stay put as modes unlock (a player review: after one game Practice took 50/50's
        // place, the menu moving under a returning player).
        #expect(Set(firstThree).count == 1, "\(firstThree)")
    }

    /// A name typed right with its first letter shown is not said as known: a review's hinted answer read "Remembered
    /// again" in the summary. It says the hint, and the person comes back soon.
    @Test func aNameTypedWithAHintIsSaidSoInTheSummary() throws {
        let server = try SiteServer()
        defer { server.stop() }
        let player = Player(server)
        try player.meetPeople()
        let page = try player.untilTyped(from: try player.play("recall").text)
        let (round, _) = try player.round(page)
        #expect(try player.post("/namegame/recall", "mode=recall&round=\(round)&hint=1").status == 303)
        let hinted = try player.play("recall").text
        #expect(hinted.contains("data-cheat-help"), "the first letter shown")
        let name = try player.fullName(round)
        try player.answerRight("recall", hinted)
        try player.post("/namegame/next", "mode=recall")
        try player.finishLesson("recall")
        let over = try player.get("/namegame/recall").text
        #expect(over.contains("data-person=\"\(name)\" data-tag=\"helped\""), "\(name)")
        #expect(
            over.contains("<span class=\"summary-tag\">Right with a hint</span><span class=\"summary-next\">Comes back")
        )
    }

    /// A lesson's summary says a name typed apart from a face picked out (a review: a 50/50 coin flip and a typed name
    /// were both "Remembered again: comes back later"), and when each person comes back, as Anki shows its interval.
    @Test func aLessonSummarySaysANameTypedAndWhenItComesBack() throws {
        let server = try SiteServer()
        defer { server.stop() }
        let player = Player(server)
        #expect(try player.finishLesson("learn") >= 10)
        let over = try player.get("/namegame/learn").text
        let named = over.ranges(of: "<span class=\"summary-tag\">Named from memory</span>").count
        #expect(named >= 2 && over.ranges(of: "data-tag=\"named\"").count == named, "typed right, unhelped")
        #expect(
            over.ranges(of: /<span class="summary-next">Comes back (later today|tomorrow|in \d+ days)<\/span>/).count
                >= named)
        #expect(!over.contains("Remembered again") && !over.contains("comes back soon"))
    }

    /// A player's own note on someone met, to remember them by (a review: "no memory hooks; Anki lets you add your own
    /// fields"): written on meeting them or on People you've met, brought back by an answer, exported with the card.
    /// Nobody not met takes one, and a long one is cut.
    @Test func aNoteToRememberSomeoneByComesBackWithTheirAnswers() throws {
        let server = try SiteServer()
        defer { server.stop() }
        let player = Player(server)
        try player.get("/namegame")
        #expect(try player.post("/namegame/next", "mode=learn&resume=1").status == 303)
        let intro = try player.get("/namegame/learn").text
        let round = try #require(Player.attribute("data-round", in: intro))
        #expect(intro.contains("<input id=\"intro-note\" name=\"note\" maxlength=\"140\""))
        let note = "Climbs on Fridays & runs the <b>quiz</b>"
        #expect(try player.post("/namegame/meet", "mode=learn&round=\(round)&note=\(URI.encode(note))").status == 303)
        let db = try Database(location: server.database)
        let noted = try #require(try db.value(String.self, "SELECT person FROM namegame_cards WHERE note IS NOT NULL"))
        let people = try player.get("/namegame/people").text
        #expect(people.contains("data-note>Your note: Climbs on Fridays &amp; runs the &lt;b&gt;quiz&lt;/b&gt;</span>"))
        // Changed on People you've met; cut at 140 characters; someone not met, or a field past any note's bytes,
        // refused, nothing written.
        let long = String(repeating: "x", count: 300)
        #expect(try player.post("/namegame/note", "person=\(URI.encode(noted))&note=\(long)").status == 303)
        #expect(
            try db.value(String.self, "SELECT note FROM namegame_cards WHERE person = ?", [.text(noted)])?.count == 140)
        let stranger = try #require(
            try db.value(
                String.self, "SELECT id FROM people WHERE id NOT IN (SELECT person FROM namegame_cards) LIMIT 1"))
        #expect(try player.post("/namegame/note", "person=\(URI.encode(stranger))&note=hi").status == 422)
        let huge = String(repeating: "y", count: 600)
        #expect(try player.post("/namegame/note", "person=\(URI.encode(noted))&note=\(huge)").status == 422)
        #expect(try db.value(Int.self, "SELECT COUNT(*) FROM namegame_cards WHERE note IS NOT NULL") == 1)
        #expect(try player.post("/namegame/note", "person=\(URI.encode(noted))&note=Climbs").status == 303)
        // An answer about them brings it back, right or wrong (the round made to ask them; a later review wrote a note
        // and, shown after misses only, never saw it again).
        func askNoted() throws -> (id: String, answer: Int) {
            let (asked, answer) = try player.round(try player.play("normal").text)
            let faces = try db.query(
                "SELECT position, person FROM namegame_round_faces WHERE round = ?", [.text(asked)])
            if let seat = try faces.first(where: { try $0.decode("person") as String == noted }) {
                _ = try db.execute(
                    "UPDATE namegame_rounds SET answer = ? WHERE id = ?",
                    [.integer(try seat.decode("position")), .text(asked)])
            } else {
                _ = try db.execute(
                    "UPDATE namegame_round_faces SET person = ? WHERE round = ? AND position = ?",
                    [.text(noted), .text(asked), .integer(Int64(answer))])
            }
            return try player.round(try player.get("/namegame/normal").text)
        }
        let shown = "<p class=\"outcome-note\" data-note>Your note: Climbs</p>"
        var (asked, right) = try askNoted()
        try player.post("/namegame/answer", "mode=normal&round=\(asked)&choice=\((right + 1) % 6)")
        #expect(try player.get("/namegame/normal").text.contains(shown), "after a miss")
        try player.post("/namegame/answer", "mode=normal&round=\(asked)&choice=\(right)")
        try player.post("/namegame/next", "mode=normal")
        (asked, right) = try askNoted()
        try player.post("/namegame/answer", "mode=normal&round=\(asked)&choice=\(right)")
        #expect(try player.get("/namegame/normal").text.contains(shown), "after a right answer")
        #expect(try player.get("/progress/data").text.contains("Climbs"), "exported with the card")
    }

    /// Recall for a newcomer asks about more than the first two people it meets (a review: Mat, Maren, Mat, Maren for
    /// a whole session): until a few are met, someone new may come, introduced first.
    @Test func recallForANewcomerMeetsMoreThanTwo() throws {
        let server = try SiteServer()
        defer { server.stop() }
        let player = Player(server)
        try player.answerRounds("recall", count: 10)
        let asked = try Database(location: server.database).query(
            """
            SELECT DISTINCT f.person FROM namegame_rounds r JOIN namegame_round_faces f
            ON f.round = r.id AND f.position = r.answer WHERE r.mode = 'recall'
            """)
        #expect(asked.count >= 3, "\(asked.count) people in ten rounds")
    }

    /// A right answer slower than the plan's limit is a hard one (it comes back sooner): said with it, not only in the
    /// summary (a review was marked "Right, but slowly" at 8.3 s and did not know there was a limit).
    @Test func aSlowRightAnswerSaysItsLimit() throws {
        let clock = DailySiteTests.Clock()
        let server = try DailySiteTests.server(clock)
        defer { server.stop() }
        let player = Player(server)
        try player.meetPeople()
        do {
            // (A careful reader's 10 s, at a phone's pace, is not slow: a review.)
            let quick = try player.play("normal").text
            clock.seconds.withLock { $0 += 10 }
            try player.answerRight("normal", quick)
            let quickly = try player.get("/namegame/normal").text
            // (Nor its time: "This round took 0.4 s" after every pick was noise to a review.)
            #expect(
                !quickly.contains("data-slow") && !quickly.contains("data-round-seconds"), "a quick one says nothing")
            try player.post("/namegame/next", "mode=normal")
        }
        let page = try player.play("normal").text
        clock.seconds.withLock { $0 += 21 }
        try player.answerRight("normal", page)
        let answered = try player.get("/namegame/normal").text
        #expect(answered.contains("data-round-seconds=\"21.0\""))
        #expect(
            answered.contains(
                "<span data-slow>Right, but slower than 20 s: they’ll come up again a little sooner.</span>"))
    }

    /// Slow is slow for this player: past five right answers, the limit is half again their usual time where that is
    /// longer (a blind review heard six faces described before each pick, and every right answer came back as hard).
    @Test func aPlayersUsualPaceSetsTheirLimit() throws {
        let clock = DailySiteTests.Clock()
        let server = try DailySiteTests.server(clock)
        defer { server.stop() }
        let player = Player(server)
        try player.meetPeople()
        func answer(after seconds: Double) throws -> String {
            let page = try player.play("normal").text
            clock.seconds.withLock { $0 += seconds }
            try player.answerRight("normal", page)
            let answered = try player.get("/namegame/normal").text
            try player.post("/namegame/next", "mode=normal")
            return answered
        }
        // The first answers at a screen reader's pace are past the plan's 20 s, and said to be slow.
        var slowSaid = 0
        for _ in 0..<6 where try answer(after: 25).contains("data-slow") { slowSaid += 1 }
        #expect(slowSaid >= 1, "before a usual pace is known, 25 s is slow")
        #expect(!(try answer(after: 28).contains("data-slow")), "28 s is this player's pace")
        let slower = try answer(after: 40)
        #expect(slower.contains("<span data-slow>Right, but slower than 37 s"), "half again 25 s: 37.5 s")
        // (The rounds took what the clock says; the ratings behind the words are `NameGameTests.ratings`.)
        let db = try Database(location: server.database)
        let took = try db.query(
            """
            SELECT finished_ms - started_ms AS took FROM namegame_rounds WHERE mode = 'normal' AND status = 'identified'
            ORDER BY id DESC LIMIT 2
            """)
        #expect(try took.map { try $0.decode("took", as: Int64.self) } == [40_000, 28_000], "the rounds' times")
    }

    /// Similar names asks, every round, for someone whose look-alike is among the faces (a review was asked for Yara
    /// among two Orins and two Olgas: a round dealt ahead around one person asked for another).
    @Test func similarNamesAlwaysShowsALookAlike() throws {
        let server = try SiteServer()
        defer { server.stop() }
        let player = Player(server)
        // A returning player who has met everyone: each round asks among faces all met, the case the review met.
        try player.get("/namegame")
        #expect(try player.post("/namegame/pace", "pace=steady").status == 303, "the player's row")
        try Database(location: server.database).execute(
            """
            INSERT INTO namegame_cards (player, person, state, step, stability, difficulty, due_ms, last_ms, reviews,
                lapses, met_ms, introduced)
            SELECT pl.id, p.id, 'review', NULL, 10, 5, 0, 0, 1, 0, 0, 1 FROM players pl, people p
            """)
        for _ in 0..<3 {
            try player.answerRounds("matt", count: 10)
            try player.post("/namegame/next", "mode=matt")  // the summary's Play again
        }
        let db = try Database(location: server.database)
        let rounds = try db.query(
            """
            SELECT r.id, p.first_name, r.answer = f.position AS asked FROM namegame_rounds r
            JOIN namegame_round_faces f ON f.round = r.id JOIN people p ON p.id = f.person WHERE r.mode = 'matt'
            """
        ).map { row throws in
            (
                try row.decode("id", as: Int64.self), try row.decode("first_name", as: String.self),
                try row.decode("asked", as: Int64.self) == 1
            )
        }
        let byRound = Dictionary(grouping: rounds, by: \.0)
        #expect(byRound.count >= 30)
        for (round, faces) in byRound {
            let asked = try #require(faces.first { $0.2 }).1
            let group = String(NameMatch.fold(asked).prefix(3))
            #expect(faces.count { NameMatch.fold($0.1).hasPrefix(group) } >= 2, "round \(round): \(faces.map(\.1))")
        }
        // It asks by face, the look-alike names side by side to pick from (a review: asked "Who is Matt Achebe?"
        // among faces, it never saw the names it was to tell apart, and scored 10 of 10).
        let page = try player.play("matt").text
        #expect(page.contains("class=\"single-face\"") && page.ranges(of: "class=\"name-choice").count == 6)
    }

    /// Issue 46: a player who does not see the faces hears each described ("Face 2: long red hair, …"), never by
    /// name; a site seeded before the bundled faces had descriptions gets them at its next start.
    @Test func facesAreDescribedForAPlayerWhoDoesNotSeeThem() throws {
        let server = try SiteServer()
        let player = Player(server)
        let page = try player.play("normal").text
        let described = page.matches(of: /alt="Face (\d): ([^"]+)"/).map { (Int($0.1)!, String($0.2)) }
        #expect(described.map(\.0) == [1, 2, 3, 4, 5, 6])
        func people() throws -> [(id: String, first: String, last: String, appearance: String?)] {
            try Database(location: server.database).query(
                "SELECT id, first_name, last_name, appearance FROM people ORDER BY position"
            ).map { row throws in
                (
                    try row.decode("id"), try row.decode("first_name"), try row.decode("last_name"),
                    try row.decodeIfPresent("appearance")
                )
            }
        }
        let everyone = try people()
        #expect(everyone.allSatisfy { $0.appearance != nil }, "the bundled directory describes every face")
        for (_, words) in described {
            #expect(everyone.contains { $0.appearance == words })
            #expect(!everyone.contains { words.contains($0.first) || words.contains($0.last) })
        }
        server.stop()
        let db = try Database(location: server.database)
        try db.execute("UPDATE people SET appearance = NULL")
        try db.execute("UPDATE people SET photo = '/uploads/other.png' WHERE id = ?", [.text(everyone[0].id)])
        // A face redrawn since (the bundled feminine names lost their beards): its old words, and someone an admin
        // described in words of their own.
        let (redrawn, edited) = (everyone[1], everyone[2])
        try db.execute("UPDATE people SET appearance = 'Long hair and a full beard' WHERE id = ?", [.text(redrawn.id)])
        try db.execute("UPDATE people SET appearance = 'Our own words' WHERE id = ?", [.text(edited.id)])
        try db.execute(
            "INSERT INTO audit (admin, at, action, target) VALUES ('ada', 1, 'edit person', ?)",
            [.text("\(edited.first) \(edited.last) (\(edited.id))")])
        var options = ServeOptions()
        options.database = server.database
        try Site(options: options).close()
        let again = try people()
        #expect(
            again.dropFirst().filter { $0.id != edited.id }.allSatisfy { $0.appearance != nil },
            "described again at the next start")
        #expect(again.first?.appearance == nil, "a face an admin replaced is not described with the old one's words")
        #expect(again.first { $0.id == redrawn.id }?.appearance == redrawn.appearance, "the words of its drawing now")
        #expect(again.first { $0.id == edited.id }?.appearance == "Our own words", "an admin's words are kept")
    }

    /// Issue 46 (WCAG 2.2.1): "More time" adds half a minute in the clock's last 20 seconds, ten times at most;
    /// earlier (a review read it as buying a score off), too late or too often it is refused and changes nothing; a
    /// score played with more time is not a personal best.
    @Test func moreTimeExtendsTheClockAndItsScoreIsNoBest() throws {
        let clock = DailySiteTests.Clock()
        let server = try DailySiteTests.server(clock)
        defer { server.stop() }
        let player = Player(server)
        try player.meetPeople()  // a timed minute asks about people met
        let (round, answer) = try player.round(try player.play("timed").text)
        try player.post("/namegame/answer", "mode=timed&round=\(round)&choice=\(answer)")
        try player.post("/namegame/next", "mode=timed")
        clock.seconds.withLock { $0 += 30 }
        let early = try player.play("timed").text
        #expect(early.contains("class=\"more-time is-later\""), "its place is kept, the button not yet offered")
        #expect(try player.post("/namegame/moretime", "").status == 422, "30 s left: not yet")
        clock.seconds.withLock { $0 += 20 }
        let before = try player.play("timed").text
        #expect(Player.attribute("data-seconds-left", in: before) == "10")
        #expect(before.contains("class=\"more-time\""))
        #expect(before.contains("data-more-time>More time (+30\u{a0}s)</button>"))
        for press in 1...10 {
            let added = try player.post("/namegame/moretime", "")
            #expect(added.status == 303, "press \(press)")
            let page = try player.play("timed").text
            #expect(Player.attribute("data-seconds-left", in: page) == "40")
            #expect(page.contains("data-more-time>") == (press < 10), "the button goes once it can do nothing")
            clock.seconds.withLock { $0 += 30 }
        }
        let eleventh = try player.post("/namegame/moretime", "")
        #expect(eleventh.status == 422)
        #expect(eleventh.text.contains("More time can be added only in the last 20 seconds"))
        #expect(Player.attribute("data-seconds-left", in: try player.play("timed").text) == "10")
        clock.seconds.withLock { $0 += 11 }
        let over = try player.play("timed").text
        #expect(over.contains("data-ended=\"true\"") && over.contains("data-score=\"1\""))
        #expect(over.contains("You added time, so this score does not count as a personal best."))
        #expect(!over.contains("A new personal best!"))
        // The next minute, played without more time and scoring nothing, is not measured against the extended one.
        try player.post("/namegame/next", "mode=timed")
        #expect(Player.attribute("data-seconds-left", in: try player.play("timed").text) == "60")
        clock.seconds.withLock { $0 += 61 }
        let late = try player.post("/namegame/moretime", "")
        #expect(late.status == 422, "too late: the minute is over")
        let second = try player.play("timed").text
        #expect(second.contains("data-ended=\"true\"") && second.contains("data-best=\"0\""))
    }

    /// Defects 1 and 3: when the time is up, the last round stays on the page as it was asked, with its answer shown,
    /// and nothing in it can be chosen any more.
    @Test func theTimedEndKeepsTheQuestionAndNothingStaysClickable() throws {
        let clock = DailySiteTests.Clock()
        let server = try DailySiteTests.server(clock)
        defer { server.stop() }
        let player = Player(server)
        try player.meetPeople()  // a timed minute asks about people met
        let page = try player.play("timed").text
        let (_, answer) = try player.round(page)
        let question = try #require(Player.asked(page))
        clock.seconds.withLock { $0 += 61 }
        let over = try player.play("timed").text
        #expect(over.contains("data-ended=\"true\""))
        #expect(over.contains("<h2 class=\"question\" data-last-question>\(question)</h2>"), "the question stays")
        let buttons = over.ranges(of: "data-choice=").count
        #expect(buttons == 6)
        #expect(over.ranges(of: " disabled>").count == 6, "no face can be chosen after the time is up")
        #expect(over.contains("data-choice=\"\(answer)\" data-key=\"\(answer + 1)\""))
        #expect(over.ranges(of: "is-right").count == 1, "the answer is shown")
        #expect(!over.contains("data-keys"), "no keys to explain on a finished session")
    }

    /// A miss breaks the streak when it is made, not when its shown answer is tapped (a review saw "Streak 1" beside
    /// "Incorrect 1"); a face to name says whose face it was, not whom the player was "looking for".
    @Test(arguments: Engine.allCases) func aMissEndsTheStreakAtOnceAndSaysWhoItWas(_ engine: Engine) throws {
        let server = try SiteServer(engine: engine)
        defer { server.stop() }
        let player = Player(server)
        try player.play("normal")
        // People met, so the questions come to ask about them, not strangers (whose rounds say "New face").
        let met = try LearnDepthSiteTests().met(server, count: 6, stability: 10, due: 0)
        for mode in ["normal", "reverse"] {
            var page = try player.play(mode).text
            repeat {
                try player.answerRight(mode, page)
                try player.post("/namegame/next", "mode=\(mode)")
                page = try player.play(mode).text
            } while try !met.contains(player.askedID(page))
            #expect(!page.contains("data-session-streak=\"0\""), "\(mode)")
            let (round, answer) = try player.round(page)
            try player.post("/namegame/answer", "mode=\(mode)&round=\(round)&choice=\((answer + 1) % 6)")
            let missed = try player.play(mode).text
            #expect(missed.contains("data-session-streak=\"0\"") && missed.contains("data-session-incorrect=\"1\""))
            #expect(missed.contains(mode == "reverse" ? "This is " : "You were looking for "), "\(mode)")
            // A wrong name says it was wrong (a blind review heard only "This is …" after one).
            #expect(missed.contains(mode == "reverse" ? "Wrong. </span>Not " : "Wrong. </span>That’s "), "\(mode)")
            // Reverse shows the face of the name picked by mistake (a review never saw whom it had confused); normal
            // mode shows every face anyway.
            #expect(missed.ranges(of: "data-name-face").count == (mode == "reverse" ? 1 : 0), "\(mode)")
            // …and says it in words (a blind review never heard whom it had confused).
            #expect(missed.contains("<span class=\"visually-hidden\"> Their face: ") == (mode == "reverse"), "\(mode)")
            // In Japanese the name takes さん with its role too (a native reader): 名前さん（役職）.
            let japanese = try server.get(
                "/namegame/\(mode)", headers: ["Cookie": player.cookieHeader, "Accept-Language": "ja"]
            ).text
            #expect(japanese.contains(/[a-z]さん(（[^）]+）)?です。/), "\(mode)")
        }
    }

    /// The demo people in the page's language (native readers met English job titles and face descriptions in every
    /// round): a German round describes its face in German and, after a miss, names the role in German; a person an
    /// admin has described in their own words keeps them.
    @Test func theDemoPeopleSpeakThePagesLanguage() throws {
        let server = try SiteServer(engine: .sqlite)
        defer { server.stop() }
        let player = Player(server)
        let people = server.site.services.people
        let page = try player.play("reverse").text
        let person = try #require(people.directory.person(try player.askedID(page)))
        let german = try #require(people.demoWords.appearance(person, "de"))
        #expect(german != person.appearance && people.demoWords.appearance(person, "en") == person.appearance)
        let headers = ["Cookie": player.cookieHeader, "Accept-Language": "de"]
        #expect(try server.get("/namegame/reverse", headers: headers).text.contains(german))
        // A wrong pick names the one asked for with their role, in Russian (which has its own word for nearly every
        // title): the first rounds of a normal lesson, until one asks someone with a role.
        let russian = ["Cookie": player.cookieHeader, "Accept-Language": "ru"]
        var named = false
        for _ in 0..<8 where !named {
            let round = try player.play("normal").text
            let asked = try #require(people.directory.person(try player.askedID(round)))
            guard let title = asked.jobTitle, let role = people.demoWords.jobTitle(asked, "ru"), role != title else {
                try player.answerRight("normal", round)
                try player.post("/namegame/next", "mode=normal")
                continue
            }
            let (id, answer) = try player.round(round)
            try player.post("/namegame/answer", "mode=normal&round=\(id)&choice=\((answer + 1) % 6)")
            let missed = try server.get("/namegame/normal", headers: russian).text
            #expect(missed.contains("\(asked.fullName) (\(role))"), "\(title) → \(role)")
            named = true
        }
        #expect(named, "a round asked someone with a role")
        let edited = Person(
            id: person.id, firstName: person.firstName, lastName: person.lastName, jobTitle: "Chief Tea Officer",
            headshotURL: person.headshotURL, retired: false, appearance: "A hat the admin drew")
        #expect(people.demoWords.appearance(edited, "de") == "A hat the admin drew")
        #expect(people.demoWords.jobTitle(edited, "de") == "Chief Tea Officer")
    }

    /// Issue 41: practice's summary stands alone, not stacked over the question that ended the run.
    @Test(arguments: Engine.allCases) func thePracticeEndShowsItsSummaryAlone(_ engine: Engine) throws {
        let server = try SiteServer(engine: engine)
        defer { server.stop() }
        let player = Player(server)
        try player.meetPeople()  // people met: Practice and Timed wait for that
        let page = try player.play("practice").text
        let (round, answer) = try player.round(page)
        let question = try #require(Player.asked(page))
        try player.post("/namegame/answer", "mode=practice&round=\(round)&choice=\((answer + 1) % 6)")
        try player.post("/namegame/next", "mode=practice")
        let over = try player.play("practice").text
        #expect(over.contains("data-summary") && !over.contains("data-choice"))
        #expect(!over.contains(">\(question)<"), "the question is gone")
        #expect(!over.contains("data-due="), "what is due belongs to lessons, not to a practice run's end")
        #expect(over.contains("data-continue>Play again</button>"), "a practice run is no lesson: no 'Next lesson'")
        #expect(over.contains(">People in this session</h2>"), "nor are its people a lesson's")
    }

    /// Defect 5: the keys are explained only to scripts (hidden until one shows it), with the round's own count, and
    /// names in reverse mode carry their key.
    @Test(arguments: Engine.allCases) func keysAreExplainedWithTheRoundsCount(_ engine: Engine) throws {
        let server = try SiteServer(engine: engine)
        defer { server.stop() }
        let player = Player(server)
        // (`key-hint`: shown only where there is a keyboard.)
        let fifty = try player.play("fifty").text
        #expect(fifty.contains("<p class=\"field-help key-hint\" data-keys hidden>Keys: 1–2 to choose,"))
        #expect(try player.play("normal").text.contains("data-keys hidden>Keys: 1–6 to choose,"))
        let reverse = try player.play("reverse").text
        // Each name's key is given to a screen reader as its shortcut (a blind review heard names alone, unnumbered),
        // not as part of the name (two later ones: "1 Hiro Visser", "The answer: 4 Matt Achebe", noise).
        #expect(
            reverse.matches(of: /class="face-name" data-named( data-long)?><span class="key-hint" aria-hidden="true">/)
                .count == 6)
        #expect(reverse.matches(of: /aria-keyshortcuts="[1-6]"/).count == 6)
    }

    /// Defect 6: progress speaks in words; bookkeeping marks never show as keys.
    @Test(arguments: Engine.allCases) func progressShowsNoInternalKeys(_ engine: Engine) throws {
        let server = try SiteServer(engine: engine)
        defer { server.stop() }
        let player = Player(server)
        try player.answerRounds("normal", count: 2)
        let progress = try player.get("/progress").text
        #expect(progress.contains("Name Game rounds played: 2"))
        #expect(!progress.contains("namegame.try"))
        #expect(
            progress.firstMatch(of: /<li data-task="[^"]+" data-count="\d+">[a-z]+\.[a-z.]+/) == nil,
            "no raw key as text")
    }

    /// Defect 4: the chart has an axis, numbered rows with their values, a summary and the same data as a table; the
    /// lifetime table says what each cell is, so a phone can stack it.
    @Test(arguments: Engine.allCases) func theStatisticsExplainThemselves(_ engine: Engine) throws {
        let server = try SiteServer(engine: engine)
        defer { server.stop() }
        let player = Player(server)
        try player.answerRounds("normal", count: 3)
        let stats = try player.get("/namegame/stats").text
        #expect(stats.contains("data-bars=\"3\""))
        #expect(stats.contains("class=\"chart-axis\""))
        #expect(stats.ranges(of: "class=\"chart-tick-label\"").count == 3)
        #expect(stats.ranges(of: "class=\"chart-value\"").count == 3)
        #expect(stats.contains(">Seconds</text>"))
        #expect(stats.contains("<figcaption id=\"times-summary\">Fastest "))
        #expect(stats.contains("<table data-times>"))
        #expect(stats.contains("<td data-label=\"Answered\">"))
        #expect(stats.contains("class=\"table-scroll\" tabindex=\"0\" role=\"region\""))
        let japanese = try server.get(
            "/namegame/stats", headers: ["Cookie": player.cookieHeader, "Accept-Language": "ja"]
        ).text
        #expect(japanese.contains("秒</text>"))
        // Issue 46: seconds as German writes them, in the summary, the chart's ticks and the table ("0,0", never
        // "0.0"), each unit after a no-break space.
        let german = try server.get(
            "/namegame/stats", headers: ["Cookie": player.cookieHeader, "Accept-Language": "de"]
        ).text
        let summary = try #require(german.firstMatch(of: /<figcaption id="times-summary">([^<]*)</).map { $0.1 })
        #expect(summary.contains(/\d,\d\u{00A0}s/) && !summary.contains(/\d\.\d/), "\(summary)")
        #expect(german.contains(/class="chart-tick-label"[^>]*>\d+,\d</), "the axis in German")
        #expect(!german.contains(/<td>\d+\.\d<\/td>/), "the table in German")
    }

    /// A quiz shows only people on the team now: a review was introduced to someone who had left, whom People you've
    /// met then listed as "No longer on the team", and another picked among faces that had left in Normal.
    @Test func aQuizShowsOnlyPeopleOnTheTeamNow() throws {
        let server = try SiteServer(engine: .sqlite)
        defer { server.stop() }
        let db = try Database(location: server.database)
        #expect(try db.value(Int.self, "SELECT COUNT(*) FROM people WHERE retired = 1") ?? 0 >= 10, "former staff")
        var asked: [String] = []
        for mode in ["normal", "matt", "reverse", "hint", "fifty"] {
            var player = Player(server)
            for _ in 0..<6 {
                player = Player(server)
                asked.append(try player.askedID(try player.play(mode).text))
            }
            // …in a session's later rounds too, dealt from the faces fetched ahead (a later review met, and drilled, a
            // former colleague in Similar names). (The last new player plays on: a new one each would pass the cap on
            // new players from one address.)
            for _ in 0..<8 {
                let page = try player.play(mode).text
                guard page.contains("data-round=") && !page.contains("data-ended=") else { break }
                asked.append(try player.askedID(page))
                try player.answerRight(mode, page)
                try player.post("/namegame/next", "mode=\(mode)")
            }
        }
        let former = try asked.filter {
            try db.value(Int.self, "SELECT retired FROM people WHERE id = ?", [.text($0)]) == 1
        }
        #expect(asked.count >= 60 && former.isEmpty, "introduced though gone: \(former) of \(asked.count)")
        let faces = try db.value(Int.self, "SELECT COUNT(*) FROM namegame_round_faces") ?? 0
        let gone = try db.value(
            Int.self,
            "SELECT COUNT(*) FROM namegame_round_faces f JOIN people p ON p.id = f.person WHERE p.retired = 1")
        #expect(faces >= 200 && gone == 0, "faces of people who have left: \(gone ?? -1) of \(faces)")
    }

    /// The day's new people met, a quiz asks about those met in its pool, not strangers (a review: Similar names
    /// introduced Mat, Matt and Maren past a limit of ten a day).
    @Test func aQuizMeetsNobodyNewOnceTheDaysNewPeopleAreMet() throws {
        let server = try SiteServer(engine: .sqlite)
        defer { server.stop() }
        let player = Player(server)
        try player.meetPeople()  // eight
        let db = try Database(location: server.database)
        let matt = try #require(
            try db.value(String.self, "SELECT id FROM people WHERE first_name = 'Matt' AND last_name = 'Achebe'"))
        let other = try #require(
            try db.value(
                String.self,
                """
                SELECT id FROM people WHERE retired = 0 AND first_name NOT LIKE 'Ma%'
                AND id NOT IN (SELECT person FROM namegame_cards) LIMIT 1
                """))
        _ = try LearnDepthSiteTests().met(server, count: 2, stability: 10, due: 0, people: [matt, other])
        _ = try db.execute("UPDATE namegame_cards SET met_ms = CAST(strftime('%s', 'now') AS INTEGER) * 1000")
        let before = try db.value(Int.self, "SELECT COUNT(*) FROM namegame_cards")
        #expect(before == 10, "ten met today: the steady pace's day")
        for _ in 0..<4 {
            let page = try player.play("matt").text
            #expect(!page.contains("data-intro"), "someone new introduced")
            try player.answerRight("matt", page)
            try player.post("/namegame/next", "mode=matt")
        }
        #expect(try db.value(Int.self, "SELECT COUNT(*) FROM namegame_cards") == before, "nobody new met")
    }

    /// The menu's three ways on after Learn repeat neither the next step named above them nor a mode that would only
    /// say "meet people first" (a review: Recall twice on one screen; Timed locked among the three for a newcomer).
    @Test func theMenusThreeModesRepeatNoSuggestionAndNoLockedMode() throws {
        let server = try SiteServer(engine: .sqlite)
        defer { server.stop() }
        let player = Player(server)
        let newcomer = try #require(try player.get("/namegame").text.components(separatedBy: "data-more-modes").first)
        #expect(newcomer.contains("data-play=\"recall\"") && !newcomer.contains("data-play=\"timed\""))
        try player.meetPeople()
        #expect(
            try player.get("/namegame").text.components(separatedBy: "data-more-modes").first?.contains(
                "data-play=\"recall\"") == true, "not named above until today's goal is met")
        #expect(try player.post("/namegame/pace", "pace=relaxed").status == 303, "a goal of one lesson")
        try player.answerRounds("normal", count: 10)
        let menu = try player.get("/namegame").text
        let shown = try #require(menu.components(separatedBy: "data-more-modes").first)
        #expect(shown.contains("data-play-suggested=\"recall\"") && !shown.contains("data-play=\"recall\""))
        #expect(shown.contains("data-play=\"timed\"") && shown.ranges(of: "data-play=\"").count == 4)
        #expect(menu.contains("data-play=\"recall\""), "still one tap away")
    }

    /// Recall drills a miss, but not in turn with another: each rests for the last few rounds, so the others met are
    /// asked between (a review: two people missed took 8 of 10 rounds, half of those met never came up).
    @Test func recallRestsItsMissesSoTheOthersMetAreAskedToo() throws {
        let server = try SiteServer(engine: .sqlite)
        defer { server.stop() }
        let player = Player(server)
        try player.meetPeople()
        var asked: [String] = []
        var missing: [String] = []
        for _ in 0..<10 {
            let page = try player.play("recall").text
            guard !page.contains("data-ended=\"true\"") else { break }
            let id = try player.askedID(page)
            asked.append(id)
            if missing.count < 2 && !missing.contains(id) { missing.append(id) }
            if missing.contains(id) { try player.miss("recall", page) } else { try player.answerRight("recall", page) }
            try player.post("/namegame/next", "mode=recall")
        }
        #expect(asked.count == 10)
        #expect(Set(asked).count >= 5, "\(asked)")
        let back = zip(asked, asked.dropFirst(2)).filter { $0.0 == $0.1 && missing.contains($0.0) }
        #expect(back.isEmpty, "a miss asked again two rounds later: \(asked)")
    }

    /// A quiz's summary that says people are due now offers to review them, in Learn (a review: "Due for review now: 1"
    /// beside only "Play again").
    @Test func aQuizSummaryWithPeopleDueOffersToReviewThem() throws {
        let server = try SiteServer(engine: .sqlite)
        defer { server.stop() }
        let player = Player(server)
        try player.meetPeople()
        try player.finishLesson("normal")
        _ = try Database(location: server.database).execute("UPDATE namegame_cards SET due_ms = 0")
        let summary = try player.play("normal").text
        #expect(summary.contains("data-review-due>8 people to review today</button>"))
        // Said once, by its button (a later review: "Review 3 due" over "Due for review now: 3").
        #expect(summary.contains("data-ended=\"true\"") && !summary.contains("data-due-now"))
        #expect(try player.post("/namegame/next", "mode=learn&resume=1").status == 303)
        #expect(Player.attribute("data-mode", in: try player.play("learn").text) == "learn")
        // Beside "Review the people I missed", not offered again (a later review: two offers, 3 and 1, and no telling
        // which to press): a run with a miss.
        try player.post("/namegame/next", "mode=normal")
        try player.miss("normal", try player.play("normal").text)
        try player.finishLesson("normal")
        _ = try Database(location: server.database).execute("UPDATE namegame_cards SET due_ms = 0")
        let missed = try player.play("normal").text
        #expect(missed.contains("data-due-now=\"8\"") && missed.contains("Review the people I missed (1)"))
        #expect(!missed.contains("data-review-due"))
    }

    /// A 50/50 answered right moves no one (a coin toss proves little), so its people stay due: the summary makes no
    /// claim for them, where it said "Comes back now" beside "Recognised" (a review read a contradiction).
    @Test func aRightAnswerStillDueClaimsNoReturn() throws {
        let server = try SiteServer(engine: .sqlite)
        defer { server.stop() }
        let player = Player(server)
        try player.meetPeople()
        try player.post("/namegame/next", "mode=fifty")
        try player.finishLesson("fifty")
        let over = try player.play("fifty").text
        #expect(over.contains("data-ended=\"true\"") && over.contains("Recognised"))
        #expect(!over.contains("Comes back now"))
    }

    /// A review's summary lists whom it reviewed, each coming back later; the people due now are said to be others (a
    /// review read "Comes back later today" beside each, over "Due for review now: 3", as a contradiction).
    @Test func aReviewSaysThePeopleDueNowAreOthers() throws {
        let server = try SiteServer(engine: .sqlite)
        defer { server.stop() }
        let player = Player(server)
        try player.meetPeople()
        try player.post("/namegame/next", "mode=normal")
        try player.miss("normal", try player.play("normal").text)
        try player.finishLesson("normal")
        let over = try player.play("normal").text
        let session = try #require(Player.attribute("name=\"session\" value", in: over))
        #expect(try player.post("/namegame/review", "session=\(session)").status == 303)
        try player.finishLesson("review")
        // Someone the review did not ask is due now, whoever the lesson's draw left (a clean clone's lesson asked all
        // eight right, and nobody was due).
        let due = try Database(location: server.database).execute(
            """
            UPDATE namegame_cards SET due_ms = 0 WHERE person = (SELECT person FROM namegame_cards WHERE person NOT IN
                (SELECT f.person FROM namegame_round_faces f JOIN namegame_rounds r ON r.id = f.round
                 AND f.position = r.answer WHERE r.mode = 'review') ORDER BY person LIMIT 1)
            """)
        #expect(due == 1)
        let reviewed = try player.play("review").text
        // (Minutes from now: "tomorrow" when that is past midnight, UTC, as a clean clone's run at 23:59 found.)
        #expect(
            reviewed.contains("data-ended=\"true\"")
                && (reviewed.contains("Comes back later today") || reviewed.contains("Comes back tomorrow")))
        #expect(reviewed.contains(/>Others due for review now: \d+</) && !reviewed.contains("Due for review now"))
    }

    /// Hints mode slows down ten times on request (WCAG 2.2.1; a blind review lost half the faces while its screen
    /// reader read three), by a button on the round that works without a script, and back again.
    @Test func hintModeSlowsDownTenTimesOnRequest() throws {
        let now = Mutex(1_800_000_000.0)
        let server = try SiteServer(engine: .sqlite, routes: nil) { $0.clock = { now.withLock { $0 } } }
        defer { server.stop() }
        try server.site.constants.setHotfix("namegame.hintInterval", .real(1))
        let player = Player(server)
        let first = try player.play("hint").text
        #expect(first.contains("aria-pressed=\"false\" data-hint-speed>Slower: one face every 10\u{00A0}s<"))
        #expect(try player.post("/namegame/hint-speed", "slow=1").status == 303)
        now.withLock { $0 += 5 }
        let slowed = try player.play("hint").text
        #expect(!slowed.contains("data-hidden=\"true\"") && slowed.contains("data-hint-ms=\"10000\""))
        // A toggle that says its state under one name (a blind review: the flipping label said nothing of it).
        #expect(slowed.contains("aria-pressed=\"true\" data-hint-speed>Slower: one face every 10\u{00A0}s<"))
        now.withLock { $0 += 6 }
        #expect(try player.play("hint").text.ranges(of: "data-hidden=\"true\"").count == 1, "one in 11 s")
        #expect(try player.post("/namegame/hint-speed", "slow=0").status == 303)
        let usual = try player.play("hint").text
        #expect(usual.ranges(of: "data-hidden=\"true\"").count == 5 && usual.contains("data-hint-ms=\"1000\""))
    }

    @Test(arguments: Engine.allCases) func hintModeHidesWrongFacesOverTime(_ engine: Engine) throws {
        // The site's clock, moved by the test: a loaded machine's slow request cannot hide one more face.
        let now = Mutex(1_800_000_000.0)
        let server = try SiteServer(engine: engine, routes: nil) { $0.clock = { now.withLock { $0 } } }
        defer { server.stop() }
        try server.site.constants.setHotfix("namegame.hintInterval", .real(0.3))
        let player = Player(server)
        let page = try player.play("hint").text
        let (round, answer) = try player.round(page)
        #expect(!page.contains("data-hidden"))
        // The words the page says as faces go (a blind review: they vanished in silence), the count filled in there.
        #expect(page.contains("data-faces-left=\"Faces left: %d\""))
        now.withLock { $0 += 0.7 }
        let later = try player.play("hint").text
        let hidden = later.ranges(of: "data-hidden=\"true\"").count
        #expect(hidden == 2, "one more every 0.3 s")
        #expect(!later.contains("data-choice=\"\(answer)\" data-key=\"\(answer + 1)\" data-hidden"), "never the answer")
        now.withLock { $0 += 1.2 }
        let end = try player.play("hint").text
        #expect(end.ranges(of: "data-hidden=\"true\"").count == 5)
        // A hidden face cannot be chosen.
        let hiddenChoice = (0..<6).first { $0 != answer }!
        #expect(try player.post("/namegame/answer", "mode=hint&round=\(round)&choice=\(hiddenChoice)").status == 422)
        // The one face left, tapped once every other is gone, was waited for, not known (a review): a miss, shown so.
        #expect(try player.post("/namegame/answer", "mode=hint&round=\(round)&choice=\(answer)").status == 303)
        let waited = try player.play("hint").text
        #expect(waited.contains("data-session-correct=\"0\" data-session-incorrect=\"1\""))
        // Said calmly, not as a wrong pick's red ✖ (a later review read that as punishment for waiting).
        #expect(
            waited.contains(
                "<p class=\"outcome-answer\" data-revealed>Every other face had gone, so this counts as a miss"))
        // In a panel like every other result, its edge calm (a later review: bare text, unlike every other miss).
        #expect(waited.contains("<div class=\"round-result is-out is-calm\" data-outcome>"))
        // Tapped while others still show, it is right.
        try player.post("/namegame/next", "mode=hint")
        let (next, nextAnswer) = try player.round(try player.play("hint").text)
        now.withLock { $0 += 0.7 }
        #expect(try player.post("/namegame/answer", "mode=hint&round=\(next)&choice=\(nextAnswer)").status == 303)
        #expect(try player.play("hint").text.contains("data-session-correct=\"1\" data-session-incorrect=\"1\""))
    }

    /// A wrong tap in timed mode costs three seconds of the clock (a review: mashing faces cost nothing); a right
    /// one and "I don't know" cost none.
    @Test(arguments: Engine.allCases) func aWrongTimedTapCostsTime(_ engine: Engine) throws {
        let now = Mutex(1_800_000_000.0)
        let server = try SiteServer(engine: engine, routes: nil) { $0.clock = { now.withLock { $0 } } }
        defer { server.stop() }
        let player = Player(server)
        try player.meetPeople()  // a timed minute asks about people met
        let (round, answer) = try player.round(try player.play("timed").text)
        #expect(
            try player.post("/namegame/answer", "mode=timed&round=\(round)&choice=\((answer + 1) % 6)").status == 303)
        let taught = try player.play("timed").text
        #expect(Player.attribute("data-seconds-left", in: taught) == "57")
        #expect(taught.contains("data-penalty>Penalty: −3"))
        try player.post("/namegame/answer", "mode=timed&round=\(round)&choice=\(answer)")
        try player.post("/namegame/next", "mode=timed")
        let (second, right) = try player.round(try player.play("timed").text)
        try player.post("/namegame/answer", "mode=timed&round=\(second)&choice=\(right)")
        try player.post("/namegame/next", "mode=timed")
        let (third, _) = try player.round(try player.play("timed").text)
        try player.post("/namegame/dontknow", "mode=timed&round=\(third)")
        let page = try player.play("timed").text
        #expect(Player.attribute("data-seconds-left", in: page) == "57", "a right tap and I don't know cost nothing")
        #expect(!page.contains("data-penalty"))
        now.withLock { $0 += 57.5 }
        let ended = try player.play("timed").text
        #expect(ended.contains("data-ended=\"true\""), "the minute ended three seconds early")
        // Its time is the clock's, not the last answer's (a review: "Time 0:02" after a whole minute).
        #expect(ended.contains("data-summary-time=\"57\">0:57<"))
    }
}
