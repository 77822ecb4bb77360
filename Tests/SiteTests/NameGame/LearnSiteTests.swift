import Glibc
import HTTP
import Storage
import TestSupport
import Testing

@testable import ArcadeStore
@testable import ArcadeWeb

extension Player {
    /// The full name the page asks for ("Who is First Last?").
    static func asked(_ html: String) -> String? {
        guard let range = html.firstRange(of: "class=\"question\" tabindex=\"-1\""),
            let end = html[range.upperBound...].firstIndex(of: ">")
        else { return nil }
        return String(html[html.index(after: end)...].prefix { $0 != "<" })
    }

    /// The person a round asks for, by id, from the database (the oracle).
    func askedID(_ html: String) throws -> String {
        let id = try #require(Player.attribute("data-round", in: html))
        let db = try Database(location: server.database)
        let row = try #require(
            try db.first(
                """
                SELECT f.person FROM namegame_rounds r
                JOIN namegame_round_faces f ON f.round = r.id AND f.position = r.answer
                WHERE r.id = ?
                """, [.integer(Int64(id)!)]))
        return try row.decode("person")
    }
}

@Suite("Learning by spaced repetition, over HTTP")
struct LearnSiteTests {
    /// A lesson asks again, before it ends, whom it missed near its end (Duolingo redoes mistakes before a lesson
    /// ends; a review's miss in round 9 of 10 waited for another day), once: missed again, they wait for the next
    /// lesson (a struggling review was asked the same two people, first letter shown, round after round).
    @Test(arguments: Engine.allCases) func aLessonAsksAgainWhomItMissedBeforeItEnds(_ engine: Engine) throws {
        let server = try SiteServer(engine: engine)
        defer { server.stop() }
        var typedMisses = 0
        for missesAgain in [false, true, true] {
            let player = Player(server)
            try player.answerRounds("learn", count: 9)
            let tenth = try player.play("learn").text
            let missed = try player.askedID(tenth)
            #expect(!tenth.contains("data-second-try"))
            try player.miss("learn", tenth)
            let missedPage = try player.get("/namegame/learn").text
            #expect(missedPage.contains(#/<span data-lesson-extra>\+[1-5] to repeat</span>/#), "said to come back")
            try player.post("/namegame/next", "mode=learn")
            let again = try player.play("learn").text
            #expect(try player.askedID(again) == missed, "round 11")
            #expect(again.contains("<p class=\"howto\" data-second-try>Once more: someone you missed"))
            // The count stays "of 10", and says rounds are still to come (a review read 10/10 and was asked three
            // more times), as repeats (a later review read "2 more" as a lesson whose length kept changing); the bar
            // does not fill before the end.
            #expect(again.contains("data-lesson-done=\"10\" data-lesson-total=\"10\" data-lesson-end=\"1"))
            #expect(again.contains(try Regex(#"aria-hidden="true">10/10 <span data-lesson-extra>\+[1-9] to repeat<"#)))
            // Asked as it was missed: a name missed typed is typed again (a review: it came back as a face to
            // pick), its first letter given.
            let typed = tenth.contains("data-recall-input")
            #expect(again.contains("data-recall-input") == typed, "typed \(typed)")
            if typed { typedMisses += 1 }
            if missesAgain { try player.miss("learn", again) } else { try player.answerRight("learn", again) }
            // A face picked right after a miss moves on by itself; a name typed wrong waits for Next.
            let db = try Database(location: server.database)
            if try db.value(Int.self, "SELECT COUNT(*) FROM namegame_sessions WHERE ended = 0") == 1 {
                try player.post("/namegame/next", "mode=learn")
            }
            // Then whom it met and only picked type their names, and it ends; whom it missed is not asked again.
            for _ in 0..<5 {
                let page = try player.play("learn").text
                if page.contains("data-ended=\"true\"") { break }
                #expect(try player.askedID(page) != missed, "asked a third time")
                try player.answerRight("learn", page)
                try player.post("/namegame/next", "mode=learn")
            }
            let over = try player.get("/namegame/learn").text
            #expect(over.contains("data-ended=\"true\""), "over after 15 rounds or fewer")
            // The summary says a miss put right later in the lesson was (a review read "Missed" beside someone it had
            // named right since); one missed to the end stays missed.
            let recovered = over.ranges(of: "data-tag=\"recovered\"").count
            #expect(recovered == (missesAgain ? 0 : 1) && over.contains("data-tag=\"again\"") == missesAgain)
            let rounds = try #require(
                try db.value(
                    Int.self,
                    "SELECT rounds FROM namegame_sessions WHERE id = (SELECT MAX(id) FROM namegame_sessions)"))
            #expect((11...15).contains(rounds), "\(rounds)")
        }
        #expect(typedMisses > 0, "no tenth round was typed: the typed case went untried")
    }

    /// A learner who misses every question still reaches the lesson's end, `secondTries` rounds past its length at
    /// most, and the count of rounds to come falls by one each round (a review's "2 more" stood for eight rounds);
    /// meanwhile their misses come back after others, not in turn.
    @Test(arguments: Engine.allCases) func aStrugglingLearnersLessonEnds(_ engine: Engine) throws {
        let server = try SiteServer(engine: engine)
        defer { server.stop() }
        let player = Player(server)
        var counts: [Int] = []
        var before: [Int] = []
        var asked: [String] = []
        var answered = 0
        while answered < 30 {
            let page = try player.play("learn").text
            if let more = page.firstMatch(of: #/>(\d+)/10 <span data-lesson-extra>\+(\d+) to repeat</span>/#) {
                if more.1 == "10" { counts.append(Int(more.2)!) } else { before.append(Int(more.2)!) }
            }
            asked.append(try player.askedID(page))
            try player.miss("learn", page)
            answered += 1
            // (A face picked after a miss moves on by itself, here to the summary; Next there would start another.)
            func over() throws -> Bool { try player.get("/namegame/learn").text.contains("data-ended=\"true\"") }
            if try over() { break }
            try player.post("/namegame/next", "mode=learn")
            if try over() { break }
        }
        #expect((11...15).contains(answered), "a lesson of \(answered) rounds")
        #expect(!counts.isEmpty, "no round past the lesson's length said how many were to come")
        #expect(counts == Array((1...(counts.first ?? 0)).reversed()), "rounds to come, as said: \(counts)")
        #expect(counts.count == answered - 10, "\(counts) over \(answered) rounds")
        // Before the length, the misses to come back are said as they happen, up to the rounds the lesson adds (a
        // review: "10 rounds" took 14 answers, unannounced).
        #expect(before.count == 9 && before == before.sorted() && before.last ?? 0 >= 3, "\(before) then \(counts)")
        // A miss comes back after others, not at once: the two first met were asked in turn for a whole lesson,
        // first letter shown (a review). Someone new comes between while the batch has room.
        #expect(Set(asked).count >= 4, "\(Set(asked).count) people asked in \(answered) rounds")
        let third = zip(asked, asked.dropFirst(2)).filter { $0 == $1 }.count
        #expect(third <= 2, "asked again two rounds later \(third) times: \(asked)")
    }

    @Test(arguments: Engine.allCases) func aWrongPickInNormalModeIsTheNextLearnQuestion(_ engine: Engine) throws {
        let server = try SiteServer(engine: engine)
        defer { server.stop() }
        let player = Player(server)
        // Learn a few people first, so the scheduler has others it could ask; the last learn round answered too.
        try player.answerRounds("learn", count: 3)
        let learnPage = try player.play("learn").text
        let lastLearned = try player.askedID(learnPage)
        try player.answerRight("learn", learnPage)
        // A normal round asking someone else (learn mode never asks the same person twice in a row).
        var page = try player.play("normal").text
        while try player.askedID(page) == lastLearned {
            let (round, answer) = try player.round(page)
            try player.post("/namegame/answer", "mode=normal&round=\(round)&choice=\(answer)")
            try player.post("/namegame/next", "mode=normal")
            page = try player.play("normal").text
        }
        let (round, answer) = try player.round(page)
        let missed = try player.askedID(page)
        let db = try Database(location: server.database)
        // Met earlier (a quiz rates only people met; a stranger it leaves alone, below).
        _ = try db.execute(
            """
            INSERT INTO namegame_cards (player, person, state, step, stability, difficulty, due_ms, last_ms, reviews,
                met_ms)
            SELECT id, ?, 'review', NULL, 10, 5, 0, 0, 1, 0 FROM players WHERE true ON CONFLICT (player, person) DO NOTHING
            """, [.text(missed)])
        try player.post("/namegame/answer", "mode=normal&round=\(round)&choice=\((answer + 1) % 6)")
        // The round is still open, and the wrong pick already counts as a miss (the player may never come back).
        let lapses = "SELECT lapses FROM namegame_cards WHERE person = ?"
        #expect(try db.first(lapses, [.text(missed)])?.int("lapses") == 1)
        try player.post("/namegame/answer", "mode=normal&round=\(round)&choice=\(answer)")
        #expect(try db.first(lapses, [.text(missed)])?.int("lapses") == 1, "the same miss is not counted twice")
        // A minute later (the miss's learning step), learn mode asks for them next.
        _ = try db.execute("UPDATE namegame_cards SET due_ms = due_ms - 60000 WHERE person = ?", [.text(missed)])
        try player.post("/namegame/next", "mode=learn")
        #expect(try player.askedID(try player.play("learn").text) == missed)
    }

    @Test(arguments: Engine.allCases) func someoneNewIsIntroducedBeforeTheFirstQuestion(_ engine: Engine) throws {
        let server = try SiteServer(engine: engine)
        defer { server.stop() }
        let player = Player(server)
        try player.get("/")
        try player.post("/namegame/next", "mode=learn")
        let intro = try player.get("/namegame/learn").text
        #expect(intro.contains("data-intro"))
        #expect(!intro.contains("data-choice"), "no question before the introduction")
        let person = try player.askedID(intro)
        let db = try Database(location: server.database)
        let met = "SELECT reviews FROM namegame_cards WHERE person = ?"
        #expect(try db.first(met, [.text(person)]) == nil)
        let round = try #require(Player.attribute("data-round", in: intro))
        #expect(try player.post("/namegame/meet", "round=\(round)").status == 303)
        #expect(try db.first(met, [.text(person)])?.int("reviews") == 0, "met, not yet asked")
        #expect(try player.post("/namegame/meet", "round=\(round)").status == 422, "an introduction is seen once")
        #expect(try player.post("/namegame/meet", "round=0").status == 422)
        // Not asked about them a second after meeting them (a review: the answer was only remembered): the next
        // round is someone else, here the next new face.
        let second = try player.get("/namegame/learn").text
        #expect(second.contains("data-intro"))
        let other = try player.askedID(second)
        #expect(other != person)
        try player.post("/namegame/meet", "round=\(try #require(Player.attribute("data-round", in: second)))")
        // Then the question about the first, then about the second: typed, its first letter given, while two are met
        // (a review: a pick between the only two faces met was a coin toss).
        let question = try player.get("/namegame/learn").text
        #expect(try player.askedID(question) == person, "asked one round after meeting them")
        #expect(question.contains("data-recall-input") && !question.contains("data-choice"))
        let (asked, _) = try player.round(question)
        let first = try player.firstName(asked)
        let letter = String(first.prefix(1))
        // (A few of the bundled team share a first name: then the full name is asked, `NameMatch.asksFullName`.)
        let name = try player.namesake(asked) ? try player.fullName(asked) : first
        let what = name == first ? "first name" : "full name"
        #expect(question.contains("Type the \(what). It begins with “\(letter)”."))
        // Said once: no namesake line besides (a review read three stacked instructions saying one thing).
        #expect(!question.contains("data-namesake"))
        #expect(question.contains("placeholder=\"\(letter)…\"") && !question.contains("data-recall-hint"))
        #expect(!question.contains("data-small-pool") && !question.contains("fit this mode"))
        #expect(
            try player.post("/namegame/recall", "mode=learn&round=\(asked)&name=\(name.addingFormEncoding)").status
                == 303)
        // Right about them on the first day: learning, not "Learned" (issue 41), and no "Learned: 0" either.
        let answered = try player.get("/namegame/learn").text
        #expect(answered.contains("data-identified=\"true\"") && answered.contains("data-learning=\"2\""))
        #expect(!answered.contains("data-learned"), "no learned count until someone is")
        try player.post("/namegame/next", "mode=learn")
        let next = try player.get("/namegame/learn").text
        #expect(try player.askedID(next) == other)
        #expect(next.contains("data-recall-input"), "typed too: two met")
        // With three met, a pick among the three faces met and three strangers (a review: after two introductions, four
        // of six faces had never been shown; another: among strangers the one familiar face was the answer; a third:
        // among the people met only, the one not yet named was).
        try player.answerRight("learn", next)
        try player.post("/namegame/next", "mode=learn")
        var pick = try player.play("learn").text
        for _ in 0..<4 where !pick.contains("data-choice") {
            try player.answerRight("learn", pick)
            try player.post("/namegame/next", "mode=learn")
            pick = try player.play("learn").text
        }
        let faces = try db.query(
            "SELECT person FROM namegame_round_faces WHERE round = ?",
            [.integer(Int64(try #require(Player.attribute("data-round", in: pick)))!)]
        ).map { try $0.decode("person") as String }
        let everyoneMet = try db.query("SELECT person FROM namegame_cards").map { try $0.decode("person") as String }
        #expect(everyoneMet.count >= 3 && faces.count == 6 && Set(everyoneMet).isSubset(of: Set(faces)))
    }

    /// A first lesson at a player's speed meets several people, each asked again later in it, rather than spending its
    /// ten rounds on two people asked five times each (a review): someone answered right waits for their step, and
    /// someone new comes meanwhile.
    @Test func aFirstLessonMeetsSeveralPeopleAndAsksEachAgain() throws {
        let clock = AdminConsoleTests.Clock()
        let server = try AdminConsoleTests.server(clock)
        defer { server.stop() }
        let player = Player(server)
        var asked: [String] = []
        for _ in 0..<10 {
            let page = try player.play("learn").text
            asked.append(try player.askedID(page))
            try player.answerRight("learn", page)
            clock.advance(8)
            try player.post("/namegame/next", "mode=learn")
        }
        let counts = Dictionary(asked.map { ($0, 1) }, uniquingKeysWith: +)
        #expect((5...7).contains(counts.count), "\(asked)")
        #expect(counts.values.filter { $0 >= 2 }.count >= 3, "asked again within the lesson: \(asked)")
        #expect(zip(asked, asked.dropFirst()).allSatisfy { $0 != $1 }, "\(asked)")
    }

    @Test(arguments: Engine.allCases) func learnMeetsSoManyNewPeopleADayThenReviews(_ engine: Engine) throws {
        let server = try SiteServer(engine: engine)
        defer { server.stop() }
        let player = Player(server)
        try player.answerRounds("learn", count: 2)
        let (open, right) = try player.round(try player.play("learn").text)
        try player.post("/namegame/answer", "mode=learn&round=\(open)&choice=\(right)")
        let db = try Database(location: server.database)
        // The day's fifteen new people met (here, as if met this morning; due tomorrow).
        let id = try #require(try db.first("SELECT id FROM players")?.string("id"))
        let now = try #require(try db.first("SELECT MAX(met_ms) AS now FROM namegame_cards")?.int("now"))
        let met = Set(
            try db.query("SELECT person FROM namegame_cards").map { try $0.decode("person", as: String.self) })
        let others = try db.query("SELECT id FROM people ORDER BY id").map { try $0.decode("id", as: String.self) }
            .filter { !met.contains($0) }.prefix(15)
        for person in others {
            _ = try db.execute(
                """
                INSERT INTO namegame_cards (player, person, state, step, stability, difficulty, due_ms, last_ms, reviews,
                    met_ms)
                VALUES (?, ?, 'review', NULL, 30, 5, ?, ?, 1, ?)
                """,
                [
                    .text(id), .text(person), .integer(Int64(now) + 86_400_000 * 2), .integer(Int64(now)),
                    .integer(Int64(now)),
                ])
        }
        _ = try db.execute("UPDATE namegame_cards SET due_ms = ?", [.integer(Int64(now) + 86_400_000 * 2)])
        // Nobody new, then (Anki's new cards a day): the next round reviews someone met, ahead of their time.
        try player.post("/namegame/next", "mode=learn")
        let page = try player.get("/namegame/learn").text
        #expect(!page.contains("data-intro"), "no one new after the day's fifteen")
        let asked = try player.askedID(page)
        #expect(try db.first("SELECT 1 AS met FROM namegame_cards WHERE person = ?", [.text(asked)]) != nil)
    }

    @Test func playersMeetNewPeopleInOrdersOfTheirOwn() throws {
        let server = try SiteServer()
        defer { server.stop() }
        // A review: every player met the same two first (Mat, then Matt). Five players' first introductions.
        var first: Set<String> = []
        for _ in 0..<5 {
            let player = Player(server)
            try player.get("/")
            try player.post("/namegame/next", "mode=learn")
            let intro = try player.get("/namegame/learn").text
            #expect(intro.contains("data-intro"))
            first.insert(try player.askedID(intro))
        }
        #expect(first.count >= 2, "\(first)")
    }

    @Test(arguments: Engine.allCases) func aMissInALessonIsAskedAgainAFewRoundsLater(_ engine: Engine) throws {
        let server = try SiteServer(engine: engine)
        defer { server.stop() }
        let player = Player(server)
        let db = try Database(location: server.database)
        // Two rounds answered right, then a miss (a wrong pick, then the right one).
        try player.answerRounds("learn", count: 2)
        let page = try player.play("learn").text
        let missed = try player.askedID(page)
        try player.miss("learn", page)
        // Ten seconds of play later (two or three rounds), they come back, after one round about someone else.
        _ = try db.execute("UPDATE namegame_cards SET due_ms = due_ms - 10000, last_ms = last_ms - 10000")
        try player.post("/namegame/next", "mode=learn")
        let between = try player.play("learn").text
        #expect(try player.askedID(between) != missed)
        try player.answerRight("learn", between)
        try player.post("/namegame/next", "mode=learn")
        #expect(try player.askedID(try player.play("learn").text) == missed, "a miss comes back within the lesson")
    }

    @Test(arguments: Engine.allCases) func iDontKnowShowsTheAnswerAndCountsAMiss(_ engine: Engine) throws {
        let server = try SiteServer(engine: engine)
        defer { server.stop() }
        let player = Player(server)
        let page = try player.play("normal").text
        #expect(page.contains("data-dontknow"))
        let question = try #require(Player.asked(page))
        let name = String(question.dropFirst("Who is ".count).dropLast())
        let (round, _) = try player.round(page)
        #expect(try player.post("/namegame/dontknow", "mode=normal&round=\(round)").status == 303)
        let after = try player.play("normal").text
        // Calmly, not as a wrong answer's red ✖ (a review: "it punishes the honest answer").
        #expect(after.contains("<p class=\"outcome-answer\" data-revealed>This is "))
        // Named with the role (issue 41: the answer teaches who they are).
        #expect(after.contains("This is \(name)"), "\(name)")
        #expect(after.contains("data-session-incorrect=\"1\""))
        #expect(!after.contains("data-dontknow"), "answered: no second give-up")
        #expect(try player.post("/namegame/dontknow", "mode=normal&round=\(round)").status == 422)
        // A round ended so is played (an English reader's progress still said "Try the Name Game" after lessons).
        #expect(try player.get("/progress").text.contains("data-task=\"namegame.played\" data-count=\"1\""))
        // Review my misses waits for the lesson's end (a review: mid-lesson, it took the player out of it).
        #expect(!after.contains("data-review"))

        // Practice: giving up ends the run, once its answer is seen.
        let practice = try player.play("practice").text
        try player.post("/namegame/dontknow", "mode=practice&round=\(try player.round(practice).id)")
        let shown = try player.play("practice").text
        #expect(shown.contains("This is ") && shown.contains("See how it went"))
        try player.post("/namegame/next", "mode=practice")
        #expect(try player.play("practice").text.contains("data-ended=\"true\""))
    }

    /// "I don't know" counts as wrong and ends the streak in every mode (a review saw Wrong rise in learn mode while
    /// the streak stayed).
    @Test(arguments: Engine.allCases) func iDontKnowEndsTheStreakInEveryMode(_ engine: Engine) throws {
        let server = try SiteServer(engine: engine)
        defer { server.stop() }
        let player = Player(server)
        for mode in ["learn", "normal"] {
            try player.answerRounds(mode, count: 2)
            let page = try player.play(mode).text
            #expect(page.contains("data-session-streak=\"2\""), "\(mode)")
            try player.post("/namegame/dontknow", "mode=\(mode)&round=\(try player.round(page).id)")
            let after = try player.play(mode).text
            #expect(after.contains("data-session-streak=\"0\""), "\(mode)")
            #expect(after.contains("data-session-incorrect=\"1\""), "\(mode)")
        }
        let stats = try player.get("/namegame/stats").text
        #expect(stats.contains("data-mode=\"learn\""))
        #expect(stats.contains("data-best=\"2\""))
        // Every person asked has been met; none is known well after a few minutes; no names shown.
        let db = try Database(location: server.database)
        let met = try #require(try db.first("SELECT COUNT(*) AS n FROM namegame_cards")?.int("n"))
        #expect(met >= 2)
        #expect(stats.contains("data-known=\"0\" data-learning=\"\(met)\""))
    }

    /// Review my misses asks those missed, and asks again whoever it misses (three times at most).
    @Test(arguments: Engine.allCases) func reviewMyMissesAsksExactlyThoseMissed(_ engine: Engine) throws {
        let server = try SiteServer(engine: engine)
        defer { server.stop() }
        let player = Player(server)
        // Two different people missed, with a round answered right between them, within the lesson's ten rounds.
        // (A round asks someone at random: a miss is made at the first round after a right one that asks someone not
        // yet missed; missing only on odd rounds, the same person asked there ran the lesson out one run in ten.)
        var missed: [String] = []
        var rounds = 0
        var lastRight = true
        while missed.count < 2 || rounds < 4 {
            rounds += 1
            try #require(rounds <= 9, "two different people to miss")
            let page = try player.play("normal").text
            let (round, answer) = try player.round(page)
            let asked = try player.askedID(page)
            if lastRight, missed.count < 2, !missed.contains(asked) {
                lastRight = false
                missed.append(asked)
                let wrong = try player.post("/namegame/answer", "mode=normal&round=\(round)&choice=\((answer + 1) % 6)")
                #expect(wrong.status < 400, "the wrong pick was taken")
                // The tap on the answer shown only moves on: the next round is dealt (issue 41).
                #expect(try player.post("/namegame/answer", "mode=normal&round=\(round)&choice=\(answer)").status < 400)
                continue
            }
            #expect(try player.post("/namegame/answer", "mode=normal&round=\(round)&choice=\(answer)").status < 400)
            #expect(try player.post("/namegame/next", "mode=normal").status < 400)
            lastRight = true
        }
        // Offered at the lesson's end, not under each round's Next (a review: it took the player out of the lesson).
        var page = try player.play("normal").text
        try player.answerRight("normal", page)
        #expect(!(try player.get("/namegame/normal").text.contains("data-review")), "not mid-lesson")
        for _ in 0..<10 where !page.contains("data-ended=\"true\"") {
            try player.post("/namegame/next", "mode=normal")
            page = try player.get("/namegame/normal").text
            if !page.contains("data-ended=\"true\"") { try player.answerRight("normal", page) }
        }
        let answered = try player.get("/namegame/normal").text
        #expect(answered.contains("data-ended=\"true\"") && answered.contains("(2)"), "two people missed")
        // The misses are the summary's first and main button; going on is the quiet one (a review was steered on to
        // new people with three it had just missed).
        let review = try #require(answered.range(of: "<button type=\"submit\" data-review>"))
        let next = try #require(
            answered.range(of: "<button type=\"submit\" class=\"button-quiet\" data-next data-continue>"))
        #expect(review.lowerBound < next.lowerBound)
        // Beside that offer, the due line says only what comes back later (a review: "Nothing is due right now" over
        // "Review the people I missed (3)").
        #expect(answered.contains("Due again later today: ") && !answered.contains("Nothing is due"))
        let session = try #require(Player.attribute("name=\"session\" value", in: answered))
        #expect(try player.post("/namegame/review", "session=\(session)").status == 303)
        var asked: [String] = []
        for _ in 0..<6 {
            let review = try player.play("review").text
            if review.contains("data-ended=\"true\"") { break }
            asked.append(try player.askedID(review))
            // Asked the harder way round: their face, six names (a review: the name it had just been shown, among
            // six faces, was easier than the round it missed).
            #expect(review.contains("class=\"single-face\"") && review.ranges(of: "class=\"name-choice").count == 6)
            let (id, right) = try player.round(review)
            if asked.last == missed[0] {
                // Missed again: back at the end of the list, three times in all at most.
                try player.post("/namegame/answer", "mode=review&round=\(id)&choice=\((right + 1) % 6)")
                try player.post("/namegame/answer", "mode=review&round=\(id)&choice=\(right)")
            } else {
                try player.post("/namegame/answer", "mode=review&round=\(id)&choice=\(right)")
                try player.post("/namegame/next", "mode=review")
            }
        }
        #expect(asked == [missed[0], missed[1], missed[0], missed[0]])
        let over = try player.play("review").text
        #expect(over.contains("data-ended=\"true\"") && over.contains(">People you reviewed</h2>"))
        // Someone else's session cannot be reviewed.
        let other = Player(server)
        try other.get("/")
        #expect(try other.post("/namegame/review", "session=\(session)").status == 422)
    }
}

