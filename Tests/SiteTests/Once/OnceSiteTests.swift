import PropertyList
import Storage
import TestSupport
import Testing

@testable import ArcadeStore
@testable import ArcadeWeb

@Suite("The once-store on the site")
struct OnceSiteTests {
    @Test(arguments: Engine.allCases) func tutorialShowsUntilDismissedAcrossSessions(_ engine: Engine) throws {
        let server = try SiteServer(engine: engine)
        defer { server.stop() }
        let player = Player(server)
        #expect(try player.get("/mastermind").text.contains("data-once=\"tutorial.mastermind\""))
        #expect(
            try player.get("/mastermind").text.contains("data-once=\"tutorial.mastermind\""), "still there on reload")
        let dismissed = try player.post("/once/dismiss", "task=tutorial.mastermind&back=/mastermind")
        #expect(dismissed.status == 303)
        #expect(dismissed.header("Location") == "/mastermind")
        #expect(!(try player.get("/mastermind").text.contains("data-once=\"tutorial.mastermind\"")))
        // A new browser session of the same player: still dismissed.
        player.cookies["arcade_session"] = nil
        #expect(!(try player.get("/mastermind").text.contains("data-once=\"tutorial.mastermind\"")))
        // The Name Game teaches on the round itself (issue 41): a one-line how-to, no card or dialog before play.
        let round = try player.play("normal").text
        #expect(
            round.contains("data-howto") && !round.contains("data-once=\"tutorial.namegame\""), "each game has its own")
    }

    /// A dismissed tutorial can still be read: every game page links its help page, which works without a script.
    @Test(arguments: Engine.allCases) func theHelpStaysReachableAfterTheTutorialIsDismissed(_ engine: Engine) throws {
        let server = try SiteServer(engine: engine)
        defer { server.stop() }
        let player = Player(server)
        try player.get("/mastermind")
        #expect(try player.post("/once/dismiss", "task=tutorial.mastermind&back=/mastermind").status == 303)
        let board = try player.get("/mastermind").text
        #expect(!board.contains("data-once=\"tutorial.mastermind\"") && board.contains("href=\"/mastermind/help\""))
        let help = try player.get("/mastermind/help")
        #expect(help.status == 200 && help.text.contains("a round peg marks a right digit in the right place"))
        #expect(help.text.contains("href=\"/mastermind\""))
        #expect(try player.play("timed").text.contains("href=\"/namegame/help?mode=timed\""))
        let nameGameHelp = try player.get("/namegame/help?mode=timed").text
        #expect(
            nameGameHelp.contains("Pick the face that goes with the name")
                && nameGameHelp.contains("href=\"/namegame/timed\""))
        // Each mode's own rules follow: Learn's say how a lesson goes, Hints' what waiting costs.
        #expect(nameGameHelp.contains("<h2 data-help-mode>Timed</h2>") && nameGameHelp.contains("costs 3 seconds"))
        let learnHelp = try player.get("/namegame/help?mode=learn").text
        #expect(learnHelp.contains("then type the name from memory"))
        // A point a sentence (a review: "one 20-line paragraph, nobody reads it").
        #expect(
            learnHelp.contains("<li>A lesson is a short run of rounds; the bar at the top shows your progress.</li>"))
        #expect(learnHelp.ranges(of: "<li>").count >= 5)
        #expect(nameGameHelp.contains("who can load your own team"), "where the faces come from")
        #expect(try player.get("/namegame/help?mode=hint").text.contains("if only the right face is left"))
        // Sentences follow each other with the language's own gap: a space in English, none in Japanese (a native
        // reader saw a stray ASCII space).
        #expect(nameGameHelp.contains("next round. <span class=\"key-hint\" data-key-hint>Press 1–6"))
        let japanese = try player.get("/namegame/help?mode=learn&lang=ja").text
        #expect(japanese.contains("進みます。<span class=\"key-hint\" data-key-hint>"), "no space between sentences")
        #expect(!japanese.contains("。 "), "no ASCII space after a full stop")
        #expect(japanese.contains("わかります。</li><li>まず"), "Japanese sentences cut after their full stop")
        player.cookies["arcade_lang"] = nil
        let hints = try player.play("hint").text
        #expect(
            hints.contains("data-mode-howto>Answer before the faces disappear"), "said on the session's first question")
        // Without a script, when the player sees them go (the page hides this line when a script runs).
        #expect(hints.contains("data-nojs-only>Without JavaScript, the faces that have gone show each time you answer"))
        #expect(
            try player.get("/namegame/help?mode=%3Cx%3E").text.contains("href=\"/namegame\""),
            "an unknown mode links the menu")
        // Every page names its icon, which exists (no 404 per page view).
        #expect(board.contains("<link rel=\"icon\" href=\"/favicon.ico\">"))
        let icon = try server.get("/favicon.ico")
        #expect(icon.status == 200 && icon.header("Content-Type") == "image/x-icon" && icon.body.count > 1000)
    }

    /// It stays for a first game, then goes (a review without scripts had it above the board for a whole second
    /// game, never dismissed).
    @Test(arguments: Engine.allCases) func tutorialGoesAfterTheFirstGame(_ engine: Engine) throws {
        let server = try SiteServer(engine: engine)
        defer { server.stop() }
        let player = Player(server)
        let game = try player.startMastermind()
        #expect(try player.get("/mastermind").text.contains("data-once=\"tutorial.mastermind\""))
        try player.post("/mastermind/guess", "game=\(game)&turn=0&guess=\(try player.secret())")
        try player.post("/mastermind/new", "")
        #expect(!(try player.get("/mastermind").text.contains("data-once=\"tutorial.mastermind\"")))
    }

    @Test(arguments: Engine.allCases) func whatsNewShowsOncePerVersion(_ engine: Engine) throws {
        let server = try SiteServer(engine: engine)
        defer { server.stop() }
        let player = Player(server)
        #expect(!(try player.get("/").text.contains("data-once=\"whatsnew\"")), "not for a first visit")
        // What's new is for players: someone who has only looked has no row, and nothing to compare.
        #expect(try player.post("/once/dismiss", "task=tutorial.mastermind&back=/").status == 303)
        try server.site.constants.setHotfix("site.version", .string("1.5.0"))
        let first = try player.get("/").text
        #expect(first.contains("data-once=\"whatsnew\""))
        #expect(first.contains("1.5.0"))
        #expect(!(try player.get("/").text.contains("data-once=\"whatsnew\"")), "once per version")
        try server.site.constants.setHotfix("site.version", .string("1.6.0"))
        #expect(try player.get("/").text.contains("data-once=\"whatsnew\""))
        #expect(!(try player.get("/").text.contains("data-once=\"whatsnew\"")))
        let newcomer = Player(server)
        #expect(!(try newcomer.get("/").text.contains("data-once=\"whatsnew\"")))
    }

    /// News of a write to the player's record (PostgreSQL's change feed, often this instance's own earlier write)
    /// arriving while a page's mark still waits in the writer's queue keeps the record that holds it: read again from
    /// the database, the what's new note showed twice (a CI run on PostgreSQL).
    @Test(arguments: Engine.allCases) func aQueuedMarkOutlivesNewsOfAnotherWrite(_ engine: Engine) throws {
        // Each commit takes a second: the page's mark is still queued when the next page is asked for.
        let server = try SiteServer(engine: engine, routes: nil) { $0.commitDelay = 1 }
        defer { server.stop() }
        let player = Player(server)
        try player.get("/")
        #expect(try player.post("/once/dismiss", "task=tutorial.mastermind&back=/").status == 303)
        let id = try #require(try Database(location: server.database).first("SELECT id FROM players")?.string("id"))
        try server.site.constants.setHotfix("site.version", .string("1.5.0"))
        #expect(try player.get("/").text.contains("data-once=\"whatsnew\""))
        server.site.services.reload(kind: "once", key: id)
        #expect(!(try player.get("/").text.contains("data-once=\"whatsnew\"")), "news of one player's write")
        try server.site.constants.setHotfix("site.version", .string("1.6.0"))
        #expect(try player.get("/").text.contains("data-once=\"whatsnew\""))
        // News naming no player drops every record but those still queued. (`everything`, after a reconnect, would
        // also read the constants again and lose the test's in-memory version.)
        server.site.services.reload(kind: "once", key: nil)
        #expect(!(try player.get("/").text.contains("data-once=\"whatsnew\"")), "news of some write")
        // A write waited for follows the queued ones through the writer.
        #expect(try player.post("/once/dismiss", "task=tutorial.namegame&back=/").status == 303)
        let marks = try Database(location: server.database).first(
            "SELECT COUNT(*) AS n FROM once_marks WHERE task = 'whatsnew'")
        #expect(marks?.int("n") == 2, "each version's mark committed once the writer got to it")
    }

    /// Bookkeeping queued at one version and written after a hotfix changed it belongs to the version it was
    /// seen at: otherwise the new version looks already seen, and its what's new never shows.
    @Test(arguments: Engine.allCases) func whatsNewQueuedBeforeAVersionChangeKeepsItsVersion(_ engine: Engine) throws {
        let server = try SiteServer(engine: engine, routes: nil) { $0.commitDelay = 0.4 }
        defer { server.stop() }
        let player = Player(server)
        let other = Player(server)
        try player.get("/")
        #expect(try player.post("/once/dismiss", "task=tutorial.mastermind&back=/").status == 303)
        try other.get("/")
        try server.site.constants.setHotfix("site.version", .string("1.5.0"))
        // Keep the writer busy with someone else's commit, so the page's bookkeeping waits in its queue.
        let busy = try RawClient(port: server.port)
        let body = "task=tutorial.mastermind&back=/&csrf=\(other.csrf)"
        busy.send(
            "POST /once/dismiss HTTP/1.1\r\nHost: t\r\nCookie: \(other.cookieHeader)\r\n"
                + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
        )
        sleep(seconds: 0.1)
        let asked = WallClock.milliseconds(WallClock.system)
        #expect(try player.get("/").text.contains("data-once=\"whatsnew\""))
        let answered = WallClock.milliseconds(WallClock.system)
        try server.site.constants.setHotfix("site.version", .string("1.6.0"))
        #expect(try busy.readResponse(timeout: 5).status == 303)
        #expect(try player.post("/once/dismiss", "task=tutorial.namegame&back=/").status == 303, "after the queue")
        #expect(try player.get("/").text.contains("data-once=\"whatsnew\""), "1.6.0 is new to this player")
        // The mark is dated when the page was seen, not when the writer got to it.
        let seen = try Database(location: server.database).first(
            "SELECT MIN(at_ms) AS at FROM once_marks WHERE task = 'whatsnew'")
        let at = try #require(seen?.int("at"))
        #expect((asked...answered).contains(Int64(at)), "marked at \(at), seen between \(asked) and \(answered)")
    }

    /// A game's end and its once-store marks are one commit: when the marks cannot be written, the game is not ended
    /// either (in two transactions a win was saved without them), and the same guess wins once they can.
    @Test func aGamesEndAndItsMarksCommitTogether() throws {
        let server = try InProcessSite(engine: .sqlite)
        defer { server.stop() }
        let player = Player(server)
        let game = try player.startMastermind()
        let secret = try player.secret()
        let db = try Database(location: server.database)
        func status() throws -> String? {
            try db.first("SELECT status FROM mastermind_games WHERE id = ?", [.text(game)])?.string("status")
        }
        func marks() throws -> Int? {
            try db.first("SELECT COUNT(*) AS n FROM once_marks WHERE task = 'mastermind.won'")?.int("n")
        }
        _ = try db.execute("CREATE TRIGGER refuse BEFORE INSERT ON once_marks BEGIN SELECT RAISE(ABORT, 'no'); END")
        let refused = try player.post("/mastermind/guess", "game=\(game)&turn=0&guess=\(secret)")
        #expect(refused.status == 500 || refused.status == 503, "\(refused.status)")
        #expect(try status() == "playing" && marks() == 0)
        #expect(try db.first("SELECT COUNT(*) AS n FROM mastermind_guesses")?.int("n") == 0, "the guess not saved")
        _ = try db.execute("DROP TRIGGER refuse")
        #expect(try player.post("/mastermind/guess", "game=\(game)&turn=0&guess=\(secret)").status == 303)
        #expect(try status() == "won" && marks() == 1)
    }

    /// A Name Game round's end and its "played" mark are one transaction too: with the mark refused, the answer is
    /// not saved and the round stays open, to be answered once the mark can be written.
    @Test func aRoundsEndAndItsMarkCommitTogether() throws {
        let server = try InProcessSite(engine: .sqlite)
        defer { server.stop() }
        let player = Player(server)
        try player.meetPeople()
        let (round, answer) = try player.round(try player.play("normal").text)
        let db = try Database(location: server.database)
        func status() throws -> String? {
            try db.first("SELECT status FROM namegame_rounds WHERE id = ?", [.text(round)])?.string("status")
        }
        func marks() throws -> Int? {
            try db.first("SELECT COUNT(*) AS n FROM once_marks WHERE task = 'namegame.played'")?.int("n")
        }
        _ = try db.execute("CREATE TRIGGER refuse BEFORE INSERT ON once_marks BEGIN SELECT RAISE(ABORT, 'no'); END")
        let refused = try player.post("/namegame/answer", "mode=normal&round=\(round)&choice=\(answer)")
        #expect(refused.status == 500 || refused.status == 503, "\(refused.status)")
        #expect(try status() == "open" && marks() == 0)
        _ = try db.execute("DROP TRIGGER refuse")
        #expect(try player.post("/namegame/answer", "mode=normal&round=\(round)&choice=\(answer)").status == 303)
        #expect(try status() == "identified" && marks() == 1)
    }

    @Test(arguments: Engine.allCases) func firstMastermindWinRemindsOfTheNameGameUntilPlayed(_ engine: Engine) throws {
        let server = try SiteServer(engine: engine)
        defer { server.stop() }
        let player = Player(server)
        #expect(!(try player.get("/").text.contains("data-once=\"namegame.try\"")))
        let game = try player.startMastermind()
        try player.post("/mastermind/guess", "game=\(game)&turn=0&guess=\(try player.secret())")
        #expect(try player.get("/").text.contains("data-once=\"namegame.try\""))
        // The first won board invites in its results (no banner besides); the game's page pushes it no more (two
        // reviews counted the other game pushed at them in every card and over the board).
        let won = try player.get("/mastermind").text
        #expect(won.contains("data-try-namegame") && !won.contains("data-once=\"namegame.try\""))
        let next = try player.startMastermind()
        #expect(try !player.get("/mastermind").text.contains("namegame.try"))
        try player.post("/mastermind/guess", "game=\(next)&turn=0&guess=\(try player.secret())")
        #expect(try !player.get("/mastermind").text.contains("data-try-namegame"), "a second win's card: no more")
        // Never above the day's code: it comes first (a review met the strip over a daily not yet played).
        let daily = try player.get("/mastermind/daily")
        #expect(daily.status == 200 && daily.text.contains("data-daily=") && !daily.text.contains("namegame.try"))
        let db = try Database(location: server.database)
        let expires = try #require(
            try db.first("SELECT expires_ms - created_ms AS span FROM once_todos WHERE task = 'namegame.try'")?.int(
                "span"))
        #expect(expires == 3 * 86_400 * 1000, "until(3 days)")
        #expect(try player.get("/progress").text.contains("data-todo=\"namegame.try\""))
        // A to-do of a client's own (the once API's bookkeeping) is no sentence: the page leaves it out.
        _ = try db.execute(
            "INSERT INTO once_todos (player, task, created_ms) SELECT player, 'app.key.9', created_ms FROM once_todos")
        let listed = try player.get("/progress").text
        #expect(listed.contains("data-todo=\"namegame.try\"") && !listed.contains("app.key.9"))
        // Playing the Name Game marks it done (in learn mode, which meets people: a quiz meets nobody).
        try player.answerRight("learn", try player.play("learn").text)
        #expect(!(try player.get("/").text.contains("data-once=\"namegame.try\"")))
        let progress = try player.get("/progress").text
        #expect(progress.contains("data-task=\"mastermind.won\" data-count=\"2\""))
        #expect(progress.contains("data-task=\"namegame.played\" data-count=\"1\""))
        // The person just answered comes back later today: waiting too (a review read "Nothing is waiting for you"
        // beside 24 people due).
        #expect(!progress.contains("data-todo=\"namegame.try\"") && !progress.contains("data-empty=\"todo\""))
        // Said as due now where any is (the lesson it links to starts with them), else as due later today.
        let waiting = try #require(
            progress.firstMatch(of: /data-todo="namegame.review"><a href="\/namegame\/learn">([^<]*)</)?.1)
        #expect(
            waiting.hasPrefix("People due for review in the Name Game: ")
                || waiting == "Due for review later today in the Name Game: 2", "\(waiting)")
    }

    @Test(arguments: Engine.allCases) func dismissRefusesUnknownTasksAndForeignPlaces(_ engine: Engine) throws {
        let server = try SiteServer(engine: engine)
        defer { server.stop() }
        let player = Player(server)
        try player.get("/")
        #expect(try player.post("/once/dismiss", "task=mastermind.won&back=/").status == 400)
        for back in ["//evil.example/", "https://evil.example/", "javascript:alert(1)", "/\\evil"] {
            let response = try player.post("/once/dismiss", "task=tutorial.namegame&back=\(back.addingFormEncoding)")
            #expect(response.header("Location") == "/", "\(back)")
        }
    }
}
