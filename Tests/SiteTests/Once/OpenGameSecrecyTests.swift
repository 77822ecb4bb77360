import JSON
import Storage
import TestSupport
import Testing

@testable import ArcadeStore
@testable import ArcadeWeb

/// Nothing of a game in play leaves the server: the daily code (the same for every player today) is in no page,
/// fragment, API answer or download while the player's daily is open, and the open Name Game round's answer is not
/// in the download either.
@Suite("Open games keep their secrets")
struct OpenGameSecrecyTests {
    /// Whether `code` stands in `text` as a token of its own (not inside a longer number or word).
    static func mentions(_ text: String, _ code: String) -> Bool {
        let bytes = Array(text.utf8)
        let needle = Array(code.utf8)
        // Letters of either case (b | 0x20 is the lower case): a code inside a person's hex id ("8a0010c1") is no
        // mention of it (a clean-clone run read today's 0010 there, the upper-case range asked of lower-case bytes).
        func isWordByte(_ b: UInt8) -> Bool { (0x30...0x39).contains(b) || (0x61...0x7A).contains(b | 0x20) }
        var i = 0
        while i + needle.count <= bytes.count {
            if bytes[i..<i + needle.count].elementsEqual(needle),
                i == 0 || !isWordByte(bytes[i - 1]),
                i + needle.count == bytes.count || !isWordByte(bytes[i + needle.count])
            {
                return true
            }
            i += 1
        }
        return false
    }

    /// The paths a player can ask for: every GET route the site declares, parameters filled in (each Name Game
    /// mode, today's daily, a headshot), with and without the board fragment header.
    static func playerPaths(_ server: SiteServer) throws -> [String] {
        // The modes, as the menu offers them (each card a form that deals the mode's first round).
        let menu = try server.get("/namegame").text
        let modes = menu.split(separator: "data-mode-link=\"").dropFirst().map { String($0.prefix { $0 != "\"" }) }
        #expect(modes.count >= 5, "the menu offers the modes")
        // Event streams never end (the interceptions' is read below; the daily board's carries only a count).
        return server.site.routes.table.filter { $0.method == .get && !$0.pattern.hasSuffix("/events") }
            .flatMap { route -> [String] in
                if route.pattern.contains(":mode") {
                    return modes.map { route.pattern.replacing(":mode", with: $0) }
                }
                return [
                    route.pattern.replacing(":n", with: "0").replacing(":id", with: "1")
                        .replacing(":file", with: "en").replacing(":name", with: "missing.jpg")
                ]
            }
    }

