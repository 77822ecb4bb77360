import HTTP
import HTTPServer
import TestSupport
import Testing

@testable import ArcadeStore
@testable import ArcadeWeb

/// Behind a reverse proxy every visitor has the proxy's address: only the `--client-address-header` the operator
/// names is read, only from `--trusted-proxies` (the rightmost address that is no trusted proxy), so limits hold each
/// real client apart; from anyone else, and any other header, is ignored, so a client cannot pick a fresh address
/// per try.
@Suite("Trusted proxies", .serialized)
struct TrustedProxiesTests {
    /// A wrong try for a name never tried before, so only the address limit can refuse it.
    func wrongSignIn(_ player: Player) throws -> Int {
        if player.csrf.isEmpty { try player.get("/admin/login") }
        return try player.post("/admin/login", "name=n\(UInt32.random(in: 0...UInt32.max))&password=guess").status
    }

    @Test func theClientBehindATrustedProxyIsTheOneLimited() throws {
        let server = try SiteServer(routes: nil) {
            $0.server.trustedProxies = TrustedProxies(parsing: "127.0.0.5, 10.0.0.0/8")!
            $0.server.trustedProxies.header = .xForwardedFor
            Self.stopTheClock(&$0)
        }
        defer { server.stop() }
        // Each request as nginx sends it: the client's claim on the left, what the proxy saw on the right.
        let first = Player(server, from: "127.0.0.5")
        first.headers["X-Forwarded-For"] = "203.0.113.9, 198.51.100.7, 10.1.2.3"
        for _ in 0..<5 { #expect(try wrongSignIn(first) == 401) }
        #expect(try wrongSignIn(first) == 429, "198.51.100.7 has used its tries")
        // Another visitor through the same proxy is not held back by the first.
        let second = Player(server, from: "127.0.0.5")
        second.headers["X-Forwarded-For"] = "2001:db8::1"
        #expect(try wrongSignIn(second) == 401)
        // Nor is one whose claimed address differs only to the left of what the proxy wrote.
        first.headers["X-Forwarded-For"] = "192.0.2.1, 198.51.100.7"
        #expect(try wrongSignIn(first) == 429)
    }

    @Test func headersFromAnyoneElseAreIgnored() throws {
        let server = try SiteServer(routes: nil) {
            $0.server.trustedProxies = TrustedProxies(parsing: "127.0.0.5")!
            $0.server.trustedProxies.header = .xForwardedFor
            Self.stopTheClock(&$0)
        }
        defer { server.stop() }
        let client = Player(server, from: "127.0.0.6")
        for n in 0..<5 {
            client.headers["X-Forwarded-For"] = "192.0.2.\(n)"
            #expect(try wrongSignIn(client) == 401)
        }
        client.headers["X-Forwarded-For"] = nil
        client.headers["Forwarded"] = "for=192.0.2.99"
        #expect(try wrongSignIn(client) == 429, "a made-up address is no fresh start")
    }

    /// Operations.md's setup: nginx on this machine sets `X-Forwarded-For` and the site reads that header alone.
    static func behindNginx(_ options: inout ServeOptions) {
        let parsed = try? ServeOptions.parse(["--client-address-header", "X-Forwarded-For"], environment: { _ in nil })
        options.server.trustedProxies = parsed!.server.trustedProxies
        stopTheClock(&options)
    }

    /// The site's clock stands still: a try given back after 12 s cannot make a busy machine's slow hashing look
    /// like a limit that failed.
    static func stopTheClock(_ options: inout ServeOptions) {
        let now = WallClock.system()
        options.clock = { now }
    }

    /// A request as nginx passes it on: what the client sent, and the client's real address in `X-Forwarded-For`.
    func throughNginx(_ server: SiteServer, client: String) -> Player {
        let player = Player(server, from: "127.0.0.5")
        player.headers["X-Forwarded-For"] = client
        return player
    }

    /// Fails on 8f8cef3: a `Forwarded` header, passed on by nginx untouched, beat nginx's `X-Forwarded-For`, so a
    /// client rotating it had a fresh address for every try.
    @Test func aForwardedHeaderFromTheClientDoesNotEscapeSignInThrottling() throws {
        let server = try SiteServer(routes: nil, Self.behindNginx)
        defer { server.stop() }
        let client = throughNginx(server, client: "198.51.100.7")
        var statuses: [Int] = []
        for n in 0..<20 {
            client.headers["Forwarded"] = "for=192.0.2.\(n)"
            statuses.append(try wrongSignIn(client))
        }
        #expect(statuses == Array(repeating: 401, count: 5) + Array(repeating: 429, count: 15), "\(statuses)")
    }

    /// Fails on 8f8cef3, where `Forwarded: for=127.0.0.1` made the client loopback.
    @Test func aForgedLoopbackAddressDoesNotOpenMetrics() throws {
        let server = try SiteServer(routes: nil, Self.behindNginx)
        defer { server.stop() }
        let client = throughNginx(server, client: "198.51.100.7")
        client.headers["Forwarded"] = "for=127.0.0.1"
        #expect(try client.get("/metrics").status == 404)
        client.headers["Forwarded"] = nil
        client.headers["X-Forwarded-For"] = "127.0.0.1, 198.51.100.7"
        #expect(try client.get("/metrics").status == 404, "a claim left of what nginx wrote")
        client.headers["X-Forwarded-For"] = "127.0.0.1"
        #expect(try client.get("/metrics").status == 200, "a client on this machine, through nginx")
    }

    /// Fails on 8f8cef3, where the audit log named the address the client made up.
    @Test func theAuditLogNamesTheAddressNginxSaw() throws {
        let server = try SiteServer(routes: nil, Self.behindNginx)
        defer { server.stop() }
        let admin = throughNginx(server, client: "198.51.100.7")
        admin.headers["Forwarded"] = "for=203.0.113.66"
        try admin.signInAsAdmin()
        let targets = try server.site.admins.auditLog().map(\.target)
        #expect(targets.contains("198.51.100.7"), "\(targets)")
        #expect(!targets.contains { $0.contains("203.0.113") })
    }

    /// Fails on 8f8cef3 (no `--client-address-header`; there, `Forwarded` won): the access log names the address
    /// nginx saw, whatever the client claimed.
    @Test func forgedAddressesStayOutOfTheAccessLog() throws {
        let scratch = ScratchDirectory()
        let child = try ChildProcess([
            "--port", "0", "--db", scratch.path + "/a.sqlite", "--client-address-header", "X-Forwarded-For",
        ])
        let port = try child.waitForPort(timeout: 30)
        let site = RemoteSite(port: port, database: .sqlite(scratch.path + "/a.sqlite"))
        let headers = ["X-Forwarded-For": "198.51.100.7", "Forwarded": "for=203.0.113.66", "X-Real-IP": "203.0.113.67"]
        #expect(try site.get("/healthz?probe=1", headers: headers).status == 200)
        let end = csysNow() + 10
        while !child.standardOutput.contains("/healthz"), csysNow() < end { sleep(seconds: 0.02) }
        let log = child.standardOutput
        #expect(log.contains("198.51.100.7 GET /healthz"), "\(log)")
        #expect(!log.contains("203.0.113"))
    }

    /// Fails on 8f8cef3, where each address of one /64 was a client of its own.
    @Test func anIPv6SlashSixtyFourIsOneClient() throws {
        let server = try SiteServer(routes: nil, Self.behindNginx)
        defer { server.stop() }
        let client = throughNginx(server, client: "2001:db8:1:2::1")
        var statuses: [Int] = []
        for n in 0..<8 {
            client.headers["X-Forwarded-For"] = "2001:db8:1:2:\(n):\(n * 7):ab:\(n + 1)"
            statuses.append(try wrongSignIn(client))
        }
        #expect(statuses == Array(repeating: 401, count: 5) + Array(repeating: 429, count: 3), "\(statuses)")
        let neighbour = throughNginx(server, client: "2001:db8:1:3::1")
        #expect(try wrongSignIn(neighbour) == 401, "the next /64 is another client")
    }

    @Test func limitKeys() {
        #expect(ClientAddress.limitKey("2001:db8:1:2:aaaa:bbbb:cccc:dddd") == "2001:db8:1:2::/64")
        #expect(ClientAddress.limitKey("2001:db8:1:2::1") == ClientAddress.limitKey("2001:db8:1:2:ffff::"))
        #expect(ClientAddress.limitKey("2001:db8:1:3::1") != ClientAddress.limitKey("2001:db8:1:2::1"))
        #expect(ClientAddress.limitKey("::1") == "::/64")
        #expect(ClientAddress.limitKey("::ffff:192.0.2.1") == "192.0.2.1", "an IPv4-mapped client is its IPv4 address")
        #expect(ClientAddress.limitKey("192.0.2.1") == "192.0.2.1")
        #expect(ClientAddress.limitKey("") == "")
    }

    @Test func onlyTheNamedHeaderFromATrustedPeerIsRead() throws {
        var proxies = TrustedProxies(parsing: "127.0.0.5")!
        var headers = HTTPHeaders()
        headers.append("Forwarded", "for=192.0.2.1")
        headers.append("X-Forwarded-For", "198.51.100.7")
        #expect(proxies.client(peer: "127.0.0.5", headers: headers) == "127.0.0.5", "no header named: none read")
        proxies.header = .xForwardedFor
        #expect(proxies.client(peer: "127.0.0.5", headers: headers) == "198.51.100.7")
        #expect(proxies.client(peer: "127.0.0.6", headers: headers) == "127.0.0.6", "an untrusted peer")
        proxies.header = .forwarded
        #expect(proxies.client(peer: "127.0.0.5", headers: headers) == "192.0.2.1")
        var junk = HTTPHeaders()
        junk.append("X-Forwarded-For", "198.51.100.7, unknown, 127.0.0.5")
        proxies.header = .xForwardedFor
        #expect(proxies.client(peer: "127.0.0.5", headers: junk) == "127.0.0.5", "no address: the proxy that passed it")
    }

    @Test func parsing() throws {
        #expect(TrustedProxies(parsing: "10.0.0.0/33") == nil)
        #expect(TrustedProxies(parsing: "nginx") == nil)
        let proxies = TrustedProxies(parsing: "10.0.0.0/8,::1,fd00::/8")!
        #expect(proxies.isTrusted("10.200.3.4") && proxies.isTrusted("::1") && proxies.isTrusted("fd12::5"))
        #expect(proxies.isTrusted("::ffff:10.0.0.1"), "an IPv4-mapped peer")
        #expect(!proxies.isTrusted("11.0.0.1") && !proxies.isTrusted("::2"))
        let environment: [String: String] = [
            "ARCADE_TRUSTED_PROXIES": "10.0.0.0/8", "ARCADE_CLIENT_ADDRESS_HEADER": "forwarded",
        ]
        let options = try ServeOptions.parse([], environment: { environment[$0] })
        #expect(options.server.trustedProxies.isTrusted("10.1.1.1"))
        #expect(!options.server.trustedProxies.isTrusted("127.0.0.1"))
        #expect(options.server.trustedProxies.header == .forwarded)
        let loopback = try ServeOptions.parse(["--client-address-header", "X-Real-IP"], environment: { _ in nil })
        #expect(
            loopback.server.trustedProxies.isTrusted("127.0.0.1") && loopback.server.trustedProxies.isTrusted("::1"))
        #expect(throws: UsageError.self, "proxies whose header is not named") {
            try ServeOptions.parse(["--trusted-proxies", "10.0.0.0/8"], environment: { _ in nil })
        }
        #expect(throws: UsageError.self) {
            try ServeOptions.parse(["--client-address-header", "True-Client-IP"], environment: { _ in nil })
        }
        #expect(throws: UsageError.self) {
            try ServeOptions.parse(["--trusted-proxies", "x"], environment: { _ in nil })
        }
    }
}
