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

@Suite("Your data: download it, forget me, and retention of inactive players")
struct PrivacyTests {
    /// The players' ids, in the order they made their rows.
    static func ids(_ server: any Endpoint) throws -> Set<String> {
        Set(try Database(location: server.database).query("SELECT id FROM players").map { try $0.decode("id") })
    }

    /// A player who played both games and dismissed a card downloads their data, then asks to be forgotten: no
    /// row in any table names them afterwards (every table with a player column, and no orphans under them), the
    /// cookies are cleared, and another player's rows are untouched.
    @Test func forgetMeLeavesNoRowThatNamesThePlayer() throws {
        let server = try SiteServer(routes: nil)
        defer { server.stop() }
        let other = Player(server)
        try other.get("/")
        try other.startMastermind()
        let player = Player(server)
        try player.get("/")
        let before = try Self.ids(server)
        try player.startMastermind()
        #expect(try player.post("/mastermind/guess", "guess=\(wrong(try player.secret(), 1))").status == 303)
        let (round, answer) = try player.round(try player.play("normal").text)
        #expect(try player.post("/namegame/answer", "mode=normal&round=\(round)&choice=\(answer)").status == 303)
        #expect(try player.post("/once/dismiss", "task=tutorial.mastermind&back=/").status == 303)
        let id = try #require(try Self.ids(server).subtracting(before).first)

        let progress = try player.get("/progress")
        #expect(progress.text.contains("href=\"/progress/data\""))
        let download = try player.get("/progress/data")
        #expect(download.status == 200)
        #expect(download.headers.first { $0.0.lowercased() == "content-disposition" }?.1.contains("attachment") == true)
        let json = try JSONParser.parse(download.body)
        guard case .object(let sections) = json else { throw TestFailure("not an object: \(download.text)") }
        let names = sections.map(\.0)
        for table in ["players", "mastermind_games", "mastermind_guesses", "namegame_rounds", "once_marks"] {
            #expect(names.contains(table), "\(table) is in the download")
        }
        #expect(download.text.contains(id))
        #expect(!download.text.contains(try #require(try Self.ids(server).subtracting([id]).first)), "only theirs")

        let confirm = try player.get("/progress/forget")
        #expect(confirm.text.contains("action=\"/progress/forget\""))
        let forgotten = try player.post("/progress/forget", "")
        #expect(forgotten.status == 303)
        let cleared = forgotten.headers.filter { $0.0.lowercased() == "set-cookie" }.map(\.1)
        #expect(cleared.contains { $0.hasPrefix("arcade_player=;") && $0.contains("Max-Age=0") }, "\(cleared)")
        #expect(cleared.contains { $0.hasPrefix("arcade_session=;") && $0.contains("Max-Age=0") })

        let db = try Database(location: server.database)
        let tables = try db.query("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
            .map { try $0.decode("name", as: String.self) }
        var checked = 0
        for table in tables {
            let columns = try db.query("SELECT name FROM pragma_table_info(?)", [.text(table)])
                .map { try $0.decode("name", as: String.self) }
            let column = table == "players" ? "id" : "player"
            if columns.contains(column) {
                checked += 1
                #expect(PlayerData.tables.contains { $0.name == table }, "\(table) is exported and deleted")
                #expect(
                    try db.scalar(Int.self, "SELECT COUNT(*) AS n FROM \(table) WHERE \(column) = ?", [.text(id)]) == 0,
                    "\(table) still names the player")
            }
            // Rows under theirs (guesses, faces) would be orphans now.
            for key in try db.query(
                "SELECT \"table\" AS parent, \"from\" AS child, \"to\" AS key FROM pragma_foreign_key_list(?)",
                [.text(table)])
            {
                let parent: String = try key.decode("parent")
                let child: String = try key.decode("child")
                let to: String = try key.decode("key")
                #expect(
                    try db.scalar(
                        Int.self,
                        "SELECT COUNT(*) AS n FROM \(table) WHERE \(child) NOT IN (SELECT \(to) FROM \(parent))") == 0,
                    "\(table) has rows whose \(parent) is gone")
            }
        }
        #expect(checked >= 11, "every table with a player column was checked (\(checked))")
        #expect(try db.scalar(Int.self, "SELECT COUNT(*) AS n FROM mastermind_games") == 1, "the other's game stays")
        // The browser is a stranger now, and the page says what happened.
        player.cookies = [:]
        #expect(try player.get("/progress?forgotten=1").text.contains("data-forgotten"))
    }

    /// Six players, forty days ago by the site's clock: one who never finished anything and never came back is
    /// forgotten; one who won, one who answered a round, one who came back twenty days ago and one who arrived
    /// ten days ago stay. `arcade db prune --dry-run` counts without deleting; the site's daily pass deletes.
    @Test func pruningRemovesExactlyTheInactivePlayersWithoutResults() throws {
        let scratch = ScratchDirectory()
        let file = scratch.path + "/site.sqlite"
        let day = 86_400.0
        let real = Double(time(nil))
        let now = Mutex<Double>(real - 40 * day)
        var server = try SiteServer(routes: nil) {
            $0.database = .sqlite(file)
            $0.clock = { now.withLock { $0 } }
        }
        func newPlayer(_ act: (Player) throws -> Void) throws -> (Player, String) {
            let before = try Self.ids(server)
            let player = Player(server)
            try player.get("/")
            try act(player)
            return (player, try #require(try Self.ids(server).subtracting(before).first))
        }
        let (_, idle) = try newPlayer { try $0.startMastermind() }
        let (_, idleToo) = try newPlayer { try $0.post("/once/dismiss", "task=tutorial.mastermind&back=/") }
        let (_, winner) = try newPlayer { p in
            try p.startMastermind()
            #expect(try p.post("/mastermind/guess", "guess=\(try p.secret())").status == 303)
        }
        let (_, namer) = try newPlayer { p in
            let (round, answer) = try p.round(try p.play("normal").text)
            #expect(try p.post("/namegame/answer", "mode=normal&round=\(round)&choice=\(answer)").status == 303)
        }
        let (returning, back) = try newPlayer { try $0.startMastermind() }
        now.withLock { $0 = real - 20 * day }
        // Back twenty days ago in a new browser session, closing a card (an action; page views alone write nothing).
        returning.cookies["arcade_session"] = nil
        try returning.get("/")
        #expect(try returning.post("/once/dismiss", "task=tutorial.namegame&back=/").status == 303)
        let (_, recent) = try newPlayer { try $0.startMastermind() }
        server.stop()

        let dry = try ChildProcess(["db", "prune", "--dry-run", "--db", file])
        #expect(dry.wait(timeout: 30) == 0, "\(dry.standardError)")
        #expect(dry.standardOutput.contains("would forget 2 players"), "\(dry.standardOutput)")
        #expect(try Self.ids(server).count == 6, "a dry run deletes nothing")

        // The site's own daily pass, with the default --forget-after of 30 days.
        server = try SiteServer(routes: nil) {
            $0.database = .sqlite(file)
            $0.forgetAfter = 30
        }
        let kept: Set = [winner, namer, back, recent]
        let deadline = Double(time(nil)) + 10
        while try Self.ids(server) != kept && Double(time(nil)) < deadline { sleep(seconds: 0.05) }
        #expect(try Self.ids(server) == kept, "removed exactly \(idle) and \(idleToo)")
        #expect(
            try Database(path: file).scalar(
                Int.self, "SELECT COUNT(*) AS n FROM mastermind_games WHERE player = ?",
                [.text(idle)]) == 0)
        server.stop()
        let again = try ChildProcess(["db", "prune", "--db", file])
        #expect(again.wait(timeout: 30) == 0)
        #expect(again.standardOutput.contains("forgot 0 players"), "\(again.standardOutput)")
    }
}
