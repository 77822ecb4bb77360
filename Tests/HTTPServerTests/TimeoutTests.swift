import CSystem
import HTTP
import HTTPServer
import TestSupport
import Testing

@Suite("Timeouts")
struct TimeoutTests {
    // Short timeouts, with margins wide enough for a loaded 2-core CI machine.
    static func server(body: Double = 0.6) throws -> TestServer {
        try TestServer {
            $0.headerTimeout = 0.6
            $0.bodyTimeout = body
            $0.idleTimeout = 0.6
            $0.writeTimeout = 0.5
        }
    }

    @Test func slowlorisHeadIsCutOffWith408() throws {
        let server = try Self.server()
        defer { server.stop() }
        let client = try server.client()
        // Trickle header bytes, each well within any per-read timeout:
        // the whole head must still arrive within the header timeout.
        client.send("GET /hello HTTP/1.1\r\n")
        let start = csysNow()
        var refused: WireResponse?
        for i in 0..<20 {
            guard client.send("X-\(i): y\r\n") else { break }
            sleep(seconds: 0.05)
            if let r = try? client.readResponse(timeout: 0.01) {
                refused = r
                break
            }
        }
        let response = try refused ?? client.readResponse(timeout: 2)
        #expect(response.status == 408)
        #expect(csysNow() - start < 2)
        #expect(try client.closes(within: 2))
    }

    @Test func silentConnectionIsClosed() throws {
        let server = try Self.server()
        defer { server.stop() }
        let client = try server.client()
        #expect(try !client.closes(within: 0.2))
        #expect(try client.closes(within: 2))
    }

    @Test func stalledBodyIsCutOffWith408() throws {
        let server = try Self.server()
        defer { server.stop() }
        let client = try server.client()
        client.send("POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 10\r\n\r\nabc")
        let start = csysNow()
        let response = try client.readResponse(timeout: 3)
        #expect(response.status == 408)
        #expect(csysNow() - start >= 0.5)
        #expect(try client.closes(within: 2))
    }

    @Test func bodyReadsResetTheBodyTimer() throws {
        let server = try Self.server(body: 1)
        defer { server.stop() }
        let client = try server.client()
        client.send("POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 6\r\n\r\n")
        // 6 × 0.2 s = 1.2 s in all, more than the 1 s limit, but never 1 s apart.
        for byte in Array("abcdef".utf8) {
            sleep(seconds: 0.2)
            client.send([byte])
        }
        #expect(try client.readResponse().text == "abcdef")
    }

    @Test func idleKeepAliveIsClosed() throws {
        let server = try Self.server()
        defer { server.stop() }
        let client = try server.client()
        client.send(get("/hello"))
        #expect(try client.readResponse().status == 200)
        #expect(try !client.closes(within: 0.2))
        #expect(try client.closes(within: 2))
    }

    @Test func stalledReaderIsDropped() throws {
        let server = try Self.server()
        defer { server.stop() }
        let client = try server.client(receiveBuffer: 4096)
        let size = 16_000_000
        client.send(get("/zeros?n=\(size)"))
        sleep(seconds: 1.2)  // read nothing for longer than the write timeout
        let received = try client.drain(timeout: 5)
        #expect(received < size, "the server gave up on the stalled reader")
    }
}

@Suite("Minimum body rate")
struct BodyRateTests {
    static func server() throws -> TestServer {
        try TestServer {
            $0.bodyTimeout = 30
            $0.bodyGracePeriod = 1
            $0.minBodyRate = 500
        }
    }

    /// One byte a second never trips the gap timeout, but after the grace period it is far under the rate.
    @Test func aTrickledBodyGets408AfterTheGracePeriod() throws {
        let server = try Self.server()
        defer { server.stop() }
        let clients = try (0..<20).map { _ in try server.client() }
        for client in clients { client.send("POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 100000\r\n\r\n") }
        let start = csysNow()
        var answered: [Int] = []
        for tick in 0..<12 where answered.count < clients.count {
            for (i, client) in clients.enumerated() where !answered.contains(i) {
                if tick % 2 == 0 { client.send("x") }  // one byte a second
                if let response = try? client.readResponse(timeout: 0.01) {
                    #expect(response.status == 408)
                    answered.append(i)
                }
            }
            sleep(seconds: 0.5)
        }
        #expect(answered.count == clients.count, "every trickling connection is refused")
        #expect(csysNow() - start < 1 + 3, "within the grace period plus a few seconds")
        for client in clients { #expect(try client.closes(within: 2)) }
    }

    /// A body sent fast and then trickled is cut in its first slow window, not once its average since the start
    /// (here 50 KB in the first moment: over a minute and a half at 500 bytes a second) has fallen below the rate.
    @Test func aFastStartDoesNotBuyATrickle() throws {
        let server = try Self.server()
        defer { server.stop() }
        let client = try server.client()
        client.send("POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 100000\r\n\r\n")
        client.send(String(repeating: "f", count: 50_000))
        let start = csysNow()
        var answer: WireResponse?
        while answer == nil && csysNow() - start < 8 {
            client.send("x")
            answer = try? client.readResponse(timeout: 0.3)
        }
        #expect(answer?.status == 408)
        #expect(csysNow() - start < 3.5, "within two windows of a second")
    }

    /// A slow but steady upload (1,000 bytes a second, over twice the rate) is accepted.
    @Test func aSteadyBodyAboveTheRateIsAccepted() throws {
        let server = try Self.server()
        defer { server.stop() }
        let client = try server.client()
        let body = String(repeating: "b", count: 3_000)
        client.send("POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: \(body.utf8.count)\r\n\r\n")
        for piece in stride(from: 0, to: 3_000, by: 250) {
            client.send(String(repeating: "b", count: 250))
            if piece + 250 < 3_000 { sleep(seconds: 0.25) }
        }
        let response = try client.readResponse(timeout: 3)
        #expect(response.status == 200)
        #expect(response.text == body)
    }
}
