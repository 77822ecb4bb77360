import CSystem
import HTTP
import HTTPServer
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite("Load and back-pressure")
struct LoadTests {
    @Test func twoHundredConcurrentClients() throws {
        let server = try TestServer()
        defer { server.stop() }
        let clients = try (0..<200).map { _ in try server.client() }
        for (i, client) in clients.enumerated() {
            #expect(client.send(get("/echo-path/\(i)")))
        }
        for (i, client) in clients.enumerated() {
            let response = try client.readResponse()
            #expect(response.status == 200)
            #expect(response.text == "\(i)")
        }
        // And again, on the same connections.
        for client in clients { client.send(get("/hello")) }
        for client in clients { #expect(try client.readResponse().text == "hello") }
    }

    @Test func slowReaderGetsEverythingAndStallsNoOne() throws {
        let server = try TestServer { $0.workers = 1 }
        defer { server.stop() }
        let size = 8_000_000
        let slow = try server.client(receiveBuffer: 4096)
        slow.send(get("/big?n=\(size)"))
        sleep(seconds: 0.2)
        // The one loop is holding a big unsent response; others are served at once.
        let other = try server.client()
        let start = csysNow()
        other.send(get("/hello"))
        #expect(try other.readResponse(timeout: 2).text == "hello")
        #expect(csysNow() - start < 1)
        // The slow reader, when it reads, gets every byte intact.
        let response = try slow.readResponse(timeout: 30)
        #expect(response.body.count == size)
        #expect(response.body.enumerated().allSatisfy { $0.element == UInt8(truncatingIfNeeded: $0.offset % 251) })
    }

    @Test func pipelinedFloodIsBoundedByBackPressure() throws {
        let server = try TestServer { $0.workers = 1 }
        defer { server.stop() }
        let client = try server.client(receiveBuffer: 4096)
        // 200 pipelined requests for 100 kB each, none read yet: the server
        // must stop parsing rather than queue 20 MB, then resume.
        let requests = String(repeating: get("/big?n=100000"), count: 200)
        #expect(client.send(requests))
        sleep(seconds: 0.3)
        for _ in 0..<200 { #expect(try client.readResponse(timeout: 20).body.count == 100_000) }
    }
}
