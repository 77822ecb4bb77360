import CSystem
import HTTP
import HTTPServer
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

@Suite("Graceful shutdown")
struct ShutdownTests {
    @Test func inFlightRequestsFinishIdleConnectionsClose() throws {
        let server = try TestServer()
        let idle = try server.client()
        idle.send(get("/hello"))
        #expect(try idle.readResponse().status == 200)
        let busy = try server.client()
        busy.send(get("/slow?ms=600"))
        sleep(seconds: 0.15)

        let start = csysNow()
        server.server.shutdown()
        // The idle connection goes at once; the busy one gets its answer.
        #expect(try idle.closes(within: 1))
        let response = try busy.readResponse(timeout: 5)
        #expect(response.text == "slept")
        #expect(response.header("Connection") == "close")
        server.server.wait()
        #expect(csysNow() - start < 5)
        // Nothing listens any more.
        #expect(throws: TestFailure.self) { _ = try RawClient(port: server.port) }
    }

    @Test func shutdownGivesUpOnStragglersAfterTheGrace() throws {
        let server = try TestServer { $0.shutdownGrace = 0.3 }
        let hanging = try server.client()
        hanging.send("GET /hello HTTP/1.1\r\nHost: t\r\n")  // never finishes its head
        sleep(seconds: 0.1)
        let start = csysNow()
        server.stop()
        #expect(csysNow() - start < 2)
        #expect(try hanging.closes(within: 1))
    }
}
