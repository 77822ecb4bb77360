import HTTPServer
import TestSupport
import Testing

@testable import ArcadeApp

/// Behind a reverse proxy every visitor has the proxy's address: only from `--trusted-proxies` are `Forwarded` and
/// `X-Forwarded-For` read (the rightmost address that is no trusted proxy), so limits hold each real client apart;
/// from anyone else the headers are ignored, so a client cannot pick a fresh address per try.
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
        }
        defer { server.stop() }
        // Each request as nginx sends it: the client's claim on the left, what the proxy saw on the right.
        let first = Player(server, from: "127.0.0.5")
        first.headers["X-Forwarded-For"] = "203.0.113.9, 198.51.100.7, 10.1.2.3"
        for _ in 0..<5 { #expect(try wrongSignIn(first) == 401) }
        #expect(try wrongSignIn(first) == 429, "198.51.100.7 has used its tries")
        // Another visitor through the same proxy is not held back by the first.
        let second = Player(server, from: "127.0.0.5")
        second.headers["Forwarded"] = "for=\"[2001:db8::1]:4711\";proto=https"
        #expect(try wrongSignIn(second) == 401)
        // Nor is one whose claimed address differs only to the left of what the proxy wrote.
        first.headers["X-Forwarded-For"] = "192.0.2.1, 198.51.100.7"
        #expect(try wrongSignIn(first) == 429)
    }

    @Test func headersFromAnyoneElseAreIgnored() throws {
        let server = try SiteServer(routes: nil) { $0.server.trustedProxies = TrustedProxies(parsing: "127.0.0.5")! }
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

    @Test func parsing() throws {
        #expect(TrustedProxies(parsing: "10.0.0.0/33") == nil)
        #expect(TrustedProxies(parsing: "nginx") == nil)
        let proxies = TrustedProxies(parsing: "10.0.0.0/8,::1,fd00::/8")!
        #expect(proxies.isTrusted("10.200.3.4") && proxies.isTrusted("::1") && proxies.isTrusted("fd12::5"))
        #expect(proxies.isTrusted("::ffff:10.0.0.1"), "an IPv4-mapped peer")
        #expect(!proxies.isTrusted("11.0.0.1") && !proxies.isTrusted("::2"))
        let options = try ServeOptions.parse([], environment: { $0 == "ARCADE_TRUSTED_PROXIES" ? "10.0.0.0/8" : nil })
        #expect(options.server.trustedProxies.isTrusted("10.1.1.1"))
        #expect(throws: UsageError.self) {
            try ServeOptions.parse(["--trusted-proxies", "x"], environment: { _ in nil })
        }
    }
}
