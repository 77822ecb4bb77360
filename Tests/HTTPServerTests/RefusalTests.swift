import HTTP
import HTTPServer
import TestSupport
import Testing

@Suite("Bad requests over the wire: a short answer, then close")
struct RefusalTests {
    static let cases: [(String, String, Int)] = [
        ("long request line", "GET /" + String(repeating: "a", count: 9000) + " HTTP/1.1\r\nHost: t\r\n\r\n", 414),
        ("long header", "GET / HTTP/1.1\r\nHost: t\r\nX: " + String(repeating: "b", count: 9000) + "\r\n\r\n", 431),
        (
            "too many headers", "GET / HTTP/1.1\r\nHost: t\r\n" + (0..<101).map { "X-\($0): v\r\n" }.joined() + "\r\n",
            431
        ),
        ("body too large", "POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 2000000\r\n\r\n", 413),
        (
            "smuggling",
            "POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400
        ),
        ("obs-fold", "GET / HTTP/1.1\r\nHost: t\r\nX: a\r\n b\r\n\r\n", 400),
        ("missing host", "GET / HTTP/1.1\r\n\r\n", 400),
        ("gzip coding", "POST /echo HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: gzip\r\n\r\n", 501),
        ("unknown method", "BREW /pot HTTP/1.1\r\nHost: t\r\n\r\n", 501),
        ("HTTP/2 preface", "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", 505),
        ("TLS handshake", "\u{16}\u{03}\u{01}\u{02}\u{00}\u{01}\u{00}\u{01}\u{fc}\u{03}\u{03}", 400),
    ]

    @Test(arguments: 0..<RefusalTests.cases.count)
    func refused(_ index: Int) throws {
        let (name, text, status) = Self.cases[index]
        let server = try TestServer()
        defer { server.stop() }
        let client = try server.client()
        client.send(text)
        let response = try client.readResponse()
        #expect(response.status == status, "\(name)")
        #expect(response.header("Connection") == "close", "\(name)")
        #expect(try client.closes(within: 3), "\(name)")
    }

    @Test func refusalReachesAClientStillSendingItsBody() throws {
        let server = try TestServer { $0.limits.maxBody = 1000 }
        defer { server.stop() }
        let client = try server.client()
        client.send("POST /echo HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n")
        // Keep sending after the limit; the 413 must still arrive intact.
        for _ in 0..<20 { client.send("100\r\n" + String(repeating: "z", count: 256) + "\r\n") }
        #expect(try client.readResponse().status == 413)
    }

    @Test func connectionCapRefusesGracefully() throws {
        let server = try TestServer {
            $0.maxConnections = 2
            $0.workers = 1
        }
        defer { server.stop() }
        let a = try server.client()
        let b = try server.client()
        a.send(get("/hello"))
        b.send(get("/hello"))
        #expect(try a.readResponse().status == 200)
        #expect(try b.readResponse().status == 200)
        let c = try server.client()
        let refused = try c.readResponse()
        #expect(refused.status == 503)
        #expect(refused.header("Retry-After") == "1")
        #expect(try c.closes(within: 2))
        // Capacity returns once a connection leaves.
        a.send(get("/hello", "Connection: close\r\n"))
        _ = try a.readResponse()
        #expect(try a.closes(within: 2))
        a.close()
        sleep(seconds: 0.2)
        let d = try server.client()
        d.send(get("/hello"))
        #expect(try d.readResponse().status == 200)
    }
}

@Suite("Garbage on the wire")
struct GarbageTests {
    /// A deterministic generator, so a failure can be replayed.
    struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    @Test func randomBytesNeverHangOrCrashTheServer() throws {
        let server = try TestServer { $0.headerTimeout = 1 }
        defer { server.stop() }
        var rng = SplitMix(state: 2026)
        let prefixes = [
            "", "GET / HTTP/1.1\r\n", "POST /echo HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n",
            "GET /hello HTTP/1.1\r\nHost: t\r\nContent-Length: 3\r\n", "PUT /echo HTTP/1.0\r\n",
        ]
        for round in 0..<150 {
            let client = try server.client()
            var bytes = Array(prefixes[round % prefixes.count].utf8)
            for _ in 0..<Int.random(in: 1...600, using: &rng) {
                // Mostly HTTP-ish bytes, some raw.
                let pool = Array("GET /%:; \r\n\t0123456789abcdefHTTP/1.0chunked\u{0}\u{7f}\"=".utf8)
                bytes.append(
                    Bool.random(using: &rng) ? pool.randomElement(using: &rng)! : UInt8.random(in: 0...255, using: &rng)
                )
            }
            client.send(bytes)
            // Whatever the server answers, it must close or keep waiting; then
            // stay healthy for the next client.
            _ = try? client.readAvailable(timeout: 0.02)
        }
        let check = try server.client()
        check.send(get("/hello"))
        #expect(try check.readResponse().text == "hello")
    }
}
