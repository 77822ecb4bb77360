import Storage
import Synchronization
import TestSupport
import Testing

@testable import ArcadeStore
@testable import ArcadeWeb

#if canImport(Glibc)
import Glibc
#endif

/// One cookie stays small: actions that make rows are held to a person's pace (429 with `Retry-After` beyond), a
/// player's games are bounded with their figures kept as running totals, and abandoned games do not keep a player
/// from being forgotten.
@Suite("A player's budget and bounded rows", .serialized)
struct PlayerBudgetTests {
    /// A clock the test moves.
    final class Clock: Sendable {
        let seconds = Mutex<Double>(Double(time(nil)))
        func advance(_ by: Double) { seconds.withLock { $0 += by } }
        var now: Double { seconds.withLock { $0 } }
    }

    static func server(_ clock: Clock, engine: Engine = .sqlite) throws -> SiteServer {
        try SiteServer(engine: engine, routes: nil) { $0.clock = { clock.now } }
    }

    static func count(_ sql: String, _ server: SiteServer, _ values: [SQLValue] = []) throws -> Int {
        try Database(location: server.database).scalar(Int.self, sql, values)
    }

    @Test func hammeringNewGamesGets429AfterTheBurst() throws {
        let clock = Clock()
        let server = try Self.server(clock)
        defer { server.stop() }
        let bot = Player(server, from: "127.0.0.7")
        try bot.get("/")
        var statuses: [Int: Int] = [:]
        var refused: WireResponse?
        for _ in 0..<100 {
            let answer = try bot.post("/mastermind/new", "")
            statuses[answer.status, default: 0] += 1
            if answer.status == 429 { refused = answer }
        }
        #expect(statuses[303] == PlayerBudget<PlayerContext>.burst, "\(statuses)")
        #expect(statuses[429] == 100 - PlayerBudget<PlayerContext>.burst)
        let page = try #require(refused)
        #expect(Int(page.header("Retry-After") ?? "") ?? 0 >= 1)
        #expect(page.text.contains("You started a lot of new games and rounds just now"), "a page for a person")
        // Name Game rounds draw on the same budget; guessing does not.
        #expect(try bot.post("/namegame/next", "mode=normal").status == 429)
        let game = try #require(Player.attribute("data-game", in: try bot.get("/mastermind").text))
        #expect(try bot.post("/mastermind/guess", "game=\(game)&turn=0&guess=0123").status == 303)
        // A person's pace comes back: one more a second.
        clock.advance(3)
        #expect(try bot.post("/mastermind/new", "").status == 303)
        // Another player is not held back.
        let other = Player(server, from: "127.0.0.8")
        try other.get("/")
        #expect(try other.post("/mastermind/new", "").status == 303)
    }

