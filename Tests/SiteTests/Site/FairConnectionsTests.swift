import TestSupport
import Testing

@testable import ArcadeApp

/// No client holds the site: each address has a connection cap (loopback included), event streams take at most a
/// share of all connections and end after a while, and `/healthz` answers even when the site is full.
@Suite("Fair connections", .serialized)
struct FairConnectionsTests {
    /// A kept-alive connection the server has surely accepted (it answered on it).
    func held(_ server: SiteServer, from address: String) throws -> RawClient {
        let client = try RawClient(port: server.port, from: address)
        client.send("GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(try client.readResponse().status == 200)
        return client
    }

    func stream(_ server: SiteServer, from address: String) throws -> (RawClient, WireResponse) {
        let client = try RawClient(port: server.port, from: address)
        client.send("GET /api/interceptions/events HTTP/1.1\r\nHost: t\r\n\r\n")
        return (client, try client.readResponse(head: true))
    }

    @Test func oneAddressHoldsAtMostSixtyFourConnections() throws {
        let server = try SiteServer()
        defer { server.stop() }
        let hog = try (0..<64).map { _ in try held(server, from: "127.0.0.2") }
        let refused = try RawClient(port: server.port, from: "127.0.0.2")
        refused.send("GET / HTTP/1.1\r\nHost: t\r\n\r\n")
        let answer = try refused.readResponse()
        #expect(answer.status == 503)
        #expect(answer.header("Retry-After") != nil)
        #expect(try server.get("/", from: "127.0.0.3").status == 200, "another address is served")
        hog[0].close()
        sleep(seconds: 0.3)
        #expect(try server.get("/healthz", from: "127.0.0.2").status == 200, "a freed place can be used again")
    }

    @Test func eventStreamsTakeAtMostTheirShareAndEndAfterTheirLifetime() throws {
        let server = try SiteServer(routes: nil) {
            $0.server.maxConnections = 8
            $0.server.streamLifetime = 1
        }
        defer { server.stop() }
        var open: [RawClient] = []
        for n in 0..<4 {
            let (client, head) = try stream(server, from: "127.0.0.\(10 + n)")
            #expect(head.status == 200)
            open.append(client)
        }
        let (_, fifth) = try stream(server, from: "127.0.0.20")
        #expect(fifth.status == 503, "half of 8 connections are streams already")
        #expect(fifth.header("Retry-After") != nil)
        #expect(try server.get("/", from: "127.0.0.21").status == 200, "pages are still served")
        // Each stream said when to come back, and ends after its lifetime.
        #expect(try open[0].read(until: "retry: ", timeout: 2) != nil)
        #expect(try open[0].closes(within: 3))
        #expect(try stream(server, from: "127.0.0.20").1.status == 200, "a place came free")
    }

    @Test func healthzAnswersWhenTheSiteIsFull() throws {
        let server = try SiteServer(routes: nil) { $0.server.maxConnections = 4 }
        defer { server.stop() }
        let full = try (0..<4).map { try held(server, from: "127.0.0.\(30 + $0)") }
        #expect(try server.get("/", from: "127.0.0.40").status == 503)
        #expect(try server.get("/healthz", from: "127.0.0.40").status == 200)
        #expect(full.count == 4)
    }
}
