import HTTP
import HTTPServer
import Synchronization
import TestSupport
import Testing

/// Deferred handlers: the loop goes on while an answer is pending, and the answer, from any thread, arrives
/// in order on its connection.
@Suite("Deferred handlers")
struct DeferredTests {
    /// Replies parked by `/later` until the test sends them.
    final class Parked: Sendable {
        let replies = Mutex<[Reply]>([])
        var count: Int { replies.withLock { $0.count } }
        func sendAll(_ text: String) {
            for reply in replies.withLock({ all in
                defer { all = [] }
                return all
            }) { reply.send(.text(text)) }
        }
    }

    static func server(_ parked: Parked) throws -> TestServer {
        let router = TestServer.routes()
        router.add(.get, "/later", .deferred { _, reply in parked.replies.withLock { $0.append(reply) } })
        router.add(.get, "/now", .deferred { request, reply in reply.send(.text("now \(request.query["n"] ?? "")")) })
        router.add(
            .get, "/blocking",
            .deferred { _, reply in
                reply.offload {
                    sleep(seconds: 0.05)
                    reply.send(.text("from the pool"))
                }
            })
        return try TestServer({ $0.workers = 1 }, router: router)
    }

    @Test func thePendingAnswerHoldsNoOneElseUp() throws {
        let parked = Parked()
        let server = try Self.server(parked)
        defer { server.stop() }
        let waiting = try server.client()
        // A pipelined request behind the pending one waits its turn on this connection.
        waiting.send(get("/later") + get("/hello"))
        for _ in 0..<200 where parked.count == 0 { sleep(seconds: 0.01) }
        #expect(parked.count == 1)
        let other = try server.client()
        for _ in 0..<3 {
            other.send(get("/hello"))
            #expect(try other.readResponse().text == "hello", "the one worker serves others meanwhile")
        }
        #expect(try waiting.readAvailable(timeout: 0.1).isEmpty, "nothing before the deferred answer")
        ThreadRunner { parked.sendAll("at last") }.join()
        #expect(try waiting.readResponse().text == "at last")
        #expect(try waiting.readResponse().text == "hello")
    }

    @Test func anAnswerMaySendAtOnceOrFromThePool() throws {
        let server = try Self.server(Parked())
        defer { server.stop() }
        let client = try server.client()
        client.send(get("/now?n=1") + get("/blocking") + get("/now?n=2"))
        #expect(try client.readResponse().text == "now 1")
        #expect(try client.readResponse().text == "from the pool")
        #expect(try client.readResponse().text == "now 2")
        // HEAD and Connection: close are honoured as for any answer.
        client.send("GET /now?n=3 HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
        let last = try client.readResponse()
        #expect(last.text == "now 3" && last.header("Connection") == "close")
        #expect(try client.closes(within: 2))
    }
}
