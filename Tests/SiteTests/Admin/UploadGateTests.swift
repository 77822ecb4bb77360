import TestSupport
import Testing

@testable import ArcadeApp

/// Upload paths take bodies up to 32 MiB: the admin session is checked when the head arrives, so a client without
/// one is answered at once, the connection closed, the body never read.
@Suite("Uploads need a session before their body", .serialized)
struct UploadGateTests {
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

    @Test func anAdminsUploadStillGoesThrough() throws {
        let server = try SiteServer()
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
    }
}
