import Crypto
import Files
import JSON
import Storage
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite("Acknowledged writes survive kill -9")
struct DurabilityTests {
    /// The player id inside a signed `arcade_player` cookie (`ID.FIRSTSEEN`, signed).
    static func playerID(_ cookie: String) -> String? {
        guard let payload = cookie.split(separator: ".").first, let bytes = Base64URL.decode(String(payload)) else {
            return nil
        }
        return String(decoding: bytes, as: UTF8.self).split(separator: ".").first.map(String.init)
    }

    static let konamiSwipes = ["up", "up", "down", "down", "left", "right", "left", "right"]

    /// 50 players on 8 pipelined connections post Mastermind guesses and cheat actions, which the
    /// writer commits in groups; the server is killed mid-stream. Every write it answered must be in
    /// the database: each answered guess is a stored guess, each answered action a step of stored progress.
    @Test(arguments: Engine.allCases, [30, 200, 500])
    func everyAnsweredWriteIsInTheFile(_ engine: Engine, _ killAfter: Int) throws {
        let scratch = ScratchDirectory()
        let database = try TestDatabase.fresh(engine, in: scratch, name: "durable")
        let child = try ChildProcess(Self.arguments(database, config: try Self.config(in: scratch)))
        try Self.killMidStream(database, ports: [try child.waitForPort()], victim: child, killAfter: killAfter)
    }

    /// Two instances on one PostgreSQL take writes; one is killed: what it answered is kept and served by the other,
    /// which goes on.
    @Test func killingOneOfTwoInstancesLosesNothingItAnswered() throws {
        let scratch = ScratchDirectory()
        let database = try TestDatabase.fresh(.postgresql, in: scratch, name: "pair")
        let config = try Self.config(in: scratch)
        let a = try ChildProcess(Self.arguments(database, config: config))
        let portA = try a.waitForPort(timeout: 30)
        let b = try ChildProcess(Self.arguments(database, config: config))
        let portB = try b.waitForPort(timeout: 30)
        try Self.killMidStream(database, ports: [portA, portB], victim: a, killAfter: 150)
        // B still serves, reads and writes.
        let survivor = Player(RemoteSite(port: portB, database: database))
        #expect(try survivor.get("/mastermind").status == 200)
        #expect(try survivor.post("/cheats/actions", "kind=swipe&value=up").status == 200)
    }

    /// Fifty players from one address: the new-player limit (30 a minute per address) is lifted, as the bench does.
    static func arguments(_ database: DatabaseLocation, config: String) -> [String] {
        [
            "--port", "0", "--db", database.argument, "--access-log", "off", "--workers", "2", "--config", config,
            "--new-players-per-minute", "1000",
        ]
    }