    /// 130 games started, 117 with a guess: only the newest `keptGames` stay, with their guesses; the statistics count
    /// all 117 from the totals; games abandoned without a guess leave no row and no count.
    @Test(arguments: Engine.allCases) func aPlayersGamesStayBoundedAndTheirFiguresAreKept(_ engine: Engine) throws {
        let clock = Clock()
        let server = try Self.server(clock, engine: engine)
        defer { server.stop() }
        let player = Player(server, from: "127.0.0.9")
        try player.get("/")
        for n in 0..<130 {
            clock.advance(2)
            let game = try player.startMastermind()
            if n % 10 == 9 { continue }  // abandoned untouched by the next start
            #expect(
                try player.post("/mastermind/guess", "game=\(game)&turn=0&guess=\(wrong(try player.secret(), n))")
                    .status == 303)
        }
        clock.advance(2)
        try player.startMastermind()  // ends the last game
        let games = try Self.count("SELECT COUNT(*) AS n FROM mastermind_games", server)
        #expect(games <= MastermindStore.keptGames + 1, "\(games) games kept")
        #expect(
            try Self.count(
                "SELECT COUNT(*) AS n FROM mastermind_games g WHERE NOT EXISTS "
                    + "(SELECT 1 FROM mastermind_guesses q WHERE q.game = g.id) AND g.status != 'playing'", server) == 0
        )
        #expect(
            try Self.count(
                "SELECT COUNT(*) AS n FROM mastermind_guesses WHERE game NOT IN (SELECT id FROM mastermind_games)",
                server) == 0, "no guesses without their game")
        // The 117 played are counted from the totals; the 13 left before a guess are no result (not played, not lost).
        let stats = try player.get("/mastermind/stats").text
        #expect(Player.attribute("data-played", in: stats) == "117", "every game played counted")
    }

    /// A player forty days ago who only started games and abandoned or gave them up untouched is forgotten like
    /// one who did nothing: such games are no result.
    @Test func abandonedGamesDoNotKeepAPlayerForever() throws {
        let clock = Clock()
        clock.advance(-40 * 86_400)
        let server = try Self.server(clock)
        let bot = Player(server, from: "127.0.0.10")
        try bot.get("/")
        for _ in 0..<3 { try bot.startMastermind() }
        let game = try bot.startMastermind()
        #expect(try bot.post("/mastermind/giveup", "game=\(game)").status == 303)
        let winner = Player(server, from: "127.0.0.11")
        try winner.get("/")
        try winner.startMastermind()
        #expect(try winner.post("/mastermind/guess", "guess=\(try winner.secret())").status == 303)
        #expect(try PrivacyTests.ids(server).count == 2)
        let file = server.database.argument
        server.stop()
        let prune = try ChildProcess(["db", "prune", "--db", file])
        #expect(prune.wait(timeout: 60) == 0, "\(prune.standardError)")
        #expect(try PrivacyTests.ids(server).count == 1, "\(prune.standardOutput)")
    }

    /// Migration 24 sums the games a player had before it into the totals: wins, hint and hard wins, the current
    /// and longest streaks, wins by guesses; dailies and the game in play do not count.
    @Test(arguments: Engine.allCases) func theTotalsMigrationSumsTheGamesBeforeIt(_ engine: Engine) throws {
        let scratch = ScratchDirectory()
        let db = try Database(location: try TestDatabase.fresh(engine, in: scratch))
        try db.migrate(Schema.migrations.filter { $0.version <= 23 })
        try db.execute("INSERT INTO players (id, first_seen) VALUES ('p', 1)")
        // (status, guesses, hint, hard, daily) in order: won 2, won 4, lost, won 3, won 3 with a hint, won 1 hard,
        // a daily won, one in play.
        let games: [(String, Int, Int, Int, Int?)] = [
            ("won", 2, 0, 0, nil), ("won", 4, 0, 0, nil), ("lost", 10, 0, 0, nil), ("won", 3, 0, 0, nil),
            ("won", 3, 1, 0, nil), ("won", 1, 0, 1, nil), ("won", 2, 0, 0, 0), ("playing", 1, 0, 0, nil),
        ]
        for (n, game) in games.enumerated() {
            try db.execute(
                """
                INSERT INTO mastermind_games (id, player, secret, code_length, digit_min, digit_max, attempts, status,
                    used_hint, created, hard, daily)
                VALUES (?, 'p', '0123', 4, 0, 7, 10, ?, ?, 1, ?, ?)
                """,
                [
                    SQLValue(n + 1), .text(game.0), SQLValue(game.2), SQLValue(game.3),
                    game.4.map { SQLValue($0) } ?? .null,
                ]
            )
            for g in 1...game.1 {
                try db.execute(
                    "INSERT INTO mastermind_guesses (game, number, guess, red, blue, gray, pegs) "
                        + "VALUES (?, ?, '0000', 1, 0, 3, 'rggg')", [SQLValue(n + 1), SQLValue(g)])
            }
        }
        try db.migrate(Schema.migrations)
        let row = try #require(
            try db.first(
                "SELECT played, wins, hint_wins, hard_wins, streak, longest_streak FROM mastermind_totals WHERE player = 'p'"
            ))
        #expect(try row.decode("played", as: Int.self) == 6)
        #expect(try row.decode("wins", as: Int.self) == 5)
        #expect(try row.decode("hint_wins", as: Int.self) == 1)
        #expect(try row.decode("hard_wins", as: Int.self) == 1)
        #expect(try row.decode("streak", as: Int.self) == 3)
        #expect(try row.decode("longest_streak", as: Int.self) == 3)
        let byGuesses = try db.query(
            "SELECT guesses, n FROM mastermind_wins_by_guesses WHERE player = 'p' ORDER BY guesses"
        ).map { "\(try $0.decode("guesses", as: Int.self)):\(try $0.decode("n", as: Int.self))" }
        #expect(byGuesses == ["1:1", "2:1", "3:1", "4:1"])
    }
}
