import HTTP
import Storage
import Synchronization
import TestSupport
import Testing
import Threads

@testable import ArcadeStore
@testable import ArcadeWeb

/// Writes wait for their commit off the event loop; the loop goes on serving.
@Suite("The write path", .serialized)
struct WritePathTests {
    /// Where each route runs, decided when it is added: on PostgreSQL nothing behind the visitor's middleware runs on
    /// a loop (a read there waits for the network, and a debug build stops at one); on SQLite the players' pages and
    /// the cheat action stay on the loop. The router's own answers run on a loop on both.
    @Test(arguments: Engine.allCases) func routesArePlacedForTheEngine(_ engine: Engine) throws {
        let server = try SiteServer(engine: engine)
        defer { server.stop() }
        let table = server.site.routes.table
        let onLoop = Set(table.filter { $0.execution == .loop }.map { "\($0.method) \($0.pattern)" })
        let own: Set = ["GET /healthz", "GET /readyz", "GET /metrics"]
        #expect(table.count > 50 && onLoop.isSuperset(of: own))
        if engine == .postgresql {
            #expect(onLoop == own)
        } else {
            #expect(onLoop.isSuperset(of: ["GET /", "GET /cheats", "POST /cheats/actions", "POST /theme"]))
            #expect(!onLoop.contains("POST /mastermind/guess"), "an action waits for its commit on the pool")
        }
    }

    /// On PostgreSQL a deferred route that reads starts on the pool, once, and its client gets its answer.
    @Test func aDeferredStartThatReadsRunsOnceOnThePoolOnPostgreSQL() throws {
        let pool = Mutex<DatabasePool?>(nil)
        let runs = Mutex<[String]>([])
        let server = try SiteServer(
            engine: .postgresql,
            routes: { routes in
                routes.pages.deferred(.get, "/test/reading") { _, _, reply in
                    let place = ThreadRole.isEventLoop ? "loop" : "pool"
                    runs.withLock { $0.append(place) }
                    if let pool = pool.withLock({ $0 }) { _ = try pool.connection().query("SELECT 1 AS one") }
                    reply.send(.text(place))
                }
            })
        defer { server.stop() }
        let reader = DatabasePool(location: server.database)
        defer { reader.close() }
        pool.withLock { $0 = reader }
        let player = Player(server)
        try player.get("/")
        let reading = try player.get("/test/reading")
        #expect(reading.status == 200 && reading.text == "pool")
        #expect(runs.withLock { $0 } == ["pool"])
    }

    /// On a disk that takes three seconds per flush, a player's action waits for its commit while
    /// the same (single) worker keeps answering /healthz and pages within 50 ms, all before the commit could have
    /// finished.
    @Test func aSlowFlushNeverStallsTheWorker() throws {
        let server = try SiteServer(routes: nil) {
            $0.server.workers = 1
            $0.commitDelay = 3
        }
        defer { server.stop() }
        let player = Player(server)
        try player.get("/")
        let writer = try RawClient(port: server.port)
        let body = "csrf=\(player.csrf)&kind=key&value=x"
        let start = csysNow()
        writer.send(
            "POST /cheats/actions HTTP/1.1\r\nHost: t\r\nCookie: \(player.cookieHeader)\r\n"
                + "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
        )
        sleep(seconds: 0.1)  // the action is now waiting on the flush
        var waits: [Double] = []
        for path in ["/healthz", "/", "/healthz", "/healthz", "/", "/healthz", "/healthz", "/", "/healthz"] {
            let asked = csysNow()
            #expect(try server.get(path, headers: ["Cookie": player.cookieHeader]).status == 200)
            waits.append(csysNow() - asked)
        }
        // The median answers in 50 ms; none waits anywhere near the flush (scheduling noise on a busy machine
        // may delay one request, never by seconds).
        #expect(waits.sorted()[waits.count / 2] < 0.05, "waits: \(waits)")
        #expect(csysNow() - start < 2.5, "the pages waited for someone else's commit")
        #expect(try writer.readAvailable(timeout: 0).isEmpty, "the action was answered before its commit")
        let answer = try writer.readResponse(timeout: 10)
        #expect(answer.status == 200)
        #expect(csysNow() - start >= 3, "the action was answered only after its commit")
        #expect(
            try Database(location: server.database).first("SELECT COUNT(*) AS n FROM cheat_progress")?.int("n") == 1)
    }
}
