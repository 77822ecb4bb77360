import Storage
import TestSupport
import Testing

/// A one-time code moves a player to another client with plain forms (no script): each client its own loopback
/// address, on both engines.
@Suite("Transfer codes: progress to another device without a passkey")
struct TransferCodeTests {
    /// The player a client's cookie names, read back from the server's rows it owns.
    private func stats(_ player: Player) throws -> String {
        let page = try player.get("/mastermind/stats").text
        return "\(Player.attribute("data-played", in: page) ?? "?")/\(Player.attribute("data-wins", in: page) ?? "?")"
    }

    private func code(_ page: WireResponse) throws -> String {
        try #require(Player.attribute("data-code", in: page.text), "no code on \(page.text.prefix(300))")
    }

    private func count(_ server: any Endpoint, _ sql: String) throws -> Int {
        try Database(location: server.database).scalar(Int.self, sql)
    }

    @Test(arguments: Engine.allCases) func aCodeMovesAPlayerOnceAndOnlyWithinItsTime(_ engine: Engine) throws {
        let server = try SiteServer(engine: engine)
        defer { server.stop() }
        let home = Player(server, from: "127.0.0.2")
        let game = try home.startMastermind()
        #expect(try home.post("/mastermind/guess", "game=\(game)&turn=0&guess=\(try home.secret())").status == 303)
        #expect(try stats(home) == "1/1")

        let made = try home.post("/progress/transfer", "")
        #expect(made.status == 200)
        let shown = try code(made)
        #expect(shown.wholeMatch(of: /[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}/) != nil, "\(shown)")
        #expect(made.text.contains("<svg class=\"qr-code\""), "a QR code, inline")

        // Typed on another device in lower case without its dash: that device becomes the player.
        let phone = Player(server, from: "127.0.0.3")
        try phone.get("/progress")
        #expect(try stats(phone) == "0/0")
        let typed = shown.lowercased().filter { $0 != "-" }
        let moved = try phone.post("/progress/transfer/use", "code=\(typed)")
        #expect(moved.status == 303)
        #expect(
            moved.header("Location") == "/progress?passkey=signedin#passkeys", "a phone that never played merges none")
        #expect(try stats(phone) == "1/1")
        #expect(try phone.get("/progress?passkey=signedin").text.contains("Welcome back"))

        // A device that has played is asked first, and nothing moves until it says yes.
        let laptop = Player(server, from: "127.0.0.5")
        try laptop.startMastermind()
        let laptopID = laptop.cookies["arcade_player"]
        let next = try code(try home.post("/progress/transfer", ""))
        let asked = try laptop.post("/progress/transfer/use", "code=\(next)")
        #expect(asked.status == 200 && asked.text.contains("data-transfer-confirm"))
        #expect(laptop.cookies["arcade_player"] == laptopID)
        #expect(try count(server, "SELECT COUNT(*) AS n FROM transfer_codes") == 1, "the code is still there")
        let joined = try laptop.post("/progress/transfer/use", "code=\(next)&confirm=1")
        #expect(joined.header("Location") == "/progress?passkey=merged#passkeys")
        #expect(try stats(laptop) == "1/1", "the player's figures, and the laptop's board still in play")
        #expect(try count(server, "SELECT COUNT(*) AS n FROM mastermind_games WHERE status = 'playing'") == 1)

        // Used once: a third client is refused, and stays who it was.
        let third = Player(server, from: "127.0.0.4")
        try third.get("/progress")
        let cookie = third.cookies["arcade_player"]
        let again = try third.post("/progress/transfer/use", "code=\(typed)")
        #expect(again.header("Location") == "/progress?transfer=wrong#transfer")
        #expect(third.cookies["arcade_player"] == cookie)
        #expect(try third.get("/progress?transfer=wrong").text.contains("That code didn’t work"))

        // Expired: ten minutes on, the code moves nothing.
        let late = try code(try home.post("/progress/transfer", ""))
        try Database(location: server.database).execute("UPDATE transfer_codes SET expires_ms = 1")
        #expect(try third.post("/progress/transfer/use", "code=\(late)").header("Location")?.contains("wrong") == true)
        #expect(third.cookies["arcade_player"] == cookie)

        // A device cannot take its own code; a new code replaces the last.
        let first = try code(try home.post("/progress/transfer", ""))
        let own = try code(try home.post("/progress/transfer", ""))
        #expect(try count(server, "SELECT COUNT(*) AS n FROM transfer_codes") == 1)
        #expect(try home.post("/progress/transfer/use", "code=\(own)").header("Location")?.contains("own") == true)
        #expect(try third.post("/progress/transfer/use", "code=\(first)").header("Location")?.contains("wrong") == true)
        #expect(try count(server, "SELECT COUNT(*) AS n FROM transfer_codes") == 1, "refusals write nothing")
    }

    /// Guessing costs the guesser: ten tries an address, five a code, then 429 with Retry-After, and no row written.
    /// Where passkeys cannot work (no --public-host, not localhost), a player reads why in a player's words and the
    /// code instead; never the admin's flag (a review read "its admin sets it with --public-host").
    @Test func withoutPasskeysAPlayerIsOfferedTheCodeInTheirOwnWords() throws {
        let server = try SiteServer(engine: .sqlite)
        defer { server.stop() }
        let page = try Player(server).get("/progress").text
        #expect(page.contains("data-passkey-unavailable>Passkeys are not available at this site’s address yet"))
        #expect(!page.contains("--public-host"))
    }

    @Test func guessingIsLimitedPerAddressAndPerCode() throws {
        let server = try SiteServer(engine: .sqlite)
        defer { server.stop() }
        // A player already (a client without a row is held back by the new-player limit first).
        let guesser = Player(server, from: "127.0.0.5")
        try guesser.startMastermind()
        let other = Player(server, from: "127.0.1.1")
        try other.startMastermind()
        let players = try count(server, "SELECT COUNT(*) AS n FROM players")
        var statuses: [Int] = []
        for n in 0..<11 {
            statuses.append(try guesser.post("/progress/transfer/use", "code=\(100 + n)ABCDE").status)
        }
        #expect(statuses == Array(repeating: 303, count: 10) + [429])
        let limited = try guesser.post("/progress/transfer/use", "code=ZZZZZZZZ")
        #expect(limited.status == 429 && limited.header("Retry-After") != nil)

        // One code's first three characters from one address: the sixth try waits; another address is not locked out
        // by it (an attacker's review locked a player's own code so).
        var perCode: [Int] = []
        for n in 0..<6 { perCode.append(try other.post("/progress/transfer/use", "code=XYZ\(10_000 + n)").status) }
        #expect(perCode == Array(repeating: 303, count: 5) + [429])
        let owner = Player(server, from: "127.0.1.2")
        try owner.get("/progress")
        #expect(try owner.post("/progress/transfer/use", "code=XYZ20000").status == 303)
        #expect(try count(server, "SELECT COUNT(*) AS n FROM players") == players, "no player was made")
        #expect(try count(server, "SELECT COUNT(*) AS n FROM transfer_codes") == 0)
    }
}
