import Storage
import Synchronization
import TestSupport
import Testing

@testable import ArcadeStore
@testable import ArcadeWeb

/// Anonymous clients cannot grow the database without bound: actions without a player cookie (each makes a
/// player) are limited per address, page views write no row each, and a full write queue answers 503 at once.
@Suite("Anonymous growth", .serialized)
struct AnonymousGrowthTests {
    func count(_ table: String, _ server: SiteServer) throws -> Int {
        try Database(location: server.database).scalar(Int.self, "SELECT COUNT(*) AS n FROM \(table)")
    }

    /// The buckets refill a token every two seconds: the clock stands still, so a slow machine's forty requests are
    /// counted against the thirty alone (a CI run on a busy machine let a thirty-first through).
    static func stillServer() throws -> SiteServer {
        try SiteServer(routes: nil) { $0.clock = { 1_800_000_000 } }
    }

    @Test func droppingThePlayerCookieMakesOnlySoManyPlayersPerAddress() throws {
        let server = try Self.stillServer()
        defer { server.stop() }
        let bot = Player(server, from: "127.0.0.2")
        try bot.get("/")
        var statuses: [Int] = []
        var retry: String?
        for _ in 0..<40 {
            bot.cookies[Visitor.playerCookie] = nil
            let answer = try bot.post("/cheats/actions", "kind=key&value=a")
            statuses.append(answer.status)
            if answer.status == 429 { retry = answer.header("Retry-After") }
        }
        #expect(statuses.filter { $0 == 200 }.count == 30, "\(statuses)")
        #expect(statuses.filter { $0 == 429 }.count == 10)
        #expect(Int(retry ?? "") ?? 0 >= 1)
        #expect(try count("players", server) <= 30)
        // Another address, and a player who keeps their cookie, are not held back.
        let other = Player(server, from: "127.0.0.3")
        try other.get("/")
        #expect(try other.post("/cheats/actions", "kind=key&value=a").status == 200)
        #expect(try other.post("/cheats/actions", "kind=key&value=b").status == 200)
    }

    /// An attacker's review: a page view hands out a player cookie and writes nothing, and the post that followed was
    /// not counted (it carried a cookie), so one address made 3,000 players in 20 s. A minted player is charged at its
    /// first action; after it, never again.
    @Test func aPlayerAPageMintedIsChargedAtItsFirstAction() throws {
        let server = try Self.stillServer()
        defer { server.stop() }
        var statuses: [Int] = []
        var first: Player?
        for _ in 0..<40 {
            let bot = Player(server, from: "127.0.0.5")
            try bot.get("/mastermind")
            statuses.append(try bot.post("/mastermind/guess", "game=0&turn=0&guess=0123").status)
            first = first ?? bot
        }
        #expect(statuses.filter { $0 == 303 }.count == 30, "\(statuses)")
        #expect(statuses.filter { $0 == 429 }.count == 10)
        #expect(try count("players", server) == 30)
        // A player made is not charged again: the first keeps playing though the address's bucket is empty.
        let player = try #require(first)
        let game = try #require(Player.attribute("data-game", in: try player.get("/mastermind").text))
        for turn in 1..<4 {
            #expect(try player.post("/mastermind/guess", "game=\(game)&turn=\(turn)&guess=456\(turn)").status == 303)
        }
    }

    @Test func pageViewsWithoutTheSessionCookieWriteNoRowEach() throws {
        let server = try SiteServer()
        defer { server.stop() }
        let player = Player(server, from: "127.0.0.4")
        try player.get("/")
        #expect(try player.post("/cheats/actions", "kind=key&value=a").status == 200)
        let sessions = try count("once_sessions", server)
        for _ in 0..<30 {
            player.cookies = player.cookies.filter { $0.key == Visitor.playerCookie }
            #expect(try player.get("/").status == 200)
        }
        // Anything queued by those views is committed before this acknowledged action answers.
        try player.get("/")
        #expect(try player.post("/cheats/actions", "kind=key&value=b").status == 200)
        #expect(try count("once_sessions", server) <= sessions + 1)
        #expect(try count("players", server) == 1)
    }

    @Test func aFullWriteQueueAnswers503AtOnce() throws {
        let server = try SiteServer(routes: nil) {
            $0.commitDelay = 0.3
            $0.maxQueuedWrites = 2
        }
        defer { server.stop() }
        let players = try (10..<26).map { n in
            let player = Player(server, from: "127.0.0.\(n)")
            try player.get("/")
            return player
        }
        let answers = Mutex<[Int: [String?]]>([:])
        concurrently(players.count) { i in
            guard let answer = try? players[i].post("/cheats/actions", "kind=key&value=a") else { return }
            let (status, retry) = (answer.status, answer.header("Retry-After"))
            answers.withLock { $0[status, default: []].append(retry) }
        }
        let seen = answers.withLock { $0 }
        #expect(Set(seen.keys).isSubset(of: [200, 503]), "\(seen.mapValues(\.count))")
        #expect((seen[503] ?? []).count >= 1, "\(seen.mapValues(\.count))")
        #expect((seen[503] ?? []).allSatisfy { $0 == "1" })
        #expect((seen[200] ?? []).count >= 2)
    }
}
