import TestSupport
import Testing

@testable import ArcadeStore
@testable import ArcadeWeb

/// Upload paths take bodies up to 32 MiB: the admin session is looked up when the head arrives, so a client without
/// one is answered at once, the connection closed, the body never read; on PostgreSQL too, where the lookup runs on
/// the pool while the connection waits.
@Suite("Uploads need a session before their body", .serialized)
struct UploadGateTests {
    /// A 31 MB multipart body under a forged `arcade_admin` cookie: the head and the body's first 64 KiB are sent,
    /// then nothing more until the answer. A server that read the body would wait for the rest of it (until the
    /// body timeout, 30 s); the 401 comes with at most those 64 KiB received, and the connection closes.
    @Test(arguments: Engine.allCases) func aForgedCookieGetsNoBodyRead(_ engine: Engine) throws {
        let server = try SiteServer(engine: engine)
        defer { server.stop() }
        let total = 31_000_000
        let client = try RawClient(port: server.port, from: "127.0.0.2")
        client.send(
            "POST /admin/people HTTP/1.1\r\nHost: t\r\nCookie: arcade_admin=\(String(repeating: "x", count: 43))\r\n"
                + "Content-Type: multipart/form-data; boundary=x\r\nContent-Length: \(total)\r\n\r\n")
        let sent = 64 * 1024
        client.send([UInt8](repeating: UInt8(ascii: "a"), count: sent))
        let answer = try client.readResponse(timeout: 20)
        #expect(answer.status == 401, "answered with \(sent) of \(total) body bytes sent")
        #expect(try client.closes(within: 10))
        // The short cookie that sufficed on PostgreSQL before is no better.
        let short = try RawClient(port: server.port, from: "127.0.0.2")
        short.send(
            "POST /admin/people HTTP/1.1\r\nHost: t\r\nCookie: arcade_admin=x\r\n"
                + "Content-Type: multipart/form-data; boundary=x\r\nContent-Length: \(total)\r\n\r\n")
        #expect(try short.readResponse(timeout: 20).status == 401)
    }

    @Test func aBigBodyWithoutASessionIsRefusedUnread() throws {
        let server = try SiteServer()
        defer { server.stop() }
        let client = try RawClient(port: server.port, from: "127.0.0.2")
        client.send(
            "POST /admin/people HTTP/1.1\r\nHost: t\r\nContent-Type: multipart/form-data; boundary=x\r\n"
                + "Content-Length: 33554432\r\n\r\n")
        let start = csysNow()
        let answer = try client.readResponse(timeout: 3)
        #expect(answer.status == 401)
        #expect(csysNow() - start < 2, "at once, not after the body")
        #expect(try client.closes(within: 2))
        // An unknown session cookie is no better.
        let forged = try RawClient(port: server.port, from: "127.0.0.2")
        forged.send(
            "POST /admin/people HTTP/1.1\r\nHost: t\r\nCookie: arcade_admin=\(String(repeating: "A", count: 43))\r\n"
                + "Content-Length: 33554432\r\n\r\n")
        #expect(try forged.readResponse(timeout: 3).status == 401)
    }

    @Test(arguments: Engine.allCases) func anAdminsUploadStillGoesThrough(_ engine: Engine) throws {
        let server = try SiteServer(engine: engine)
        defer { server.stop() }
        let admin = try AdminConsoleTests.admin(server)
        let page = try admin.get("/admin/people")
        #expect(page.status == 200)
        let boundary = "xyz"
        let body =
            "--\(boundary)\r\nContent-Disposition: form-data; name=\"csrf\"\r\n\r\n\(admin.csrf)\r\n--\(boundary)--\r\n"
        let client = try RawClient(port: server.port)
        client.send(
            "POST /admin/people HTTP/1.1\r\nHost: t\r\nCookie: \(admin.cookieHeader)\r\n"
                + "Content-Type: multipart/form-data; boundary=\(boundary)\r\nContent-Length: \(body.utf8.count)\r\n"
                + "Connection: close\r\n\r\n\(body)")
        #expect(try client.readResponse().status != 401, "the session was recognised at the head")
        // A client that waits for `100 Continue` gets it once the session is known, and its upload goes through.
        let waiting = try RawClient(port: server.port)
        waiting.send(
            "POST /admin/people HTTP/1.1\r\nHost: t\r\nCookie: \(admin.cookieHeader)\r\nExpect: 100-continue\r\n"
                + "Content-Type: multipart/form-data; boundary=\(boundary)\r\nContent-Length: \(body.utf8.count)\r\n"
                + "Connection: close\r\n\r\n")
        #expect(try waiting.readResponse().status == 100)
        waiting.send(body)
        #expect(try waiting.readResponse().status != 401)
    }
}
