import Storage
import TestSupport
import Testing

@testable import ArcadeStore
@testable import ArcadeWeb

/// Today's board with players on both engines: counts of everyone, names only of those who chose one, refreshed live;
/// names that pass for another's refused.
@Suite("Today's board and players' names")
struct DailyBoardTests {
    private func guess(_ player: Player, game: String, turn: Int, _ code: String) throws {
        #expect(
            try player.post("/mastermind/guess", "game=\(game)&turn=\(turn)&daily=0&guess=\(code)").header("Location")
                .map { $0.hasPrefix("/mastermind/daily#") } == true)
    }

    private func name(_ player: Player, _ name: String) throws -> String? {
        try player.post("/progress/name", "name=\(name)").header("Location")
    }

    @Test(arguments: Engine.allCases) func theBoardNamesOnlyWhoChoseToAppear(_ engine: Engine) throws {
        let server = try SiteServer(engine: engine)
        defer { server.stop() }
        let ann = Player(server, from: "127.0.0.2")
        let bob = Player(server, from: "127.0.0.3")
        let cy = Player(server, from: "127.0.0.4")
        for player in [ann, bob, cy] { try player.get("/mastermind/daily") }
        #expect(try name(ann, "Ann") == "/progress?name=saved#name")
        #expect(try name(cy, "Cy") == "/progress?name=saved#name")
        // Look-alikes of a name taken, and the site's own words, are refused; nothing is written.
        #expect(try name(bob, "%D0%90nn") == "/progress?name=taken#name", "a Cyrillic A")
        #expect(try name(bob, "A+n+n") == "/progress?name=taken#name", "spaces")
        #expect(try name(bob, "The+Adm1n") == "/progress?name=refused#name")
        #expect(try name(bob, "x") == "/progress?name=invalid#name")
        #expect(try name(bob, "%3Cb%3E") == "/progress?name=invalid#name")
        #expect(try bob.get("/progress").text.contains("value=\"\""), "Bob has no name")

        try guess(ann, game: "0", turn: 0, "0000")
        let code = try DailySiteTests.secret(server, player: ann, day: 0)
        let game = try #require(Player.attribute("data-game", in: try ann.get("/mastermind/daily").text))
        try guess(ann, game: game, turn: 1, code == "0000" ? "1111" : code)
        if code == "0000" { try guess(ann, game: game, turn: 2, code) }
        try guess(bob, game: "0", turn: 0, code)
        try guess(cy, game: "0", turn: 0, code == "1111" ? "2222" : "1111")

        let board = try cy.get("/mastermind/daily/board").text
        #expect(Player.attribute("data-played", in: board) == "3")
        #expect(Player.attribute("data-solved", in: board) == "2")
        #expect(board.ranges(of: "<li data-rank=").count == 1 && board.contains(">Ann<"))
        #expect(!board.contains(code), "nothing of the code on the board while Cy plays")
        // Cy, still playing, is offered today's code; Ann, done with it, free play (a review was offered a daily
        // already finished).
        #expect(board.contains("data-board-play>") && !board.contains("data-board-free"))
        let annBoard = try ann.get("/mastermind/daily/board").text
        #expect(annBoard.contains("<a href=\"/mastermind\" data-board-free>Free play</a>"))
        #expect(!annBoard.contains("data-board-play"))

        // Live: an open stream hears of Cy's win, and the board then names Cy after Ann (fewer guesses first).
        let stream = try RawClient(port: server.port)
        stream.send("GET /mastermind/daily/board/events HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(try stream.readResponse(head: true).header("Content-Type")?.hasPrefix("text/event-stream") == true)
        let cyGame = try #require(Player.attribute("data-game", in: try cy.get("/mastermind/daily").text))
        try guess(cy, game: cyGame, turn: 1, code)
        let event = try stream.read(until: "event: board", timeout: 20)
        #expect(event != nil, "the board's stream tells of the game that ended")
        let after = try ann.get("/mastermind/daily/board").text
        let names = after.matches(of: /<span class="board-name">([^<]+)<\/span>/).map { String($0.1) }
        #expect(names == (code == "0000" ? ["Cy", "Ann"] : ["Ann", "Cy"]))
        #expect(Player.attribute("data-solved", in: after) == "3")
        // Cleared, Ann is anonymous everywhere.
        #expect(try name(ann, "") == "/progress?name=cleared#name")
        #expect(!(try ann.get("/mastermind/daily/board").text.contains(">Ann<")))
    }

    @Test func namesFoldLookAlikes() throws {
        #expect(DisplayName.key("Ann") == DisplayName.key("АNN"))
        #expect(DisplayName.key("Bob 1") == DisplayName.key("b0bl"))
        #expect(DisplayName.key("rnary") == DisplayName.key("Mary"))
        // Precomposed and combining accents read the same, and as the bare letter.
        #expect(
            DisplayName.key("Zoë") == DisplayName.key("Zoe\u{308}") && DisplayName.key("Zoë") == DisplayName.key("Zoe"))
        #expect(DisplayName.key("Łukasz Żółw") == DisplayName.key("lukasz zolw"))
        #expect(throws: DisplayName.Problem.invalid) { try DisplayName("a\u{202E}b") }
        #expect(throws: DisplayName.Problem.invalid) { try DisplayName(String(repeating: "a", count: 25)) }
        #expect(try DisplayName("  Ann   Lee ").text == "Ann Lee")
        #expect(try DisplayName("Zoë").text == "Zoë")
        #expect(try DisplayName("Ana").holdsRefused(["na"]))
        #expect(try !DisplayName("Ana").holdsRefused([]))
        #expect(try DisplayName("Mod Squad").holdsRefused(["mod"]))
    }
}