    @Test func theDailyCodeInPlayIsInNoAnswer() throws {
        let server = try SiteServer()
        defer { server.stop() }
        let player = Player(server, from: "127.0.0.5")
        try player.get("/mastermind/daily")
        // Part of today's daily: one guess (never the code), so the game is in play.
        var answers: [(String, WireResponse)] = []
        answers.append(("guess", try player.post("/mastermind/guess", "game=0&turn=0&daily=0&guess=0000")))
        let db = try Database(location: server.database)
        let code = try #require(
            try db.first("SELECT secret FROM mastermind_games WHERE daily = 0")?.string("secret")
        )
        if code == "0000" { return }  // won at once (1 in 4,096): no game in play to keep secret
        let board = try player.get("/mastermind/daily").text
        let game = try #require(Player.attribute("data-game", in: board))
        let second = code == "1111" ? "2222" : "1111"
        answers.append(
            (
                "guess fragment",
                try player.post(
                    "/mastermind/guess", "game=\(game)&turn=1&daily=0&guess=\(second)",
                    fragment: true)
            ))
        answers.append(("refused guess", try player.post("/mastermind/guess", "game=\(game)&turn=9&daily=0&guess=9")))
        // The other actions a player has, around the daily in play.
        answers.append(("new game", try player.post("/mastermind/new", "", fragment: true)))
        answers.append(("hint", try player.post("/mastermind/hint", "confirm=1", fragment: true)))
        answers.append(("cheat", try player.post("/cheats/actions", "kind=key&value=a")))
        answers.append(("theme", try player.post("/theme", "theme=dark&back=/")))
        answers.append(("dismiss", try player.post("/once/dismiss", "task=tutorial.mastermind&back=/")))
        answers.append(("next round", try player.post("/namegame/next", "mode=normal")))
        for path in try Self.playerPaths(server) {
            for fragment in [false, true] {
                player.headers["X-Fragment"] = fragment ? "board" : nil
                do { answers.append((path + (fragment ? " (fragment)" : ""), try player.get(path))) } catch {
                    Issue.record("\(path): \(error)")
                }
            }
        }
        player.headers["X-Fragment"] = nil
        // The live stream's first event.
        let stream = try RawClient(port: server.port, from: "127.0.0.5")
        stream.send("GET /api/interceptions/events HTTP/1.1\r\nHost: t\r\nCookie: \(player.cookieHeader)\r\n\r\n")
        let streamHead = try stream.readResponse(head: true)
        let event = try #require(try stream.read(until: "\n\n", timeout: 10))
        #expect(streamHead.status == 200)
        #expect(!Self.mentions(event, code))
        #expect(answers.count > 40, "every route was walked (\(answers.count))")
        // Still in play after the walk, so every answer above was given while the code was secret.
        #expect(
            try db.first("SELECT status FROM mastermind_games WHERE daily = 0")?.string("status") == "playing")
        for (what, answer) in answers {
            // (Not Content-Length: a page of 4,062 bytes is no mention of a code 4062, as a clean clone's run met.)
            let headers = answer.headers.filter { $0.0.lowercased() != "content-length" }
            let text = answer.text + headers.map { "\($0.0): \($0.1)" }.joined(separator: "\n")
            #expect(!Self.mentions(text, code), "\(what) (\(answer.status)) names today's code \(code)")
        }
        // Once the daily is over its code may be shown, and is: the check above would have seen it.
        let won = try player.post("/mastermind/guess", "game=\(game)&turn=2&daily=0&guess=\(code)", fragment: true)
        #expect(Self.mentions(won.text, code))
        #expect(Self.mentions(try player.get("/progress/data").text, code))
    }

    /// The download of a player with the daily and a Name Game round open: neither the code nor the round's answer
    /// (nor the order its wrong faces hide in, which leaves the answer) is in it; finished, both are.
    @Test(arguments: Engine.allCases) func theDownloadWithholdsWhatIsInPlay(_ engine: Engine) throws {
        let server = try SiteServer(engine: engine)
        defer { server.stop() }
        let player = Player(server, from: "127.0.0.6")
        try player.get("/mastermind/daily")
        #expect(try player.post("/mastermind/guess", "game=0&turn=0&daily=0&guess=0000").status == 303)
        let db = try Database(location: server.database)
        let code = try #require(try db.first("SELECT secret FROM mastermind_games WHERE daily = 0")?.string("secret"))
        let page = try player.play("normal").text
        let round = try #require(Player.attribute("data-round", in: page))
        let download = try player.get("/progress/data")
        #expect(download.status == 200)
        let sections = try Self.sections(download)
        let games = try #require(sections["mastermind_games"])
        if code != "0000" {
            #expect(!Self.mentions(download.text, code), "the daily's code, in play")
            #expect(games.allSatisfy { $0["status"] != .string("playing") || $0["secret"] == .null })
        }
        let rounds = try #require(sections["namegame_rounds"])
        let open = try #require(rounds.first { $0["id"] == .integer(Int64(round)!) })
        #expect(open["status"] == .string("open"))
        #expect(open["answer"] == .null, "the open round's answer")
        let faces = try #require(sections["namegame_round_faces"])
        #expect(faces.count >= 2 && faces.allSatisfy { $0["hide_rank"] == .null })
        // Finished, they are the player's to see.
        let answer = try #require(
            try db.first("SELECT answer FROM namegame_rounds WHERE id = ?", [.integer(Int64(round)!)])?.int("answer"))
        #expect(try player.post("/namegame/answer", "mode=normal&round=\(round)&choice=\(answer)").status == 303)
        let game = try #require(Player.attribute("data-game", in: try player.get("/mastermind/daily").text))
        _ = try player.post("/mastermind/guess", "game=\(game)&turn=1&daily=0&guess=\(code)")
        let after = try Self.sections(try player.get("/progress/data"))
        #expect(
            after["namegame_rounds"]?.first { $0["id"] == .integer(Int64(round)!) }?["answer"]
                == .integer(Int64(answer)))
        #expect(after["mastermind_games"]?.contains { $0["secret"] == .string(code) } == true)
    }

    /// The download's tables, each a list of rows (column → value).
    static func sections(_ download: WireResponse) throws -> [String: [[String: JSONValue]]] {
        guard case .object(let sections) = try JSONParser.parse(download.body) else {
            throw TestFailure("not an object: \(download.text.prefix(200))")
        }
        var tables: [String: [[String: JSONValue]]] = [:]
        for (name, value) in sections {
            guard case .array(let rows) = value else { continue }
            tables[name] = rows.compactMap { row in
                guard case .object(let fields) = row else { return nil }
                return Dictionary(fields, uniquingKeysWith: { a, _ in a })
            }
        }
        return tables
    }
}