/// Issue 41's second review of Learn ("meet A, meet B, quiz A, quiz B": each person asked once, the last one met never)
/// and of the quizzes (strangers in eight modes), over HTTP.
@Suite("Learning in depth, over HTTP")
struct LearnDepthSiteTests {
    /// The directory's first `count` people, made met and in review for the (one) player, as learn mode would have.
    /// (Or those in `people`.)
    func met(
        _ server: SiteServer, count: Int, stability: Double, due: Int64, excluding: Set<String> = [],
        people chosen: [String]? = nil
    ) throws -> [String] {
        let db = try Database(location: server.database)
        let people: [String] =
            try chosen
            ?? db.query("SELECT id FROM people WHERE retired = 0 ORDER BY id LIMIT ?", [SQLValue(count + 5)]).map {
                try $0.decode("id") as String
            }.filter { !excluding.contains($0) }.prefix(count).map { $0 }
        for person in people {
            _ = try db.execute(
                """
                INSERT INTO namegame_cards (player, person, state, step, stability, difficulty, due_ms, last_ms,
                    reviews, lapses, met_ms)
                SELECT id, ?, 'review', NULL, ?, 5, ?, 0, 1, 0, 0 FROM players WHERE true
                ON CONFLICT (player, person) DO NOTHING
                """, [.text(person), .real(stability), .integer(due)])
        }
        return people
    }