    /// The site's Config folder with the Konami code's 2-second window lifted: on a loaded machine one player's
    /// swipes came further apart than that, the progress started again, and kept writes read as lost ("0 of 5
    /// swipes" in a CI run). What is measured here is durability, not the window.
    static func config(in scratch: ScratchDirectory) throws -> String {
        let folder = scratch.path + "/Config"
        #expect(system("cp -r Config '\(folder)'") == 0)
        let cheats = String(decoding: try #require(Files.read(folder + "/cheats.json")), as: UTF8.self)
        let lifted = cheats.replacing("\"name\": \"konami\",", with: "\"name\": \"konami\", \"timeout\": null,")
        try #require(lifted != cheats, "the Konami code is in cheats.json")
        scratch.write("Config/cheats.json", lifted)
        return folder
    }

    /// The fields of the board's guess form, as a browser would post them back.
    static func guessForm(_ board: WireResponse) throws -> (csrf: String, game: String, turn: Int) {
        let html = board.text
        let csrf = try #require(Player.attribute("name=\"csrf\" value", in: html), "no guess form: \(board.status)")
        let game = try #require(Player.attribute("name=\"game\" value", in: html))
        let turn = try #require(Player.attribute("name=\"turn\" value", in: html).flatMap { Int($0) })
        return (csrf, game, turn)
    }

    /// Seats 50 players, spreads their connections over `ports`, kills `victim` once it has answered `killAfter`
    /// writes, and checks that every write any instance answered is in the database.
    static func killMidStream(_ database: DatabaseLocation, ports: [Int], victim: ChildProcess, killAfter: Int) throws {
        struct Seat {
            let id: String
            let cookie: String
            let csrf: String
            let game: String
            let turn: Int
            let secret: String
            let port: Int
        }
        let db = try Database(location: database)
        var seats: [Seat] = []
        for i in 0..<50 {
            let port = ports[(i % 8) % ports.count]
            // As a browser: the unstarted board's form (game 0 deals a game), then the board it lands on.
            let player = Player(RemoteSite(port: port, database: database))
            var form = try Self.guessForm(try player.get("/mastermind"))
            #expect(form.game == "0" && form.turn == 0, "an unstarted board")
            player.csrf = form.csrf
            let first = try player.post("/mastermind/guess", "game=0&turn=0&guess=0123")
            #expect(first.status == 303, "first guess: \(first.status)")
            var board = try player.get("/mastermind")
            if !board.text.contains("name=\"turn\"") {
                // 0123 won (one deal in 4,096): the result's "new game" form.
                #expect(try player.post("/mastermind/new", "").status == 303)
                board = try player.get("/mastermind")
            }
            form = try Self.guessForm(board)
            let id = try #require(player.cookies["arcade_player"].flatMap(Self.playerID))
            let game = try #require(Int64(form.game))
            let secret = try #require(
                try db.first(
                    "SELECT secret FROM mastermind_games WHERE id = ? AND player = ?",
                    [.integer(game), .text(id)])?.string("secret"))
            seats.append(
                Seat(
                    id: id, cookie: player.cookieHeader, csrf: form.csrf, game: form.game, turn: form.turn,
                    secret: secret, port: port))
        }

        // Each connection carries its players' writes, interleaved: a guess, then a swipe, eight times. Each guess
        // is wrong and posts the board's next turn, so every one is a write the server must answer 303.
        let connectionPorts = (0..<8).map { ports[$0 % ports.count] }
        let clients = try connectionPorts.map { try RawClient(port: $0) }
        var expected: [[(player: String, kind: String)]] = Array(repeating: [], count: 8)
        for (c, client) in clients.enumerated() {
            var wire = ""
            for step in 0..<8 {
                for seat in seats.enumerated().filter({ $0.offset % 8 == c }).map(\.element) {
                    let guess =
                        "csrf=\(seat.csrf)&game=\(seat.game)&turn=\(seat.turn + step)"
                        + "&guess=\(wrong(seat.secret, step * 7 + 1))"
                    let swipe = "csrf=\(seat.csrf)&kind=swipe&value=\(Self.konamiSwipes[step])"
                    let writes = [("/mastermind/guess", guess, "guess"), ("/cheats/actions", swipe, "swipe")]
                    for (path, body, kind) in writes {
                        wire +=
                            "POST \(path) HTTP/1.1\r\nHost: t\r\nCookie: \(seat.cookie)\r\n"
                            + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
                        expected[c].append((seat.id, kind))
                    }
                }
            }
            client.send(wire)
        }
        let victimPort = ports[0]
        // The guesses already on each board (its first, answered before the stream) count too.
        var answered = Dictionary(uniqueKeysWithValues: seats.map { ($0.id, ["guess": $0.turn]) })
        var byVictim: [String: Int] = [:]
        var next = Array(repeating: 0, count: 8)
        var fromVictim = 0
        var killed = false
        while true {
            var progressed = false
            for (c, client) in clients.enumerated() where next[c] < expected[c].count {
                let onVictim = connectionPorts[c] == victimPort
                guard let response = try? client.readResponse(timeout: killed && onVictim ? 0.5 : 10) else { continue }
                progressed = true
                let (player, kind) = expected[c][next[c]]
                next[c] += 1
                let ok = response.status == (kind == "guess" ? 303 : 200)
                #expect(ok, "\(kind): \(response.status)")
                guard ok else { continue }
                answered[player, default: [:]][kind, default: 0] += 1
                if onVictim {
                    byVictim[kind, default: 0] += 1
                    fromVictim += 1
                }
                if !killed && fromVictim >= killAfter {
                    victim.signal(SIGKILL)
                    killed = true
                }
            }
            if !progressed { break }
        }
        #expect(killed, "the server was killed mid-stream")
        #expect(victim.wait(timeout: 5) == 128 + SIGKILL)
        // The floor: the victim acknowledged at least `killAfter` writes before it was killed, guesses and swipes
        // alternating on each connection, so none of the checks below passes on writes that never happened.
        #expect(fromVictim >= killAfter)
        #expect(byVictim["guess", default: 0] >= killAfter / 2, "guesses the victim answered: \(byVictim)")
        #expect(byVictim["swipe", default: 0] >= killAfter / 2 - 8, "swipes the victim answered: \(byVictim)")

        let after = try Database(location: database)
        var lost: [String] = []
        for (player, counts) in answered {
            let guesses =
                try after.first(
                    """
                    SELECT COUNT(*) AS n FROM mastermind_guesses g JOIN mastermind_games m ON m.id = g.game WHERE m.player = ?
                    """, [.text(player)])?.int("n") ?? 0
            if guesses < counts["guess", default: 0] {
                lost.append("\(player): \(guesses) of \(counts["guess", default: 0]) guesses")
            }
            let progress =
                try after.first("SELECT progress FROM cheat_progress WHERE player = ?", [.text(player)])?.string(
                    "progress") ?? ""
            let steps = (try? JSONParser.parse(progress))?["konami"]?["recent"]?.array?.count ?? 0
            if steps < counts["swipe", default: 0] {
                lost.append("\(player): \(steps) of \(counts["swipe", default: 0]) swipes")
            }
        }
        #expect(lost.isEmpty, "acknowledged writes lost: \(lost.prefix(5))")
        if ports.count > 1 {
            // The survivor answered all of its connections' writes.
            for c in connectionPorts.indices where connectionPorts[c] != victimPort {
                #expect(next[c] == expected[c].count, "connection \(c) to the survivor stopped at \(next[c])")
            }
            // And it shows each of the victim's players every guess the victim answered.
            var unseen: [String] = []
            var shown = 0
            for seat in seats where seat.port == victimPort {
                let answeredGuesses = answered[seat.id]?["guess"] ?? 0
                let client = try RawClient(port: ports[1])
                client.send(
                    "GET /mastermind HTTP/1.1\r\nHost: t\r\nCookie: \(seat.cookie)\r\nConnection: close\r\n\r\n")
                let rows = try client.readResponse().text.ranges(of: " data-guess=\"").count
                if rows < answeredGuesses { unseen.append("\(seat.id): \(rows) of \(answeredGuesses) guesses") }
                shown += min(rows, answeredGuesses)
            }
            #expect(unseen.isEmpty, "answered by the victim, not shown by the survivor: \(unseen.prefix(5))")
            // The floor: the survivor showed at least the guesses the victim answered mid-stream.
            #expect(shown >= killAfter / 2, "guess rows the survivor showed for the victim's players: \(shown)")
        }
    }
}
