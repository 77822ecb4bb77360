import Storage
import TestSupport
import Testing

@testable import ArcadeStore
@testable import ArcadeWeb

/// The home page keeps what it shows of a player's games in memory: the player's own actions show at once, a change
/// made elsewhere (another instance, a card falling due) within `HomeSummaries.lifetime`.
@Suite("The home page")
struct HomeSiteTests {
    static func panels(_ player: Player) throws -> (outcome: String?, streak: String?, review: String?, found: String?)
    {
        let home = try player.get("/").text
        return (
            Player.attribute("data-outcome", in: home), Player.attribute("data-daily-streak", in: home),
            Player.attribute("data-review-today", in: home), Player.attribute("data-found", in: home)
        )
    }

    @Test func showsWhatThePlayersActionsChangedAtOnce() throws {
        let clock = DailySiteTests.Clock()
        let server = try DailySiteTests.server(clock)
        defer { server.stop() }
        let ann = Player(server)
        var panels = try Self.panels(ann)
        #expect(panels.outcome == "playing" && panels.streak == "0" && panels.review == "" && panels.found == "0")
        // The daily, won: the clock has not moved, so only the action itself can have made the page say so.
        try ann.get("/mastermind/daily")
        #expect(try ann.post("/mastermind/guess", "game=0&turn=0&daily=0&guess=0123").status == 303)
        let code = try DailySiteTests.secret(server, player: ann, day: 0)
        let game = try #require(Player.attribute("data-game", in: try ann.get("/mastermind/daily").text))
        if code != "0123" {
            #expect(try ann.post("/mastermind/guess", "game=\(game)&turn=1&daily=0&guess=\(code)").status == 303)
        }
        panels = try Self.panels(ann)
        #expect(panels.outcome == "won" && panels.streak == "1")
        // A cheat found (a deferred action) and a Name Game round answered.
        try ann.post("/cheats/actions", "kind=shake&value=")
        try ann.post("/cheats/actions", "kind=shake&value=")
        #expect(try Self.panels(ann).found == "1")
        try ann.answerRounds("learn", count: 1)
        #expect(try Self.panels(ann).review != "")
        // Changed behind the site's back: the page shows what it kept until the summary's lifetime is over.
        let db = try Database(location: server.database)
        let id = try #require(DurabilityTests.playerID(ann.cookies["arcade_player"] ?? ""))
        _ = try db.execute("UPDATE mastermind_games SET daily = NULL WHERE player = ?", [.text(id)])
        #expect(try Self.panels(ann).outcome == "won", "served from memory")
        clock.seconds.withLock { $0 += HomeSummaries.lifetime + 1 }
        panels = try Self.panels(ann)
        #expect(panels.outcome == "playing" && panels.streak == "0")
    }
}