/// The Name Game's week board with three players on both engines: only who chose a name, by people met this week and
/// learned since.
@Suite("The Name Game's week board")
struct WeekBoardTests {
    @Test(arguments: Engine.allCases) func namedLearnersOnlyMostFirst(_ engine: Engine) throws {
        let server = try SiteServer(engine: engine)
        defer { server.stop() }
        let players = ["127.0.0.2", "127.0.0.3", "127.0.0.4"].map { Player(server, from: $0) }
        for player in players { try player.get("/namegame/board") }
        #expect(try players[0].post("/progress/name", "name=Ada").status == 303)
        #expect(try players[2].post("/progress/name", "name=Cleo").status == 303)
        let db = try Database(location: server.database)
        let ids = try players.map { try #require(DurabilityTests.playerID($0.cookies["arcade_player"] ?? "")) }
        try players[1].startMastermind()  // Bo has a row too, and no name
        // This week's meetings, learned a day later or more; one not learned yet, one met last week.
        let now = Int64(WallClock.system() * 1000)
        let monday = (now / 86_400_000 - (now / 86_400_000 + 3) % 7) * 86_400_000
        func card(_ player: String, _ person: String, met: Int64, stability: Double, last: Int64) throws {
            try db.execute(
                """
                INSERT INTO namegame_cards (player, person, state, stability, difficulty, due_ms, last_ms, met_ms)
                VALUES (?, ?, 'review', ?, 5, ?, ?, ?)
                """,
                [
                    .text(player), .text(person), .real(stability), .integer(last + 86_400_000), .integer(last),
                    .integer(met),
                ])
        }
        let day: Int64 = 86_400_000
        try card(ids[0], "p1", met: monday, stability: 9, last: monday + day)
        try card(ids[1], "p1", met: monday, stability: 9, last: monday + day)
        try card(ids[1], "p2", met: monday, stability: 9, last: monday + day)
        try card(ids[2], "p1", met: monday, stability: 9, last: monday + day)
        try card(ids[2], "p2", met: monday, stability: 9, last: monday + 2 * day)
        try card(ids[2], "p3", met: monday, stability: 2, last: monday + day)
        try card(ids[2], "p4", met: monday - 7 * day, stability: 9, last: monday + day)
        let page = try players[0].get("/namegame/board").text
        let rows = page.matches(of: /data-learned="(\d+)"><span class="board-name">([^<]+)</).map { "\($0.2)=\($0.1)" }
        #expect(rows == ["Cleo=2", "Ada=1"])
    }
}
