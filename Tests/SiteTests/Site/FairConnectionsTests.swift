import TestSupport
import Testing

@testable import ArcadeStore
@testable import ArcadeWeb

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

    /// An office behind one NAT address: every open tab holds its live-update stream, and the people still browse.
    /// Fails on 8f8cef3, where streams counted against the 64 connections an address may hold.
    @Test func threeHundredTabsBehindOneAddressBrowse() throws {
        let server = try SiteServer()
        defer { server.stop() }
        var streams: [RawClient] = []
        for _ in 0..<300 {
            let (client, head) = try stream(server, from: "127.0.0.2")
            #expect(head.status == 200)
            streams.append(client)
        }
        let pages = try (0..<64).map { _ in try held(server, from: "127.0.0.2") }
        for page in pages {
            page.send("GET / HTTP/1.1\r\nHost: t\r\n\r\n")
            #expect(try page.readResponse().status == 200)
        }
        #expect(try server.get("/", from: "127.0.0.2").status == 503, "page connections still have their cap")
        #expect(streams.count == 300)
    }

    /// Streams have their own cap per address; one refused is a 503 the page's script answers by polling, and it
    /// costs the address no page connection.
    @Test func streamsBeyondTheirCapAreRefusedAndPagesStillLoad() throws {
        // One worker: the refused stream's place is given back on the loop that then accepts the next connection
        // (with two, a busy machine let the next connection in on the other loop first: a 503 where 200 was due).
        let server = try SiteServer(routes: nil) {
            $0.server.maxStreamsPerAddress = 3
            $0.server.maxConnectionsPerAddress = 2
            $0.server.workers = 1
        }
        defer { server.stop() }
        let open = try (0..<3).map { _ in try stream(server, from: "127.0.0.2") }
        #expect(open.allSatisfy { $0.1.status == 200 })
        let (client, refused) = try stream(server, from: "127.0.0.2")
        #expect(refused.status == 503)
        #expect(refused.header("Retry-After") != nil)
        // Its connection ends with the refusal, so it holds no page place while the page polls instead.
        #expect(try client.closes(within: 10))
        let pages = try (0..<2).map { _ in try held(server, from: "127.0.0.2") }
        #expect(pages.count == 2, "the refused stream's connection gave its page place back")
    }

    /// A client at exactly the cap whose connection the server ends (here after each request) reconnects at once:
    /// the server gave the place back before the client could see the end. On 8f8cef3 the place was held until the
    /// client's own close reached the server, so the reconnection got `503 too many connections` (as `wrk -c64` did).
    @Test func exactlyTheCapIsServedWhenConnectionsEnd() throws {
        let server = try SiteServer()
        defer { server.stop() }
        let others = try (0..<63).map { _ in try held(server, from: "127.0.0.2") }
        var current = try held(server, from: "127.0.0.2")
        for _ in 0..<5 {
            current.send("GET /healthz HTTP/1.1\r\nHost: t\r\nConnection: close\r\n\r\n")
            #expect(try current.readResponse().status == 200)
            #expect(try current.closes(within: 10))
            // `current` is still open on this side: the server lingers on it while the next one connects.
            let next = try RawClient(port: server.port, from: "127.0.0.2")
            next.send("GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n")
            #expect(try next.readResponse().status == 200)
            current = next
        }
        #expect(others.count == 63)
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