    /// The people a session asked about, in order, with whether the name was typed.
    func asked(_ server: SiteServer, mode: String) throws -> [(person: String, typed: Bool)] {
        let db = try Database(location: server.database)
        return try db.query(
            """
            SELECT f.person, r.recall FROM namegame_rounds r
            JOIN namegame_round_faces f ON f.round = r.id AND f.position = r.answer
            WHERE r.mode = ? AND r.status != 'open' ORDER BY r.id
            """, [.text(mode)]
        ).map { (try $0.decode("person"), try $0.decode("recall", as: Int64.self) == 1) }
    }

    /// A first typed name is from memory, the first letter one tap away (a review scored a lesson given it unasked
    /// 100 % "with zero effort"); a name missed typed comes back typed with its first letter given, said and in the
    /// box, not counted as help: the fix is typed, with a start. Someone past their steps types from nothing too.
    @Test(arguments: Engine.allCases) func aNameMissedTypedComesBackWithItsFirstLetter(_ engine: Engine) throws {
        let server = try SiteServer(engine: engine)
        defer { server.stop() }
        let player = Player(server)
        var page = try player.play("learn").text
        // (Past the first names, typed with their letter for want of faces to pick among.)
        for _ in 0..<10 where !page.contains("data-recall-input") || page.contains("placeholder=") {
            try player.answerRight("learn", page)
            try player.post("/namegame/next", "mode=learn")
            page = try player.play("learn").text
        }
        let missed = try player.askedID(page)
        #expect(page.contains("data-recall-hint") && !page.contains("Once more, with a head start"), "from memory")
        #expect(!page.contains("placeholder="))
        try player.miss("learn", page)
        try player.post("/namegame/next", "mode=learn")
        page = try player.play("learn").text
        for _ in 0..<6 where try player.askedID(page) != missed {
            try player.answerRight("learn", page)
            try player.post("/namegame/next", "mode=learn")
            page = try player.play("learn").text
        }
        #expect(try player.askedID(page) == missed, "asked again within the lesson")
        let (round, _) = try player.round(page)
        let first = try player.firstName(round)
        let letter = String(first.prefix(1))
        let name = try player.namesake(round) ? try player.fullName(round) : first
        let cue = "Once more, with a head start: the \(name == first ? "first" : "full") name begins with “\(letter)”."
        #expect(page.contains(cue), "typed again, cued")
        #expect(page.contains("placeholder=\"\(letter)…\"") && !page.contains("data-recall-hint"))
        try player.post("/namegame/recall", "mode=learn&round=\(round)&name=\(name.addingFormEncoding)")
        let db = try Database(location: server.database)
        let row = try #require(
            try db.first("SELECT cheat FROM namegame_rounds WHERE id = ?", [.integer(Int64(round)!)]))
        #expect(try row.decode("cheat", as: Int64.self) == 0, "the lesson's cue is not help")
        // A lesson's right answer in time is not timed aloud (a review: "This round took 6.9 s" after every answer).
        let answered = try player.get("/namegame/learn").text
        #expect(answered.contains("data-identified") && !answered.contains("data-round-seconds"))
        // Someone past their learning steps: the name from nothing, the letter one tap away.
        let other = Player(server)
        try other.startPlaying()
        _ = try met(server, count: 6, stability: 10, due: 0)
        let recall = try other.play("recall").text
        #expect(recall.contains("data-recall-input") && recall.contains("data-recall-hint"), "typed, uncued")
        #expect(!recall.contains("Once more, with a head start") && !recall.contains("placeholder="))
        // Nor does Recall give it to someone still in their steps: chosen to type names from memory, it keeps the
        // letter behind its hint (a review saw every Recall round give it).
        let third = Player(server)
        try third.startPlaying()
        _ = try met(server, count: 6, stability: 10, due: 0)
        _ = try db.execute("UPDATE namegame_cards SET state = 'learning', step = 1, due_ms = 0")
        let stepping = try third.play("recall").text
        #expect(stepping.contains("data-recall-input") && stepping.contains("data-recall-hint"), "typed, uncued")
        #expect(!stepping.contains("Once more, with a head start"))
        // Nor a pick for someone met and not yet named right (step 0): Recall types the name of anyone met, as it
        // promises (a review: a six-name pick there was jarring mid-mode).
        let fourth = Player(server)
        try fourth.startPlaying()
        _ = try met(server, count: 6, stability: 10, due: 0)
        _ = try db.execute("UPDATE namegame_cards SET state = 'learning', step = 0, due_ms = 0")
        #expect(try fourth.play("recall").text.contains("data-recall-input"), "typed, just met")
    }

    /// A name forgiven a typo is right, but not a clean recall: its person comes back sooner than after the name
    /// spelled right (a review: "Amira" for Amara is the mistake the game is there to prevent).
    @Test func aTypoForgivenComesBackSoonerThanTheNameSpelledRight() throws {
        let server = try SiteServer(engine: .sqlite)
        defer { server.stop() }
        let db = try Database(location: server.database)
        func stability(typo: Bool) throws -> Double {
            let player = Player(server)
            try player.startPlaying()
            _ = try met(server, count: 6, stability: 10, due: 0)
            let round = try #require(Player.attribute("data-round", in: try player.play("recall").text))
            let name = try player.fullName(round)
            // The first name's last letter changed, the surname kept: one typo in the name that is asked.
            let first = try player.firstName(round)
            let changed = String(first.dropLast()) + (first.last == "x" ? "y" : "x")
            let typed = typo ? changed + name.dropFirst(first.count) : name
            let answer = "mode=recall&round=\(round)&name=\(URI.encode(typed))"
            #expect(try player.post("/namegame/recall", answer).status == 303)
            let status = try db.first("SELECT status FROM namegame_rounds WHERE id = ?", [.text(round)])
            #expect(try status?.string("status") == "identified", "\(typed)")
            return try #require(
                try db.first(
                    """
                    SELECT c.stability FROM namegame_rounds r
                    JOIN namegame_round_faces f ON f.round = r.id AND f.position = r.answer
                    JOIN namegame_cards c ON c.player = r.player AND c.person = f.person WHERE r.id = ?
                    """, [.text(round)])?.double("stability"))
        }
        let (typo, spelled) = (try stability(typo: true), try stability(typo: false))
        #expect(typo < spelled && spelled > 10, "\(typo) against \(spelled)")
    }

    /// A player who knows a Hiro, with another on the team, types the full name: "Hiro" names neither (a review's
    /// recall asked one of two Hiros by first name; a later one: "Sami" could not show which Sami, met or not). The
    /// field says so, and why; "Hiro" alone is asked again, not scored, nor said to be the other Hiro.
    @Test(arguments: Engine.allCases) func aFirstNameSharedOnTheTeamIsTypedInFull(_ engine: Engine) throws {
        let server = try SiteServer(engine: engine)
        defer { server.stop() }
        let player = Player(server)
        try player.startPlaying()
        let db = try Database(location: server.database)
        let hiros: [String] = try db.query("SELECT id FROM people WHERE first_name = 'Hiro' AND retired = 0").map {
            try $0.decode("id")
        }
        #expect(hiros.count == 2)
        _ = try met(server, count: 0, stability: 10, due: 0, people: [hiros[0]])
        _ = try met(server, count: 2, stability: 10, due: 0, excluding: Set(hiros))
        for _ in 0..<24 {
            let page = try player.play("recall").text
            let (round, _) = try player.round(page)
            guard try player.askedID(page) == hiros[0] && page.contains("data-recall-input") else {
                try player.answerRight("recall", page)
                try player.post("/namegame/next", "mode=recall")
                continue
            }
            #expect(page.contains(">Full name</label>"), "the field asks for the full name")
            // Not saying which first name: it gave the name away (a review).
            #expect(page.contains("Someone else here has the same first name: type the full name."))
            #expect(!page.contains("Hiro"), "the name is not on the page")
            for part in ["Hiro", try player.fullName(round).split(separator: " ").last.map(String.init) ?? ""] {
                let refused = try player.post("/namegame/recall", "mode=recall&round=\(round)&name=\(part)")
                #expect(refused.status == 422, "\(part)")
                #expect(
                    refused.text.contains("Someone else here has that name too: type the first name and the surname."))
                #expect(
                    refused.text.contains("data-recall-input") && refused.text.contains("data-session-incorrect=\"0\""))
            }
            let name = try player.fullName(round)
            try player.post("/namegame/recall", "mode=recall&round=\(round)&name=\(name.addingFormEncoding)")
            let status = try #require(try db.first("SELECT status FROM namegame_rounds WHERE id = ?", [.text(round)]))
            #expect(try status.decode("status", as: String.self) == "identified", "the full name")
            return
        }
        Issue.record("recall never asked about the Hiro met")
    }

    @Test(arguments: Engine.allCases) func aLessonAsksEachPersonItMetAndTheFirstTwiceTheSecondTimeTyped(
        _ engine: Engine
    ) throws {
        let server = try SiteServer(engine: engine)
        defer { server.stop() }
        let player = Player(server)
        try player.answerRounds("learn", count: 10)
        // Past its ten rounds, whom it met and only picked type their names, and are told why (not "someone you
        // missed": nobody was).
        var answered = 10
        while answered < 20, case let page = try player.play("learn").text, !page.contains("data-ended=\"true\"") {
            #expect(page.contains("data-second-try>One more: type the name of someone you met in this lesson."))
            #expect(page.contains("data-recall-input"), "typed")
            try player.answerRight("learn", page)
            try player.post("/namegame/next", "mode=learn")
            answered += 1
        }
        let over = try player.get("/namegame/learn").text
        #expect(over.contains("data-ended=\"true\""), "the lesson is over")
        // Nobody due now: the button says what another lesson does, not "Next lesson" under "done for now" (a review).
        #expect(over.contains("data-due-now=\"0\"") && over.contains("data-continue>Meet new people</button>"))
        let questions = try asked(server, mode: "learn")
        #expect((10...15).contains(answered) && questions.count == answered, "\(questions)")
        let db = try Database(location: server.database)
        let met: [String] = try db.query("SELECT person FROM namegame_cards ORDER BY met_ms, person").map {
            try $0.decode("person")
        }
        #expect(met.count >= 3, "\(met)")
        // Each of them named, typed, before it ends (a review: one person typed five times, another picked once among
        // four faces and called "Right today").
        for person in met {
            #expect(questions.contains { $0.person == person && $0.typed }, "met and typed in the lesson: \(person)")
        }
        // A face to pick is one of six, people met and strangers: neither the one familiar face (a review: among
        // strangers only) nor the one not yet named (a later one: "the same six faces each time", everyone met) is
        // the answer.
        let faces: [(round: Int64, metBefore: Bool)] = try db.query(
            """
            SELECT f.round, EXISTS (SELECT 1 FROM namegame_cards c WHERE c.person = f.person AND c.met_ms <= r.started_ms)
                AS met_before
            FROM namegame_round_faces f JOIN namegame_rounds r ON r.id = f.round
            WHERE r.mode = 'learn' AND r.recall = 0
            """
        ).map { (try $0.decode("round"), try $0.decode("met_before", as: Int64.self) == 1) }
        let picks = Dictionary(grouping: faces, by: \.round).values.map { $0.map(\.metBefore) }
        #expect(!picks.isEmpty && picks.allSatisfy { $0.count == 6 }, "\(picks)")
        for pick in picks {
            let strangers = pick.count { !$0 }
            #expect(strangers >= 2 && pick.count - strangers >= 3, "people met and strangers: \(pick)")
        }
        let first = questions.filter { $0.person == questions[0].person }
        #expect(first.count >= 2 && first.contains { $0.typed }, "picked, then typed: \(first)")
        // The statistics' wall shows them by face and name, marked as being learned (a review: a first day's work
        // left every face a silhouette).
        let stats = try player.get("/namegame/stats").text
        #expect(stats.ranges(of: "class=\"wall-learning\" data-learning><img").count == met.count)
        // Of the team as it is now: the learning modes teach nobody who has left (a review's first lesson taught four).
        let team = try #require(
            try db.first("SELECT count(*) AS n FROM people WHERE retired = 0")?.decode("n", as: Int.self))
        let teamMet = try db.query(
            "SELECT 1 FROM namegame_cards c JOIN people p ON p.id = c.person WHERE p.retired = 0")
        #expect(team < 130 && teamMet.count == met.count)
        #expect(stats.contains("<span>Learned: 0 of \(team)</span> <span>Learning: \(met.count)</span>"))
        // The menu says where they stand, not "New to the Name Game?" (a review).
        let menu = try player.get("/namegame").text
        #expect(menu.contains(">Continue learning</p>") && !menu.contains("New to the Name Game?"))
        let sticking = try db.query("SELECT stability FROM namegame_cards").filter {
            (try $0.decodeIfPresent("stability", as: Double.self) ?? 0) >= 1
        }.count
        #expect(sticking > 0, "a first lesson's right answers get somewhere")
        #expect(
            menu.contains(
                "data-menu-progress class=\"dot-list\"><span>Met: \(met.count) of \(team)</span> <span>Getting there: \(sticking)</span> <span>Learned: 0 of \(team)</span>"
            ))
        #expect(try Player(server).get("/namegame").text.contains("New to the Name Game?"), "a newcomer's")
    }

    /// With nobody due and today's new people met, the menu's Learn says its lesson is an extra one (a review pressed
    /// it under "Nothing is due right now" and was given a whole lesson, with nothing to say why).
    @Test func learnSaysItsLessonIsAnExtraOneWhenNothingIsDue() throws {
        let server = try SiteServer(engine: .sqlite)
        defer { server.stop() }
        let player = Player(server)
        try player.answerRight("learn", try player.play("learn").text)  // the player's row
        let db = try Database(location: server.database)
        _ = try db.execute("DELETE FROM namegame_cards")
        _ = try met(server, count: 5, stability: 30, due: Int64.max / 2)
        // Met today, as far as the server's clock goes (the round just played began at its now).
        _ = try db.execute("UPDATE namegame_cards SET met_ms = (SELECT max(started_ms) FROM namegame_rounds)")
        let steady = try player.get("/namegame").text
        #expect(steady.contains(">Continue learning</p>"), "ten new people a day: five more to meet")
        #expect(try player.post("/namegame/pace", "pace=relaxed").status == 303)
        let relaxed = try player.get("/namegame").text
        #expect(relaxed.contains(">Nothing due now: an extra lesson</p>"), "five a day, five met today")
        _ = try db.execute(
            "UPDATE namegame_cards SET due_ms = 0 WHERE rowid IN (SELECT rowid FROM namegame_cards LIMIT 1)")
        #expect(try player.get("/namegame").text.contains(">Continue learning</p>"), "someone due")
    }

    /// Today's new people met, a lesson's end says so where its buttons are, and offers a lesson that meets a few more
    /// now, as the menu does, the pace unchanged (a review: "Meet new people" was gone without a word, and "Keep
    /// practising" asked the same ten names again; a later one: past today's ten every lesson was the same ten, and
    /// only a faster pace for good moved on). That lesson meets someone at once, and no more than it said.
    @Test func aLessonsEndAtTheDaysNewPeopleSaysSoAndOffersAFewMoreNow() throws {
        let server = try SiteServer(engine: .sqlite)
        defer { server.stop() }
        let player = Player(server)
        try player.finishLesson("learn")
        let ended = try player.play("learn").text
        #expect(ended.contains("data-summary-heading") && !ended.contains("data-capped"), "more new people today")
        #expect(!ended.contains("data-meet-more"))
        // Ten met today (steady's ten a day), nobody due.
        _ = try met(server, count: 10, stability: 30, due: Int64.max / 2)
        let db = try Database(location: server.database)
        _ = try db.execute(
            "UPDATE namegame_cards SET due_ms = ?, met_ms = (SELECT max(started_ms) FROM namegame_rounds)",
            [.integer(Int64.max / 2)])
        let capped = try player.play("learn").text
        #expect(capped.contains("data-capped>You’ve met today’s new people: more come tomorrow.</p>"))
        #expect(capped.contains(" data-meet-more>Meet 5 more people now</button>"), "the main button")
        #expect(capped.contains("class=\"button-quiet\" data-next data-continue>Keep practising</button>"))
        #expect(try player.get("/namegame").text.contains("data-meet-more>Meet 5 more people now</button>"))
        func cards() throws -> Int { try db.value(Int.self, "SELECT COUNT(*) FROM namegame_cards") ?? 0 }
        let before = try cards()
        let more = try player.post("/namegame/next", "mode=learn&more=1")
        #expect(more.status == 303 && more.header("Location") == "/namegame/learn")
        #expect(try player.get("/namegame/learn").text.contains("data-intro"), "someone new, at once")
        try player.finishLesson("learn")
        let after = try cards()
        #expect((before + 2...before + 5).contains(after), "\(before) → \(after)")
        #expect(try player.play("learn").text.contains("data-meet-more"), "and again at its end")
        // The pace is as it was: a lesson not asked for meets nobody new.
        _ = try player.post("/namegame/next", "mode=learn&resume=1")
        try player.finishLesson("learn")
        #expect(try cards() == after)
        #expect(try player.get("/namegame").text.contains("aria-pressed=\"true\" data-pace-choice=\"steady\""))
    }

    /// Whom to meet first, chosen by job title under Learn's button: a lesson meets those first (a review: no way to
    /// start with one's own part of the team); a title the team does not have is refused, and "" is everyone again.
    @Test func learnMeetsTheChosenJobTitleFirst() throws {
        let server = try SiteServer(engine: .sqlite)
        defer { server.stop() }
        let player = Player(server)
        let menu = try player.get("/namegame").text
        #expect(menu.contains("<option value=\"\" selected>Everyone, mixed</option>"))
        #expect(menu.contains("<option value=\"Product Manager\">Product Manager (8)</option>"))
        #expect(try player.post("/namegame/focus", "role=Sales+Wizard").status == 422)
        let saved = try player.post("/namegame/focus", "role=Product+Manager")
        #expect(saved.status == 303 && saved.header("Location") == "/namegame?focus=saved")
        let back = try player.get("/namegame?focus=saved").text
        #expect(back.contains("data-focus-saved>Saved. Meet first: Product Manager.</p>"))
        #expect(back.contains("<option value=\"Product Manager\" selected>"))
        try player.finishLesson("learn")
        let titles = try Database(location: server.database).query(
            "SELECT p.job_title FROM namegame_cards c JOIN people p ON p.id = c.person"
        ).map { try $0.decode("job_title") as String }
        #expect(titles.count >= 3 && titles.allSatisfy { $0 == "Product Manager" }, "\(titles)")
        #expect(try player.post("/namegame/focus", "role=").status == 303)
        #expect(try player.get("/namegame").text.contains("<option value=\"\" selected>Everyone, mixed</option>"))
    }

    /// People you've met: everyone met, by face, name and role, with how each stands and when they come back, found by
    /// name; nobody unmet is listed or found (reviews: nowhere to look someone up, and no progress seen on a first day).
    @Test(arguments: Engine.allCases) func peopleMetAreListedWithHowEachStands(_ engine: Engine) throws {
        let server = try SiteServer(engine: engine)
        defer { server.stop() }
        let player = Player(server)
        #expect(try player.get("/namegame/people").text.contains("data-empty=\"people\""), "a newcomer met nobody")
        try player.answerRounds("learn", count: 10)
        let db = try Database(location: server.database)
        let rows = try db.query(
            """
            SELECT p.first_name || ' ' || p.last_name AS name, c.stability FROM people p
            LEFT JOIN namegame_cards c ON c.person = p.id ORDER BY c.person IS NULL, p.id
            """)
        let met = try rows.filter { try $0.decodeIfPresent("stability", as: Double.self) != nil }.map {
            try $0.decode("name") as String
        }
        let sticking = try rows.filter { (try $0.decodeIfPresent("stability", as: Double.self) ?? 0) >= 1 }.count
        let page = try player.get("/namegame/people").text
        #expect(met.count >= 3 && page.ranges(of: "class=\"person-row\" data-level=").count == met.count)
        #expect(met.allSatisfy { page.contains("<strong>\($0)</strong>") })
        #expect(sticking > 0 && page.ranges(of: "data-level=\"sticking\"").count == sticking, "\(sticking)")
        #expect(page.contains("Comes back"), "when each comes back")
        // Each face said in words, to revise by ear too (a blind review: the list's faces said nothing).
        #expect(page.ranges(of: "alt=\"\" width=\"64\"").count == 0, "a face without words")
        #expect(!page.contains("Just met"), "a person missed since they were met is still being learned, not just met")
        // Someone met who has left says so where a role would be (a review read the blank as missing).
        let former = try #require(
            try db.first(
                """
                SELECT id, first_name || ' ' || last_name AS name FROM people
                WHERE retired = 1 AND id NOT IN (SELECT person FROM namegame_cards) ORDER BY id LIMIT 1
                """))
        _ = try self.met(server, count: 0, stability: 0.5, due: 0, people: [try former.decode("id")])
        let withFormer = try player.get("/namegame/people").text
        let row = try #require(
            withFormer.firstRange(of: "<strong>\(try former.decode("name") as String)</strong>").map {
                withFormer[$0.upperBound...].prefix(300)
            })
        #expect(row.contains("No longer on the team") && row.contains("Still learning"), "\(row)")
        #expect(!row.prefix { $0 != "\n" }.contains("Comes back"), "not asked again: \(row)")
        // Found by name (without a script the form asks the server); a stranger is not found.
        let found = try player.get("/namegame/people?q=" + met[0].lowercased().replacing(" ", with: "+")).text
        #expect(found.ranges(of: "class=\"person-row\"").count == 1 && found.contains("<p data-no-match hidden>"))
        let stranger = try rows.last!.decode("name") as String
        let none = try player.get("/namegame/people?q=" + stranger.replacing(" ", with: "+")).text
        #expect(!none.contains("class=\"person-row\"") && none.contains("<p data-no-match>"), "\(stranger)")
        // Test yourself: each face met, its name behind a tap (a review: no study aid before a lesson), the search
        // kept to that view.
        let study = try player.get("/namegame/people?view=study").text
        #expect(study.contains("data-study") && !study.contains("class=\"person-row\""))
        #expect(study.ranges(of: "<details class=\"study-card\"><summary><img").count == met.count + 1)
        #expect(study.ranges(of: "<span class=\"study-ask\">Who is this?</span></summary>").count == met.count + 1)
        #expect(met.allSatisfy { study.contains("<strong data-study-name>\($0)</strong>") })
        #expect(study.contains("<input type=\"hidden\" name=\"view\" value=\"study\">"))
        #expect(study.contains("href=\"/namegame/people?view=study\" aria-current=\"page\""))
    }

    @Test(arguments: Engine.allCases) func quizzesAskAboutPeopleMetOnceThereAreFour(_ engine: Engine) throws {
        let server = try SiteServer(engine: engine)
        defer { server.stop() }
        let player = Player(server)
        // A newcomer's quiz meets people one introduction at a time, each asked later, never next (until four are met
        // it may also ask someone met already); every question asks about someone met.
        let first = try player.play("normal").text
        try player.answerRight("normal", first)
        try player.post("/namegame/next", "mode=normal")
        _ = try player.play("normal")
        try player.answerRounds("normal", count: 8)
        let metNow = Set(
            try Database(location: server.database).query("SELECT person FROM namegame_cards").map {
                try $0.decode("person") as String
            })
        let quizzed = try asked(server, mode: "normal").map(\.person)
        #expect(metNow.count >= 4, "\(metNow.count) met")
        #expect(quizzed.count == 9 && quizzed.allSatisfy(metNow.contains), "\(quizzed)")
        #expect(Set(quizzed).count >= 3, "at random but not the last few, so all of them come round: \(quizzed)")
        // The statistics' wall shows the people being learned by face and name, marked so, not as silhouettes.
        // The statistics' wall shows the team's people being learned by face and name, marked so, not as silhouettes
        // (a first normal question may have met someone who has left: the wall is the team as it is now).
        let stats = try player.get("/namegame/stats").text
        let teamMet = try Database(location: server.database).query(
            "SELECT 1 FROM namegame_cards c JOIN people p ON p.id = c.person WHERE p.retired = 0")
        #expect(teamMet.count >= 2)
        #expect(
            stats.ranges(of: "data-learning><img").count + stats.ranges(of: "data-known><img").count == teamMet.count)
    }

    /// Teach before testing: a quiz's round about someone the player has not met opens on their introduction (face,
    /// name, role) (two reviews in a row: the quizzes opened on strangers, a guess among them teaches nothing); and, as
    /// in Learn, the question about them comes later, never next (a later review: "Who is Quinn?" right after meeting
    /// Quinn was matching a picture). In Timed, whose clock cannot wait, a newcomer is sent to meet people first.
    @Test(arguments: Engine.allCases) func aQuizIntroducesSomeoneNewBeforeAskingAboutThem(_ engine: Engine) throws {
        let server = try SiteServer(engine: engine)
        defer { server.stop() }
        let player = Player(server)
        try player.get("/")
        #expect(try player.post("/namegame/next", "mode=reverse&resume=1").status == 303)
        let intro = try player.get("/namegame/reverse").text
        #expect(intro.contains("data-intro") && !intro.contains("data-choice"), "an introduction, not a question")
        let round = try #require(Player.attribute("data-round", in: intro))
        let person = try player.askedID(intro)
        let db = try Database(location: server.database)
        #expect(try db.scalar(Int.self, "SELECT COUNT(*) AS n FROM namegame_cards") == 0, "not met by looking")
        let meet = try player.post("/namegame/meet", "mode=reverse&round=\(round)")
        #expect(meet.status == 303 && meet.header("location") == "/namegame/reverse")
        let card = try #require(
            try db.first("SELECT introduced, due_ms, met_ms FROM namegame_cards WHERE person = ?", [.text(person)]))
        #expect(card.int("introduced") == 1 && card.int("due_ms")! > card.int("met_ms")!)
        // The next round is another: someone else introduced, or asked; the introduction asked nothing and is gone.
        let next = try player.get("/namegame/reverse").text
        let nextAsked = try player.askedID(next)
        #expect(Player.attribute("data-round", in: next) != round && nextAsked != person)
        #expect(try db.scalar(Int.self, "SELECT COUNT(*) AS n FROM namegame_rounds WHERE id = \(round)") == 0)
        // Seen again, a gone introduction meets no one (a second "Got it").
        #expect(try player.post("/namegame/meet", "mode=reverse&round=\(round)").status == 422)
        // Timed waits for eight people met (a review: with four, a minute asked the same four over and over), and says
        // so on the menu and on its start card; its start writes nothing.
        let menu = try player.get("/namegame").text
        #expect(menu.ranges(of: "data-locked>").count == 1 && menu.contains("data-locked>Meet a few people first"))
        // …how many, and how far along (a review met six and read "a few" with no target).
        let known = try #require(try db.scalar(Int.self, "SELECT COUNT(*) AS n FROM namegame_cards"))
        #expect(menu.contains("data-locked>Meet a few people first (met: \(known) of 8)"))
        // …said with the mode's button, as a screen reader reaches it (a keyboard review: an enabled button, its lock a
        // paragraph after it).
        #expect(
            menu.contains("data-play=\"timed\" aria-describedby=\"locked-timed\"")
                && menu.contains("id=\"locked-timed\" data-locked>"))
        #expect(try player.post("/namegame/next", "mode=timed&resume=1").status == 303)
        let timed = try player.get("/namegame/timed").text
        #expect(timed.contains("data-meet-first>Timed mode only asks about people you’ve met (at least 8)"))
        #expect(!timed.contains("data-choice"))
        #expect(try db.scalar(Int.self, "SELECT COUNT(*) AS n FROM namegame_sessions WHERE mode = 'timed'") == 0)
        _ = try met(server, count: 6, stability: 10, due: 0, excluding: [person])
        #expect(try player.play("timed").text.contains("data-meet-first"), "seven met: not yet")
        _ = try met(server, count: 7, stability: 10, due: 0, excluding: [person])
        #expect(try player.play("timed").text.contains("data-choice"), "eight met: the clock runs")
        #expect(!(try player.get("/namegame").text.contains("data-locked")))
    }

    /// A newcomer's quiz brings new people two at a time, asking about the first met after meeting the second (a
    /// review: Normal introduced five in a row before its first question).
    @Test(arguments: Engine.allCases) func aNewcomersQuizMeetsTwoAtMostInARow(_ engine: Engine) throws {
        let server = try SiteServer(engine: engine)
        defer { server.stop() }
        let player = Player(server)
        try player.get("/")
        try player.post("/namegame/next", "mode=normal&resume=1")
        var met: [String] = []
        var inARow = 0
        var asked: [String] = []
        for _ in 0..<12 {
            let page = try player.get("/namegame/normal").text
            let person = try player.askedID(page)
            if page.contains("data-intro") {
                met.append(person)
                inARow += 1
                #expect(inARow <= 2, "introduced in a row: \(met)")
                try player.post(
                    "/namegame/meet", "mode=normal&round=\(try #require(Player.attribute("data-round", in: page)))")
                continue
            }
            inARow = 0
            asked.append(person)
            try player.answerRight("normal", page)
            try player.post("/namegame/next", "mode=normal")
        }
        #expect(met.count >= 3 && asked.count >= 4, "met \(met), asked \(asked)")
        #expect(asked.first == met.first, "the first met is asked after the second is met: met \(met), asked \(asked)")
    }

    /// A review met people by guessing in Normal, and Learn then quizzed them as if it had introduced them: Learn
    /// introduces someone met only by a guess before it asks about them, once.
    @Test(arguments: Engine.allCases) func learnIntroducesPeopleMetOnlyByAGuess(_ engine: Engine) throws {
        let server = try SiteServer(engine: engine)
        defer { server.stop() }
        // Met by a guess: the round's face picked without its introduction seen (a page sent before quizzes introduced
        // people, or a form posted by hand). Normal plays the whole directory, Learn the team: a player whose first
        // question is about someone on the team.
        let db = try Database(location: server.database)
        var player = Player(server)
        var page = ""
        for _ in 0..<30 {
            player = Player(server)
            try player.get("/")
            try player.post("/namegame/next", "mode=normal")
            page = try player.get("/namegame/normal").text
            let asked = try db.first("SELECT retired FROM people WHERE id = ?", [.text(try player.askedID(page))])
            if try asked?.int("retired") == 0 { break }
        }
        let guessed = try player.askedID(page)
        try player.miss("normal", page)
        let introduced = "SELECT introduced FROM namegame_cards WHERE person = ?"
        #expect(try db.first(introduced, [.text(guessed)])?.int("introduced") == 0, "met by a guess")
        try player.post("/namegame/next", "mode=learn")
        let intro = try player.get("/namegame/learn").text
        #expect(intro.contains("data-intro") && !intro.contains("data-choice"), "an introduction, not a question")
        #expect(try player.askedID(intro) == guessed)
        let meet = try #require(Player.attribute("data-round", in: intro))
        #expect(try player.post("/namegame/meet", "round=\(meet)").status == 303)
        #expect(try db.first(introduced, [.text(guessed)])?.int("introduced") == 1)
        // Introduced once: a later question about them is a question.
        for _ in 0..<6 {
            let next = try player.get("/namegame/learn").text
            if next.contains("data-intro") {
                #expect(try player.askedID(next) != guessed, "introduced once")
                try player.post("/namegame/meet", "round=\(try #require(Player.attribute("data-round", in: next)))")
                continue
            }
            if try player.askedID(next) == guessed { return }
            try player.answerRight("learn", next)
            try player.post("/namegame/next", "mode=learn")
        }
        Issue.record("Learn did not ask about the person it introduced")
    }

    /// Practice ends at the first miss, and a newcomer's first question, about a stranger, was a guess that ended it (a
    /// review's run lasted one tap): with nobody met it does not start and says where to meet people; once someone is
    /// met it asks about them.
    @Test(arguments: Engine.allCases) func practiceWaitsForSomeoneMetAndAsksAboutThem(_ engine: Engine) throws {
        let server = try SiteServer(engine: engine)
        defer { server.stop() }
        let player = Player(server)
        try player.get("/")
        #expect(try player.get("/namegame").text.contains("data-locked>Meet someone first: Learn introduces people."))
        #expect(try player.post("/namegame/next", "mode=practice&resume=1").status == 303)
        let page = try player.get("/namegame/practice").text
        #expect(
            page.contains(
                "data-meet-first>Sudden death only asks about people you’ve met, and you haven’t met anyone yet"))
        #expect(
            page.contains(
                "<button type=\"submit\" class=\"button-primary\" aria-describedby=\"meet-first\" data-start-learn>Start with Learn</button>"
            ))
        #expect(!page.contains("data-choice") && !page.contains("<button type=\"submit\" data-next>Start</button>"))
        let db = try Database(location: server.database)
        #expect(try db.scalar(Int.self, "SELECT COUNT(*) AS n FROM namegame_sessions WHERE mode = 'practice'") == 0)
        try player.answerRounds("learn", count: 1)
        let met = try Set(db.query("SELECT person FROM namegame_cards").map { try $0.decode("person") as String })
        #expect(!met.isEmpty)
        let first = try player.play("practice").text
        #expect(met.contains(try player.askedID(first)), "asked about someone met")
    }

    /// A review followed the home page's "8 people to review today" into Learn and met someone new first: they were
    /// due later that day, not yet. A lesson with people due today, now or later, starts with them.
    @Test(arguments: [0, 3600]) func aLessonWithPeopleDueTodayStartsWithThem(_ later: Int64) throws {
        let clock = AdminConsoleTests.Clock()
        clock.advance(46_560)  // noon (UTC), the site's day
        let server = try AdminConsoleTests.server(clock)
        defer { server.stop() }
        let player = Player(server)
        try player.get("/namegame")
        #expect(try player.post("/namegame/pace", "pace=steady").status == 303, "the player's row")
        let due = try met(server, count: 6, stability: 10, due: (Int64(clock.now) + later) * 1000)
        #expect(try player.get("/").text.contains("6 people to review today"))
        for round in 0..<3 {
            let page = try player.play("learn").text
            #expect(!page.contains("action=\"/namegame/meet\""), "round \(round): no introduction")
            #expect(due.contains(try player.askedID(page)), "round \(round): someone due today")
            try player.answerRight("learn", page)
            try player.post("/namegame/next", "mode=learn")
        }
    }

    /// A locked mode's "Start with Learn" starts a lesson: a link to Learn showed the summary of the lesson just
    /// finished (a keyboard review).
    @Test func startWithLearnStartsALessonAfterOneJustEnded() throws {
        let server = try SiteServer()
        defer { server.stop() }
        let player = Player(server)
        try player.get("/")
        try player.finishLesson("learn")
        #expect(try player.get("/namegame/learn").text.contains("data-ended=\"true\""), "the summary")
        #expect(try player.post("/namegame/next", "mode=timed&resume=1").status == 303)
        let locked = try player.get("/namegame/timed").text
        #expect(locked.contains("<input type=\"hidden\" name=\"mode\" value=\"learn\">"))
        #expect(locked.contains("data-start-learn>Start with Learn</button>"))
        #expect(try player.post("/namegame/next", "mode=learn&resume=1").status == 303)
        #expect(!(try player.get("/namegame/learn").text.contains("data-ended=\"true\"")), "a new lesson's round")
    }

    /// A review met five people by guessing in Normal, then a whole Learn lesson drilled them and met one new person:
    /// a lesson meets two at least while the day has room.
    @Test(arguments: Engine.allCases) func aLessonMeetsNewPeopleAfterFirstMeetingsElsewhere(_ engine: Engine) throws {
        let server = try SiteServer(engine: engine)
        defer { server.stop() }
        let player = Player(server)
        let db = try Database(location: server.database)
        // Four or five met (from four met, Normal asks about them): its rounds after an introduction ask about someone
        // met before, so five rounds met three about one run in ten.
        for _ in 0..<10 where try db.scalar(Int.self, "SELECT COUNT(*) AS n FROM namegame_cards") < 4 {
            try player.answerRounds("normal", count: 1)
        }
        #expect(try db.scalar(Int.self, "SELECT COUNT(*) AS n FROM namegame_cards") >= 4, "met in Normal")
        try player.answerRounds("learn", count: 10)
        let learn = try #require(
            try db.first("SELECT started_ms FROM namegame_sessions WHERE mode = 'learn'")?.int("started_ms"))
        let metInLesson = try db.scalar(
            Int.self, "SELECT COUNT(*) AS n FROM namegame_cards WHERE met_ms >= ?", [.integer(Int64(learn))])
        #expect(metInLesson >= 2, "met in the lesson: \(metInLesson)")
    }

    /// A review found no celebration when the day's goal was met: the summary of the lesson that meets it cheers it,
    /// a later lesson's does not.
    @Test(arguments: Engine.allCases) func theLessonThatMeetsTheDaysGoalCheersIt(_ engine: Engine) throws {
        let server = try SiteServer(engine: engine)
        defer { server.stop() }
        let player = Player(server)
        let fresh = try player.get("/namegame").text
        #expect(!fresh.contains("data-suggest"), "no next step before the goal")
        // The goal is heard once, as its bar (a blind review heard its line, then the bar named by that line).
        #expect(fresh.contains("<p class=\"today-goal\" aria-hidden=\"true\">"))
        #expect(
            fresh.contains(
                "role=\"progressbar\" aria-label=\"Today’s goal\" aria-valuemin=\"0\" aria-valuemax=\"20\" "
                    + "aria-valuenow=\"0\" aria-valuetext=\"Answered today: 0 of 20\""))
        // A newcomer's modes are not "the people you've met" (a review: Normal, so headed, opened on a stranger).
        #expect(fresh.contains(">Ways to play</h2>"))
        // Three ways on after Learn, the other six one tap away (reviews: ten look-alike modes and no path).
        let shown = fresh.components(separatedBy: "data-more-modes")
        #expect(shown.count == 2 && shown[0].ranges(of: "data-play=\"").count == 4, "Learn and three")
        #expect(shown[1].ranges(of: "data-play=\"").count == 6 && fresh.contains(">Other ways to play (6)<"))
        #expect(try player.post("/namegame/pace", "pace=relaxed").status == 303, "a goal of one lesson")
        var summaries: [String] = []
        for _ in 0..<2 {
            try player.answerRounds("normal", count: 9)
            #expect(!(try player.play("normal").text.contains("data-goal-cheer")), "not before the goal is met")
            try player.answerRounds("normal", count: 1)
            summaries.append(try player.play("normal").text)
            try player.post("/namegame/next", "mode=normal")  // the next lesson
        }
        #expect(summaries[0].contains("data-summary-heading") && summaries[1].contains("data-summary-heading"))
        let cheer = "Today’s goal: done! Your streak counts for today; anything more is a bonus."
        #expect(summaries[0].contains("data-goal-cheer>\(cheer)<"))
        #expect(!summaries[1].contains("data-goal-cheer"), "cheered once")
        // The goal met and people met, the menu names the next step: recall, once it has four of the team to ask
        // (Normal plays the whole directory, so some met may have left the team; recall teaches the team).
        let menu = try player.get("/namegame").text
        let teamMet = try Database(location: server.database).query(
            "SELECT 1 FROM namegame_cards c JOIN people p ON p.id = c.person WHERE p.retired = 0"
        ).count
        #expect(menu.contains("data-play-suggested=\"recall\">Recall</button>") == (teamMet >= 4), "\(teamMet)")
        #expect(menu.contains(">Practise the names of people you’ve met</h2>") == (teamMet >= 4))
    }

    /// A review: two lessons met five of 130, and nothing set the pace. The player chooses it on the menu; it is kept
    /// on their row, and learn mode meets new people a day at that pace.
    @Test(arguments: Engine.allCases) func thePlayersPaceSetsHowManyNewPeopleADay(_ engine: Engine) throws {
        let server = try SiteServer(engine: engine)
        defer { server.stop() }
        let player = Player(server)
        let menu = try player.get("/namegame").text
        #expect(menu.contains("data-pace-choice=\"steady\">Steady: 10</button>"))
        #expect(menu.contains("aria-pressed=\"true\" data-pace-choice=\"steady\""), "steady until chosen")
        #expect(try player.post("/namegame/pace", "pace=sprint").status == 422)
        let saved = try player.post("/namegame/pace", "pace=relaxed")
        #expect(saved.status == 303 && saved.header("Location") == "/namegame?pace=saved")
        // Back from the choice, it says so and the choice has the focus (a blind review: the page came back silent).
        let back = try player.get("/namegame?pace=saved").text
        #expect(back.contains("data-pace-choice=\"relaxed\" autofocus aria-describedby=\"pace-saved\">Relaxed: 5<"))
        #expect(back.contains("id=\"pace-saved\" data-pace-saved>Saved. New people per day: 5.</p>"))
        let chosen = try player.get("/namegame").text
        #expect(!chosen.contains("autofocus") && !chosen.contains("data-pace-saved"))
        #expect(chosen.contains("aria-pressed=\"true\" data-pace-choice=\"relaxed\">Relaxed: 5</button>"))
        #expect(chosen.contains("aria-pressed=\"false\" data-pace-choice=\"fast\">Fast: 20</button>"))
        // Five met today, none due: at a relaxed pace the day's new people are met, and a lesson meets nobody new.
        let db = try Database(location: server.database)
        _ = try met(server, count: 5, stability: 10, due: Int64.max / 2)
        _ = try db.execute("UPDATE namegame_cards SET met_ms = ?", [.integer(Int64(time(nil)) * 1000)])
        func cards() throws -> Int { try db.scalar(Int.self, "SELECT COUNT(*) AS n FROM namegame_cards") }
        func nextQuestion() throws {
            try player.answerRight("learn", try player.play("learn").text)
            try player.post("/namegame/next", "mode=learn")
            _ = try player.play("learn")
        }
        try nextQuestion()
        try nextQuestion()
        #expect(try cards() == 5, "relaxed: five a day, all met")
        // Fast: someone new within the next questions.
        #expect(try player.post("/namegame/pace", "pace=fast").status == 303)
        try nextQuestion()
        try nextQuestion()
        #expect(try cards() > 5, "fast: forty a day")
        #expect(try db.first("SELECT namegame_pace FROM players")?.string("namegame_pace") == "fast")
    }

    /// A review: ten rounds of 50/50 marked two people just missed "Strengthened". A coin toss proves nothing: right
    /// answers there move no one; a miss still counts.
    @Test(arguments: Engine.allCases) func fiftyFiftyRightAnswersMoveNoOne(_ engine: Engine) throws {
        let server = try SiteServer(engine: engine)
        defer { server.stop() }
        let player = Player(server)
        try player.answerRight("learn", try player.play("learn").text)  // the player's row
        let db = try Database(location: server.database)
        _ = try db.execute("DELETE FROM namegame_cards")
        _ = try met(server, count: 5, stability: 10, due: 0)
        func cards() throws -> [String] {
            try db.query("SELECT person, due_ms, reviews FROM namegame_cards ORDER BY person").map {
                "\(try $0.decode("person", as: String.self)) \(try $0.decode("due_ms", as: Int64.self))"
                    + " \(try $0.decode("reviews", as: Int64.self))"
            }
        }
        let before = try cards()
        try player.answerRounds("fifty", count: 6)
        #expect(try cards() == before, "six right coin tosses, five people due: nothing moved")
        let (round, answer) = try player.round(try player.play("fifty").text)
        #expect(try player.post("/namegame/answer", "mode=fifty&round=\(round)&choice=\(1 - answer)").status == 303)
        #expect(try cards() != before, "a miss counts")
    }

    /// Review my misses drills whom it missed (a review: 18 rounds of drilling left strangers "Not met yet"); a quiz's
    /// first meeting has met them already (issue 41).
    @Test(arguments: Engine.allCases) func reviewingAMissedStrangerMeetsThem(_ engine: Engine) throws {
        let server = try SiteServer(engine: engine)
        defer { server.stop() }
        let player = Player(server)
        let page = try player.play("normal").text
        let missed = try player.askedID(page)
        try player.miss("normal", page)
        let db = try Database(location: server.database)
        #expect(try db.first("SELECT 1 AS n FROM namegame_cards WHERE person = ?", [.text(missed)]) != nil)
        let session = try #require(try db.first("SELECT id FROM namegame_sessions WHERE mode = 'normal'")?.int("id"))
        #expect(try player.post("/namegame/review", "session=\(session)").status == 303)
        let review = try player.play("review").text
        #expect(try player.askedID(review) == missed)
        try player.answerRight("review", review)
        #expect(try db.first("SELECT 1 AS n FROM namegame_cards WHERE person = ?", [.text(missed)]) != nil)
    }

    /// A third review, five people met: Normal and Practice went round them in one fixed order (four of five left
    /// out of each draw), and the other faces were strangers, so the one familiar face was the answer. Two later
    /// reviews: with the other faces all people met, the answer came by elimination (the six names were the five just
    /// met and a stranger; a timed minute showed the same six faces every round). About half of each now.
    @Test(arguments: Engine.allCases) func aQuizShufflesThePeopleMetAndShowsThemAsTheOtherFaces(_ engine: Engine) throws
    {
        let server = try SiteServer(engine: engine)
        defer { server.stop() }
        let player = Player(server)
        try player.answerRight("learn", try player.play("learn").text)  // the player's row, met nobody yet
        _ = try Database(location: server.database).execute("DELETE FROM namegame_cards")
        let five = Set(try met(server, count: 5, stability: 10, due: 0))
        // Three sessions of ten (each ends in its summary; the next starts a new one).
        for _ in 0..<3 {
            try player.answerRounds("normal", count: 10)
            try player.post("/namegame/next", "mode=normal")
        }
        let db = try Database(location: server.database)
        let rounds: [Int64] = try db.query("SELECT id FROM namegame_rounds WHERE mode = 'normal' ORDER BY id").map {
            try $0.decode("id")
        }
        #expect(rounds.count >= 30)
        var shown: Set<String> = []
        var sets: Set<Set<String>> = []
        for round in rounds {
            let faces: [String] = try db.query(
                "SELECT person FROM namegame_round_faces WHERE round = ?", [.integer(round)]
            ).map { try $0.decode("person") }
            let met = Set(faces).intersection(five)
            #expect(faces.count == 6 && met.count == 4, "the one asked and three others met, two strangers: \(faces)")
            shown.formUnion(met)
            sets.insert(Set(faces))
        }
        #expect(shown == five, "every one met is among the faces")
        #expect(sets.count > rounds.count / 2, "the faces change from round to round")
        let quizzed = try asked(server, mode: "normal").map(\.person)
        var after: [String: Set<String>] = [:]
        for (one, next) in zip(quizzed, quizzed.dropFirst()) { after[one, default: []].insert(next) }
        #expect(after.values.contains { $0.count > 1 }, "no fixed order: \(quizzed)")
        for session in stride(from: 0, to: quizzed.count, by: 10) {
            let asked = quizzed[session..<min(session + 10, quizzed.count)]
            #expect(zip(asked, asked.dropFirst()).allSatisfy { $0 != $1 }, "never twice in a row: \(asked)")
        }
    }

    @Test(arguments: Engine.allCases) func aTypedMissIsReviewedTypedAndNoQuizAsksOnePersonTwiceInARow(
        _ engine: Engine
    ) throws {
        let clock = AdminConsoleTests.Clock()
        let server = try AdminConsoleTests.server(clock, engine: engine)
        defer { server.stop() }
        let player = Player(server)
        var page = try player.play("learn").text
        for _ in 0..<12 where !page.contains("data-recall-input") {
            try player.answerRight("learn", page)
            // A player's round takes seconds: someone answered right is asked again once their step is due.
            clock.advance(10)
            try player.post("/namegame/next", "mode=learn")
            page = try player.play("learn").text
        }
        #expect(page.contains("data-recall-input"), "learn asks someone answered right to type the name")
        let missed = try player.askedID(page)
        try player.miss("learn", page)
        let db = try Database(location: server.database)
        let session = try #require(try db.first("SELECT id FROM namegame_sessions WHERE mode = 'learn'")?.int("id"))
        #expect(try player.post("/namegame/review", "session=\(session)").status == 303)
        let review = try player.play("review").text
        #expect(try player.askedID(review) == missed)
        #expect(review.contains("data-recall-input"), "typed where it was missed, typed again (a review)")
        // Similar names draws from a handful of people: still never the same one twice in a row.
        try player.answerRounds("matt", count: 10)
        let matts = try asked(server, mode: "matt").map(\.person)
        #expect(matts.count == 10 && Set(matts).count > 1, "\(matts)")
        #expect(zip(matts, matts.dropFirst()).allSatisfy { $0 != $1 }, "\(matts)")
    }

    /// A face to pick in learn mode is shown among the other people met, not among strangers only (a review: the one
    /// familiar face was the answer without knowing the name).
    @Test(arguments: Engine.allCases) func learnAsksAmongThePeopleMet(_ engine: Engine) throws {
        let server = try SiteServer(engine: engine)
        defer { server.stop() }
        let player = Player(server)
        try player.startPlaying()
        let four = try met(server, count: 4, stability: 3, due: 0)
        let db = try Database(location: server.database)
        _ = try db.execute("UPDATE namegame_cards SET state = 'learning', step = 0")
        let page = try player.play("learn").text
        let asked = try player.askedID(page)
        #expect(four.contains(asked) && !page.contains("name=\"name\""), "a face to pick, about someone met")
        let round = try #require(Player.attribute("data-round", in: page))
        let faces: [String] = try db.query(
            "SELECT person FROM namegame_round_faces WHERE round = ?", [.integer(Int64(round)!)]
        ).map { try $0.decode("person") }
        #expect(Set(four).isSubset(of: Set(faces)), "\(faces)")
    }

    /// Quizzes spread their questions over the people met (a review: a miss, asked soonest due first, came back in 8
    /// of 16 rounds), and a right answer about someone not due yet moves nothing (one timed minute marked four people
    /// learned); after a wrong pick every face is named.
    @Test(arguments: Engine.allCases) func quizzesSpreadOverPeopleMetAndCramNothing(_ engine: Engine) throws {
        let server = try SiteServer(engine: engine)
        defer { server.stop() }
        let player = Player(server)
        try player.get("/")
        #expect(try player.post("/namegame/pace", "pace=steady").status == 303, "the player's row")
        let db = try Database(location: server.database)
        let eight = try met(server, count: 8, stability: 6, due: 9_000_000_000_000)
        try player.post("/namegame/next", "mode=timed")
        let page = try player.play("timed").text
        let missed = try player.askedID(page)
        let (round, answer) = try player.round(page)
        try player.post("/namegame/answer", "mode=timed&round=\(round)&choice=\((answer + 1) % 6)")
        let taught = try player.get("/namegame/timed").text
        #expect(!taught.contains("face-name\"><span class=\"key-hint\""), "every face named after the miss")
        try player.post("/namegame/answer", "mode=timed&round=\(round)&choice=\(answer)")
        try player.answerRounds("timed", count: 12)
        // A timed minute asks about the people met.
        let metNow = Set(try db.query("SELECT person FROM namegame_cards").map { try $0.decode("person") as String })
        let asked = try asked(server, mode: "timed").map(\.person).suffix(11)
        #expect(asked.allSatisfy(metNow.contains) && metNow.count <= 10, "\(asked), met \(metNow)")
        let most = Dictionary(grouping: asked, by: { $0 }).values.map(\.count).max() ?? 0
        // At random among the five not asked last, one of eight asked five times in eleven happens about one run in
        // two hundred (the old cramming asked one every other round).
        #expect(most <= 4, "spread over the eight: \(asked)")
        for person in eight where person != missed {
            let card = try #require(try db.first("SELECT due_ms FROM namegame_cards WHERE person = ?", [.text(person)]))
            #expect(try card.decode("due_ms", as: Int64.self) == 9_000_000_000_000, "not due: not moved")
        }
        // Nor in recall, which meets people: someone past their learning steps named right before they are due moves
        // nothing (a review: 25 minutes of recall and lessons made a person met that day "Learned"). (The one missed
        // above is put back with the others: on a slow machine their relearning step fell due, and recall asked them.)
        _ = try db.execute(
            "UPDATE namegame_cards SET state = 'review', step = NULL, stability = 6, due_ms = 9000000000000 WHERE person = ?",
            [.text(missed)])
        for person in metNow.subtracting(eight) {
            _ = try db.execute("DELETE FROM namegame_cards WHERE person = ?", [.text(person)])
        }
        let recall = try player.play("recall").text
        let person = try player.askedID(recall)
        #expect(eight.contains(person) && recall.contains("name=\"name\""), "a typed round about someone met")
        let (id, _) = try player.round(recall)
        let name = try player.fullName(id)
        #expect(
            try player.post("/namegame/recall", "mode=recall&round=\(id)&name=\(name.addingFormEncoding)").status == 303
        )
        let card = try #require(
            try db.first("SELECT due_ms, stability FROM namegame_cards WHERE person = ?", [.text(person)]))
        #expect(try card.decode("due_ms", as: Int64.self) == 9_000_000_000_000 && card.double("stability") == 6)
    }
}
