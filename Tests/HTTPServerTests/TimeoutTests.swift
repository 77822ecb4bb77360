import TestSupport
import Testing
import HTTP
import HTTPServer

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
            if let r = try? client.readResponse(timeout: 0.01) { refused = r; break }
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


import CSystem
