import Storage
import TestSupport
import Testing

@testable import ArcadeApp

/// Writes wait for their commit off the event loop; the loop goes on serving.
@Suite("The write path", .serialized)
struct WritePathTests {
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
