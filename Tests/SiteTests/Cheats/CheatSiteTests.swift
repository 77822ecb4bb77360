import JSON
import Storage
import Synchronization
import TestSupport
import Testing

@testable import ArcadeStore
@testable import ArcadeWeb

#if canImport(Glibc)
import Glibc
#endif

@Suite("Cheat actions over HTTP", .serialized)
struct CheatSiteTests {
    static let konami = [
        "swipe=up", "swipe=up", "swipe=down", "swipe=down", "swipe=left", "swipe=right", "swipe=left", "swipe=right",
        "key=b", "key=a",
    ]

    @discardableResult
    func act(_ player: Player, _ pair: String, on page: String = "") throws -> WireResponse {
        let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
        return try player.post(
            "/cheats/actions",
            "kind=\(parts[0])&value=\((parts.count > 1 ? parts[1] : "").addingFormEncoding)" + page)
    }

    func storedProgress(_ server: SiteServer) throws -> String? {
        try Database(location: server.database).first("SELECT progress FROM cheat_progress")?.string("progress")
    }

    @Test(arguments: Engine.allCases) func theKonamiCodeUnlocksItsEffectAndNamesStayHiddenUntilFound(
        _ engine: Engine
    ) throws {
        let server = try SiteServer(engine: engine)
        defer { server.stop() }
        let player = Player(server)
        try player.get("/")
        var last: JSONValue = .null
        for (i, pair) in Self.konami.enumerated() {
            let response = try act(player, pair)
            #expect(response.status == 200)
            #expect(response.header("Content-Type") == "application/json")
            last = try JSONParser.parse(response.text)
            if i < Self.konami.count - 1 {
                #expect(last["state"]?.string == "matching")
                // The touch form (9 actions) shares the first 8; after B only the keyboard form (10) is left.
                #expect(last["progress"]?.int == i + 1 && last["length"]?.int == (i < 8 ? 9 : 10))
                #expect(last["cheat"]?.isNull == true, "an unfound cheat is not named")
                #expect(last["unlocked"]?.array?.isEmpty == true)
            }
        }
        #expect(last["state"]?.string == "matched")
        #expect(last["unlocked"] == .array([.string("mastermind.reveal")]))
        #expect(
            try Database(location: server.database).first(
                "SELECT COUNT(*) AS n FROM once_marks WHERE task = 'cheat.konami'")?.int("n") == 1)
        // Found now: the progress hint may name it.
        let again = try JSONParser.parse(try act(player, "swipe=up").text)
        #expect(again["cheat"]?.string == "konami")
        // Another player starts from nothing.
        let other = Player(server)
        try other.get("/")
        #expect(try JSONParser.parse(try act(other, "key=a").text)["progress"]?.int == 0)
    }

    /// An action that waits for its player's row (held by another instance's transaction) reads the progress that
    /// transaction committed: read after the lock, not from before the wait, so no step is lost between instances.
    @Test func anActionWaitingForItsPlayersRowReadsWhatTheHolderCommitted() throws {
        let server = try SiteServer(engine: .postgresql)
        defer { server.stop() }
        let player = Player(server)
        try player.get("/")
        for pair in Self.konami.dropLast() { #expect(try act(player, pair).status == 200) }
        nonisolated(unsafe) let db = try Database(location: server.database)
        let id = try db.scalar(String.self, "SELECT player FROM cheat_progress")
        let nineSteps = try #require(try storedProgress(server))
        try db.execute("UPDATE cheat_progress SET progress = '{}'")
        // The other instance: holds the row while it writes the nine steps back, until the action waits for it.
        nonisolated(unsafe) let holder = try Database(location: server.database)
        let holderPID = try holder.scalar(Int.self, "SELECT pg_backend_pid() AS pid")
        try holder.execute("BEGIN")
        try holder.execute("SELECT id FROM players WHERE id = ? FOR UPDATE", [.text(id)])
        try holder.execute("UPDATE cheat_progress SET progress = ? WHERE player = ?", [.text(nineSteps), .text(id)])
        let answer = Mutex<String?>(nil)
        concurrently(2) { i in
            if i == 0 {
                answer.withLock { $0 = try? act(player, "key=a").text }
                return
            }
            for _ in 0..<1_000 {
                let waiting = try? db.scalar(
                    Int.self, "SELECT COUNT(*) AS n FROM pg_stat_activity WHERE ? = ANY(pg_blocking_pids(pid))",
                    [SQLValue(holderPID)])
                if (waiting ?? 0) > 0 { break }
                usleep(5_000)
            }
            _ = try? holder.execute("COMMIT")
        }
        let last = try JSONParser.parse(try #require(answer.withLock { $0 }))
        #expect(last["state"]?.string == "matched", "the tenth step completes the nine committed meanwhile: \(last)")
    }

    @Test(arguments: Engine.allCases) func malformedActionsAre400AndChangeNothing(_ engine: Engine) throws {
        let server = try SiteServer(engine: engine)
        defer { server.stop() }
        let player = Player(server)
        try player.get("/")
        #expect(try act(player, "swipe=up").status == 200)
        let before = try storedProgress(server)
        for bad in ["swipe=diagonal", "tap=0", "tap=-3", "tap=lots", "wave=1", "key=", "shake=hard", "=up"] {
            let response = try act(player, bad)
            #expect(response.status == 400, "\(bad)")
            #expect(try JSONParser.parse(response.text)["error"]?.string?.isEmpty == false)
        }
        #expect(try player.post("/cheats/actions", "").status == 400, "no fields at all")
        #expect(try storedProgress(server) == before)
        // Without the CSRF token: refused.
        #expect(
            try server.post("/cheats/actions", body: "kind=key&value=a", headers: ["Cookie": player.cookieHeader])
                .status == 403)
        #expect(try storedProgress(server) == before)
    }

    @Test(arguments: Engine.allCases) func moreThanThirtyActionsASecondGive429(_ engine: Engine) throws {
        // The site's clock stands still, so the 100 actions fall in one second however slow a busy machine is (timed
        // by the wall clock, a loaded CI run spread them over four windows and refused none).
        let clock = AdminConsoleTests.Clock()
        let server = try AdminConsoleTests.server(clock, engine: engine)
        defer { server.stop() }
        let player = Player(server)
        try player.get("/")
        var statuses: [Int] = []
        for _ in 0..<100 { statuses.append(try act(player, "key=x").status) }
        // The first 30 are allowed, the rest of that second refused: the limit is reached, not assumed.
        #expect(statuses.prefix(30).allSatisfy { $0 == 200 }, "\(statuses)")
        #expect(statuses.dropFirst(30).allSatisfy { $0 == 429 }, "\(statuses)")
        // The next second is a new window.
        clock.advance(1)
        #expect(try act(player, "key=x").status == 200)
        // Another player is not limited by this one.
        let other = Player(server)
        try other.get("/")
        #expect(try act(other, "key=x").status == 200)
    }

    @Test(arguments: Engine.allCases) func theThemeTogglesTheCreditsOpenAndTheFoundPageCounts(_ engine: Engine) throws {
        let server = try SiteServer(engine: engine)
        defer { server.stop() }
        let player = Player(server)
        try player.get("/")
        let empty = try player.get("/cheats").text
        #expect(empty.contains("data-found=\"0\" data-total=\"4\""))
        #expect(!empty.contains("Konami") && !empty.contains("data-cheat="), "no unfound cheat is named")
        // Only hinted at (a review found no way to discover three of the four).
        #expect(empty.ranges(of: "data-cheat-clue").count == 4 && empty.contains("what rolls at the end of a film"))
        // Each says its way on a phone too, which has no keys on a game's page (a review found retro's typed only).
        #expect(empty.contains("On a phone, swipe right, left, right, left and tap twice."))
        #expect(try player.get("/credits").status == 404, "hidden until found")
        // R E T R O: the CRT theme on every page, and off again on the next completion.
        var unlocked: JSONValue = .null
        for key in ["r", "e", "t", "r", "o"] {
            unlocked = try JSONParser.parse(try act(player, "key=\(key)").text)["unlocked"] ?? .null
        }
        #expect(unlocked == .array([.string("theme.crt")]))
        #expect(try player.get("/").text.contains("dir=\"ltr\" class=\"theme-crt\">"))
        #expect(try player.get("/mastermind").text.contains("dir=\"ltr\" class=\"theme-crt\">"))
        #expect(!(try Player(server).get("/").text.contains("theme-crt")), "only for this player")
        var last: JSONValue = .null
        for key in ["R", "E", "T", "R", "O"] { last = try JSONParser.parse(try act(player, "key=\(key)").text) }
        // Said as it happens (a blind review heard "switches on" as it went off).
        #expect(last["did"] == .array([.string("Retro screen off (do it again to switch it back on).")]))
        let off = try player.get("/").text
        #expect(!off.contains("class=\"theme-crt\""))
        #expect(off.contains("<option value=\"crt\">Retro</option>"), "found once, retro stays in the theme chooser")
        #expect(try player.post("/theme", "theme=crt&back=/").status == 303)
        #expect(try player.get("/").text.contains("class=\"theme-crt\""))
        try player.post("/theme", "theme=&back=/")
        // Off again, it gives back the theme chosen before it (a low-vision review's high contrast became System).
        #expect(try player.post("/theme", "theme=contrast&back=/").status == 303)
        for key in ["r", "e", "t", "r", "o", "r", "e", "t", "r", "o"] { try act(player, "key=\(key)") }
        #expect(try player.get("/").text.contains("dir=\"ltr\" class=\"theme-contrast\">"))
        try player.post("/theme", "theme=&back=/")
        // Two shakes open the credits.
        try act(player, "shake=")
        #expect(try JSONParser.parse(try act(player, "shake=").text)["unlocked"] == .array([.string("credits")]))
        #expect(try player.get("/credits").status == 200)
        let found = try player.get("/cheats").text
        #expect(found.contains("data-found=\"2\" data-total=\"4\""))
        #expect(found.contains("You have found 2 of 4 cheats."))
        #expect(found.contains("data-cheat=\"crt\"") && found.contains("data-cheat=\"credits\""))
        #expect(!found.contains("data-cheat=\"konami\""))
        #expect(found.ranges(of: "data-cheat-clue").count == 2 && !found.contains("what rolls at the end of a film"))
    }

    @Test(arguments: Engine.allCases) func konamiRevealsOneDigitOncePerGameAndMarksTheResult(_ engine: Engine) throws {
        let server = try SiteServer(engine: engine)
        defer { server.stop() }
        let player = Player(server)
        let page = try player.get("/mastermind")
        #expect(!page.text.contains("data-revealed"))
        // From another page (the board not on it), nothing is revealed or started, and it says where it works.
        var last: JSONValue = .null
        for pair in Self.konami { last = try JSONParser.parse(try act(player, pair).text) }
        #expect(
            last["did"]
                == .array([
                    .string("Use it during a Mastermind game: it reveals a digit of that game’s code.")
                ]))
        #expect(try Database(location: server.database).first("SELECT id FROM mastermind_games") == nil)
        // On the unstarted board, the reveal starts the game.
        for pair in Self.konami { last = try JSONParser.parse(try act(player, pair, on: "&game=0").text) }
        let secret = Array(try player.secret())
        let shown = try #require(Player.attribute("data-revealed", in: try player.get("/mastermind").text))
        let parts = shown.split(separator: ":").map(String.init)
        let position = try #require(Int(parts[0]))
        #expect(
            (1...4).contains(position) && parts[1] == String(secret[position - 1]), "the right digit at its position")
        // The toast names the digit and its place (a review's phone showed it as a badge over a typed digit).
        // …and, as Hint asks first, that it costs the game its place in the chart (a review: taken away unwarned).
        let said = "Position \(position) is \(parts[1]). Like a hint, it keeps a win off the chart."
        #expect(last["did"] == .array([.string(said)]))
        // Once per game: a second Konami changes nothing, and says so (a review: it claimed a digit revealed).
        let id = try #require(Player.attribute("data-game", in: try player.get("/mastermind").text))
        for pair in Self.konami { last = try JSONParser.parse(try act(player, pair, on: "&game=\(id)").text) }
        #expect(Player.attribute("data-revealed", in: try player.get("/mastermind").text) == shown)
        let again = "Already used in this game: it reveals one digit a game. Try it again in your next one."
        #expect(last["did"] == .array([.string(again)]))
        #expect(last["toasts"] == .array([.string("Cheat: Konami code")]), "used again, not unlocked again")
        // Finish the game: the result page marks the reveal, and the win counts as assisted.
        let game = try #require(Player.attribute("data-game", in: try player.get("/mastermind").text))
        #expect(try player.post("/mastermind/guess", "game=\(game)&turn=0&guess=\(String(secret))").status == 303)
        let result = try player.get("/mastermind").text
        #expect(result.contains("data-revealed-mark=\"\(position)\""))
        #expect(result.contains("data-used-hint"))
        // A new game starts unrevealed.
        try player.post("/mastermind/new", "")
        #expect(!(try player.get("/mastermind").text.contains("data-revealed=")))
    }

    /// On a finished game the reveal says it works again in the next game (a review read "nothing to reveal" as the
    /// cheat spent), and reveals nothing.
    @Test(arguments: Engine.allCases) func konamiOnAFinishedGameSaysItWorksInTheNext(_ engine: Engine) throws {
        let server = try SiteServer(engine: engine)
        defer { server.stop() }
        let player = Player(server)
        let game = try player.startMastermind(secret: "5544")
        #expect(try player.post("/mastermind/guess", "game=\(game)&turn=0&guess=5544").status == 303)
        var last: JSONValue = .null
        for pair in Self.konami { last = try JSONParser.parse(try act(player, pair, on: "&game=\(game)").text) }
        let over = "Nothing to reveal: this game is over. The cheat works again in your next game."
        #expect(last["did"] == .array([.string(over)]))
        #expect(!(try player.get("/mastermind").text.contains("data-revealed")))
    }

    /// The reveal is for the game on the page, never a daily (a review's Konami in a normal game was spent on its
    /// unfinished daily, which then shared "with a hint").
    @Test(arguments: Engine.allCases) func konamiRevealsInTheGameOnThePageAndNeverInADaily(_ engine: Engine) throws {
        let server = try SiteServer(engine: engine)
        defer { server.stop() }
        let player = Player(server)
        let game = try player.startMastermind()
        #expect(try player.post("/mastermind/guess", "game=0&turn=0&daily=0&guess=0123").status == 303)
        let db = try Database(location: server.database)
        let daily = try #require(try db.first("SELECT id FROM mastermind_games WHERE daily IS NOT NULL")?.int("id"))
        func konami(_ fields: String) throws -> JSONValue {
            var last: JSONValue = .null
            for pair in Self.konami {
                let parts = pair.split(separator: "=").map(String.init)
                last = try JSONParser.parse(
                    try player.post("/cheats/actions", "kind=\(parts[0])&value=\(parts[1])" + fields).text)
            }
            return last
        }
        func revealed(_ id: String) throws -> Int? {
            try db.first("SELECT revealed FROM mastermind_games WHERE id = ?", [.text(id)])?.int("revealed")
        }
        // From the daily's page: nothing revealed anywhere, and it says why.
        let fromDaily = try konami("&game=\(daily)&daily=1")
        #expect(
            fromDaily["did"]
                == .array([.string("Not on the daily code: everyone plays the same one. Try it in a free game.")]
                ))
        #expect(try revealed(String(daily)) == nil && revealed(game) == nil)
        // Even named by its id alone.
        #expect(try konami("&game=\(daily)")["did"] == fromDaily["did"])
        // From the game's page: that game.
        let words = try #require(try konami("&game=\(game)")["did"]?[0]?.string)
        #expect(words.hasPrefix("Position ") && words.hasSuffix("Like a hint, it keeps a win off the chart."))
        #expect(try revealed(game) != nil && revealed(String(daily)) == nil)
    }

    /// "Tap twice" is two taps however quick (a review's two ordinary taps finished the Konami code, not the CRT's).
    @Test func twoSeparateTapsFinishTheSwipedCodesAsADoubleTapDoes() throws {
        let server = try SiteServer()
        defer { server.stop() }
        let player = Player(server)
        try player.get("/")
        var last: JSONValue = .null
        for pair in ["swipe=right", "swipe=left", "swipe=right", "swipe=left", "tap=1", "tap=1"] {
            last = try JSONParser.parse(try act(player, pair).text)
        }
        #expect(last["unlocked"] == .array([.string("theme.crt")]))
        for pair in ["swipe=down", "swipe=up", "tap=1", "tap=1", "tap=1"] {
            last = try JSONParser.parse(try act(player, pair).text)
        }
        #expect(last["unlocked"] == .array([.string("namegame.firstLetter")]))
    }

    /// The Konami code on a Name Game round helps it, as "who is it?" does (a review: the most famous code did nothing
    /// in the Name Game but point to Mastermind).
    @Test func konamiOnANameGameRoundHelpsIt() throws {
        let server = try SiteServer()
        defer { server.stop() }
        let player = Player(server)
        try player.meetPeople()
        let round = try #require(Player.attribute("data-round", in: try player.play("normal").text))
        var konami: JSONValue = .null
        for pair in Self.konami { konami = try JSONParser.parse(try act(player, pair, on: "&round=\(round)").text) }
        #expect(konami["unlocked"] == .array([.string("namegame.firstLetter")]))
        #expect(try player.play("normal").text.contains("data-cheat-help"))
    }

    @Test(arguments: Engine.allCases) func whoIsItHelpsTheRoundInPlay(_ engine: Engine) throws {
        let server = try SiteServer(engine: engine)
        defer { server.stop() }
        let player = Player(server)
        // Reverse mode (a face, pick the name): the name's first letter.
        let before = try player.play("reverse").text
        #expect(!before.contains("data-cheat-help"))
        // Entered on another page, it helps no round, and says where it works.
        var last: JSONValue = .null
        for key in ["w", "h", "o"] { last = try JSONParser.parse(try act(player, "key=\(key)").text) }
        #expect(
            last["did"]
                == .array([
                    .string("Use it during a Name Game round: it helps with the round on screen.")
                ]))
        #expect(!(try player.play("reverse").text.contains("data-cheat-help")))
        let round = try #require(Player.attribute("data-round", in: before))
        for key in ["w", "h", "o"] { try act(player, "key=\(key)", on: "&round=\(round)") }
        let page = try player.play("reverse").text
        let row = try #require(
            try Database(location: server.database).first(
                "SELECT answer, cheat FROM namegame_rounds ORDER BY id DESC LIMIT 1"))
        #expect(row.int("cheat") == 1)
        let answer = try #require(row.int("answer"))
        let marker = "data-choice=\"\(answer)\""
        let after = try #require(page.firstRange(of: marker)).upperBound
        let nameStart = try #require(page[after...].firstMatch(of: /<span class="face-name" data-named( data-long)?>/))
            .range.upperBound
        // The name follows the choice's key number.
        let name = try #require(page[nameStart...].firstRange(of: "</span> ")).upperBound
        let initial = try #require(page[name...].first)
        #expect(page.contains("the first name starts with “\(initial)”."))
        // Normal mode (a name, pick the face): half the wrong faces are hidden.
        let normalRound = try #require(Player.attribute("data-round", in: try player.play("normal").text))
        for key in ["w", "h", "o"] { try act(player, "key=\(key)", on: "&round=\(normalRound)") }
        let normal = try player.play("normal").text
        #expect(normal.contains("data-cheat-help"))
        #expect(normal.ranges(of: "data-hidden=\"true\"").count == 2, "2 of the 5 wrong faces")
        // Picked right with that help, it is found, not known: Right and the streak stay as they were, and the answer
        // says why (a review saw both rise for a cheat-helped pick).
        let counts = /data-session-correct="(\d+)".*data-session-streak="(\d+)"/.dotMatchesNewlines()
        let counted = try #require(normal.firstMatch(of: counts))
        try player.answerRight("normal", normal)
        let answered = try player.get("/namegame/normal").text
        #expect(answered.contains("data-identified=\"true\""))
        #expect(answered.contains("data-helped>The hint helped, so it doesn’t add to Right or to your streak."))
        let recounted = try #require(answered.firstMatch(of: counts))
        #expect((recounted.1, recounted.2) == (counted.1, counted.2))
        // On Learn's introduction it helps the question that follows, and says so (a review saw nothing change).
        let learner = Player(server)
        try learner.get("/")
        try learner.post("/namegame/next", "mode=learn")
        let intro = try learner.get("/namegame/learn").text
        #expect(intro.contains("data-intro"))
        let introRound = try #require(Player.attribute("data-round", in: intro))
        var said: JSONValue = .null
        for key in ["w", "h", "o"] {
            said = try JSONParser.parse(try act(learner, "key=\(key)", on: "&round=\(introRound)&intro=1").text)
        }
        #expect(
            said["did"]
                == .array([
                    .string(
                        "The Name Game will give you a head start on the question after this introduction: the first"
                            + " letter, or half the wrong faces gone.")
                ]))
        #expect(try learner.play("learn").text.contains("data-cheat-help"), "the question after it, helped")
        // …once the introduction is seen, too: in Normal, "Got it", and the question had all six faces (a review; the
        // mark went with the introduction's round).
        let newcomer = Player(server)
        try newcomer.get("/")
        try newcomer.post("/namegame/next", "mode=normal&resume=1")
        var next = try newcomer.get("/namegame/normal").text
        #expect(next.contains("data-intro"))
        let first = try #require(Player.attribute("data-round", in: next))
        for key in ["w", "h", "o"] { try act(newcomer, "key=\(key)", on: "&round=\(first)&intro=1") }
        for _ in 0..<4 where next.contains("data-intro") {
            let round = try #require(Player.attribute("data-round", in: next))
            try newcomer.post("/namegame/meet", "mode=normal&round=\(round)")
            next = try newcomer.get("/namegame/normal").text
        }
        #expect(!next.contains("data-intro") && next.contains("data-cheat-help"), "the question, helped")
        #expect(next.ranges(of: "data-hidden=\"true\"").count == 2, "2 of the 5 wrong faces")
        // Learn's first picks show as many faces as people met (three at least): the cheat takes half the wrong ones
        // away (a review's "half the wrong faces are gone" took none of one).
        var learn = try learner.play("learn").text
        for _ in 0..<6 where !learn.contains("data-choice=") {
            try learner.answerRight("learn", learn)
            try learner.post("/namegame/next", "mode=learn")
            learn = try learner.play("learn").text
        }
        let faces = learn.ranges(of: "data-choice=").count
        #expect(faces >= 3)
        let learnRound = try #require(Player.attribute("data-round", in: learn))
        for key in ["w", "h", "o"] { try act(learner, "key=\(key)", on: "&round=\(learnRound)") }
        let helped = try learner.play("learn").text
        #expect(
            helped.ranges(of: "data-hidden=\"true\"").count == (faces - 1) / 2 && helped.contains("data-cheat-help"))
    }
}
