import TestSupport
import Testing

@testable import ArcadeStore
@testable import ArcadeWeb

#if canImport(Glibc)
import Glibc
#endif

/// Live push: `/api/interceptions/events` tells open pages the interceptions document changed.
@Suite("Live push of interceptions", .serialized)
struct LiveEventsTests {
    static func subscribe(_ server: SiteServer, lang: String = "en") throws -> (RawClient, String) {
        let client = try RawClient(port: server.port)
        client.send("GET /api/interceptions/events?lang=\(lang) HTTP/1.1\r\nHost: t\r\n\r\n")
        let head = try client.readResponse(head: true)
        #expect(head.status == 200 && head.header("Content-Type")?.hasPrefix("text/event-stream") == true)
        let first = try #require(try client.read(until: "\n\n", timeout: 2))
        return (client, try #require(Self.etag(in: first)))
    }

    static func etag(in text: String) -> String? {
        text.firstRange(of: "event: etag\ndata: ").map { String(text[$0.upperBound...].prefix { $0 != "\n" }) }
    }

    @Test func aChangeReachesAnOpenStreamWithinTwoSeconds() throws {
        let server = try SiteServer()
        defer { server.stop() }
        let (stream, initial) = try Self.subscribe(server)
        #expect(initial == (try server.get("/api/interceptions?lang=en").header("ETag")), "the document's own ETag")
        let admin = try AdminConsoleTests.admin(server)
        let start = csysNow()
        #expect(try admin.post("/admin/maintenance", "platform=web&switch=on&confirm=1").status == 303)
        let event = try #require(try stream.read(until: "\n\n", timeout: 2), "an event within 2 s")
        #expect(csysNow() - start < 2)
        let etag = try #require(Self.etag(in: event))
        #expect(etag != initial)
        #expect(etag == (try server.get("/api/interceptions?lang=en").header("ETag")))
        // The page the script then asks for (HEAD) is closed: it reloads into the maintenance page.
        #expect(try server.get("/mastermind").status == 503)
        // A hotfix for one language reaches that language's stream.
        let (german, before) = try Self.subscribe(server, lang: "de")
        #expect(try admin.post("/admin/hotfixes", "key=home.title&language=de&value=Spielhalle").status == 303)
        // An event the maintenance switch published may still be on its way to the new stream (same ETag): the
        // hotfix's own must follow within the 2 s.
        let deadline = csysNow() + 2
        var changed: String?
        while changed == nil, csysNow() < deadline,
            let event = try german.read(until: "\n\n", timeout: max(0.01, deadline - csysNow()))
        {
            if let etag = Self.etag(in: event), etag != before { changed = etag }
        }
        #expect(changed != nil, "the hotfix's event within 2 s")
    }

    /// The streams' two ends are both in this process (4,000 descriptors, with the other suites' running beside):
    /// more than a default limit of 4,096 leaves room for. Raised as far as this process may.
    static func roomForDescriptors(_ wanted: rlim_t = 16_384) {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < wanted else { return }
        var raised = rlimit(rlim_cur: wanted, rlim_max: max(wanted, limit.rlim_max))
        if setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised) != 0 {
            raised = rlimit(rlim_cur: limit.rlim_max, rlim_max: limit.rlim_max)
            _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &raised)
        }
    }

    @Test func twoThousandIdleStreamsAreHeldWhileTheHomePageIsServed() throws {
        Self.roomForDescriptors()
        let server = try SiteServer()
        defer { server.stop() }
        var streams: [RawClient] = []
        for n in 0..<2_000 {
            // From 40 loopback addresses: 50 streams each, within the per-address cap.
            let client = try RawClient(port: server.port, from: "127.0.0.\(10 + n % 40)")
            client.send("GET /api/interceptions/events HTTP/1.1\r\nHost: t\r\n\r\n")
            streams.append(client)
        }
        for stream in streams { #expect(try stream.read(until: "data: ", timeout: 5) != nil) }
        for _ in 0..<20 { #expect(try server.get("/").status == 200) }
        try server.site.interceptions.setMaintenance("ios", .init(active: true))
        // Every stream hears of it (a sample is read; the rest are open, which the shutdown below closes).
        for stream in stride(from: 0, to: 2_000, by: 97).map({ streams[$0] }) {
            #expect(try stream.read(until: "event: etag", timeout: 2) != nil)
        }
        server.server.shutdown()
        #expect(try streams[1_999].closes(within: 3), "shutdown ends the streams")
    }
}
