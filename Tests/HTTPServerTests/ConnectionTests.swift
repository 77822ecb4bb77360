import HTTP
import HTTPServer
import Synchronization
import TestSupport
import Testing
import Threads

@Suite("Connections over loopback")
struct ConnectionTests {
    @Test func keepAliveServesManyRequestsOnOneConnection() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try server.client()
        for i in 0..<5 {
            client.send(get("/echo-path/\(i)"))
            let response = try client.readResponse()
            #expect(response.status == 200)
            #expect(response.text == "\(i)")
            #expect(response.header("Connection") == nil, "keep-alive is the HTTP/1.1 default")
            #expect(response.header("Date")?.hasSuffix(" GMT") == true)
        }
        #expect(try !client.closes(within: 0.2))
    }

    @Test func pipelinedResponsesComeBackInOrder() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try server.client()
        // The first is answered off the loop and slowly; order must still hold.
        client.send(
            get("/slow?ms=200") + get("/hello") + get("/echo-path/third")
                + "POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 4\r\n\r\nbody")
        #expect(try client.readResponse().text == "slept")
        #expect(try client.readResponse().text == "hello")
        #expect(try client.readResponse().text == "third")
        #expect(try client.readResponse().text == "body")
    }

    /// A request that hands work off (to the pool) sends the answers already due first. Another connection must not
    /// read then: all share the loop's read buffer, which still holds the rest of this client's pipelined requests.
    @Test func handingWorkOffKeepsEachClientsPipelinedRequests() throws {
        let router = TestServer.routes()
        router.get("/block") { _ in
            sleep(seconds: 0.2)  // holds the loop, so what follows arrives in one turn
            return .text("blocked")
        }
        let server = try TestServer({ $0.workers = 1 }, router: router)
        defer { server.stop() }
        let first = try server.client()
        let other = try server.client()
        let blocker = try server.client()
        // `other` waits for an answer from the pool; its next requests arrive meanwhile and stay in its socket.
        other.send(get("/slow?ms=150"))
        sleep(seconds: 0.05)
        other.send(get("/hello") + get("/echo-path/other's"))
        sleep(seconds: 0.05)
        blocker.send(get("/block"))
        sleep(seconds: 0.15)
        // In one turn: `other`'s answer comes back from the pool (due), and `first` hands work off, then has more.
        first.send(get("/slow?ms=1") + get("/echo-path/first's"))
        #expect(try blocker.readResponse().text == "blocked")
        #expect(try first.readResponse().text == "slept")
        #expect(try first.readResponse().text == "first's")
        #expect(try other.readResponse().text == "slept")
        #expect(try other.readResponse().text == "hello")
        #expect(try other.readResponse().text == "other's")
    }

    @Test func offLoopHandlerAnswersBeforeConnectionClose() throws {
        let server = try TestServer()
        defer { server.stop() }
        for version in ["HTTP/1.1\r\nHost: t\r\nConnection: close", "HTTP/1.0"] {
            let client = try server.client()
            client.send("GET /slow?ms=150 \(version)\r\n\r\n")
            let response = try client.readResponse()
            #expect(response.text == "slept", "\(version)")
            #expect(try client.closes(within: 2))
        }
    }

    /// Each route runs where it was placed, once: a read on the loop where reads are local, on the pool where they
    /// wait; a deferred route's start likewise. Pipelined, so the order must hold too.
    @Test(arguments: [false, true]) func aRouteRunsWhereItIsPlaced(readsWait: Bool) throws {
        let router = Router(readsWait: readsWait)
        let runs = Mutex(0)
        let place: @Sendable (Request) -> Response = { _ in
            runs.withLock { $0 += 1 }
            return .text(ThreadRole.isEventLoop ? "loop" : "pool")
        }
        router.get("/memory", .loop, place)
        router.get("/reads", .reads, place)
        router.get("/slow", .pool, place)
        router.group(context: { _ in () }).running(.reads).deferred(.get, "/later") { request, _, reply in
            reply.send(place(request))
        }
        // A group starts where reads may wait; only one whose context is made from memory may run on the loop (a
        // group of `()`, or of the site's contexts, has no `runningOnLoop()`: the compiler refuses it).
        let plain = router.group(context: { _ in () })
        plain.get("/grouped") { request, _ in place(request) }
        router.group(context: Plain.init).runningOnLoop().get("/plain") { request, _ in place(request) }
        let server = try TestServer(router: router)
        defer { server.stop() }
        let client = try server.client()
        let paths = ["/reads", "/memory", "/later", "/slow", "/reads", "/grouped", "/plain"]
        client.send(paths.map { "GET \($0) HTTP/1.1\r\nHost: t\r\n\r\n" }.joined())
        let reads: Execution = readsWait ? .pool : .loop
        for expected in [reads, .loop, reads, .pool, reads, reads, .loop] {
            #expect(try client.readResponse().text == "\(expected)")
        }
        #expect(runs.withLock { $0 } == paths.count, "each ran once")
        #expect(try router.build().table.map(\.execution) == [.loop, reads, .pool, reads, reads, .loop])
    }

    /// A context made from the request alone, which may be taken on the loop.
    struct Plain: LoopContext {
        init(_ request: Request) {}
    }

    @Test func http10ClosesUnlessAskedToKeepAlive() throws {
        let server = try TestServer()
        defer { server.stop() }
        let plain = try server.client()
        plain.send("GET /hello HTTP/1.0\r\n\r\n")
        let first = try plain.readResponse()
        #expect(first.text == "hello")
        #expect(first.header("Connection") == "close")
        #expect(try plain.closes(within: 2))

        let kept = try server.client()
        kept.send("GET /hello HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
        #expect(try kept.readResponse().header("Connection") == "keep-alive")
        kept.send("GET /echo-path/again HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
        #expect(try kept.readResponse().text == "again")
    }

    @Test func connectionCloseFromTheClientIsHonoured() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try server.client()
        client.send(get("/hello", "Connection: close\r\n"))
        let response = try client.readResponse()
        #expect(response.header("Connection") == "close")
        #expect(try client.closes(within: 2))
    }

    @Test func headHasHeadersButNoBody() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try server.client()
        client.send(get("/big?n=5000"))
        let full = try client.readResponse()
        client.send("HEAD /big?n=5000 HTTP/1.1\r\nHost: t\r\n\r\n")
        let head = try client.readResponse(head: true)
        #expect(head.status == 200)
        #expect(head.header("Content-Length") == full.header("Content-Length"))
        #expect(head.header("Content-Length") == "5000")
        // No stray body bytes: the next response parses cleanly.
        client.send(get("/hello"))
        #expect(try client.readResponse().text == "hello")
    }

    @Test func chunkedRequestBodies() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try server.client()
        client.send("POST /echo HTTP/1.1\r\nHost: t\r\nTransfer-Encoding: chunked\r\n\r\n")
        client.send("4;ext=1\r\nWiki\r\n5\r\npedia\r\n")
        client.send("0\r\nTrailer: x\r\n\r\n")
        #expect(try client.readResponse().text == "Wikipedia")
    }

    @Test func bytesArrivingOneAtATime() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try server.client()
        for byte in Array("POST /echo HTTP/1.1\r\nHost: t\r\nContent-Length: 3\r\n\r\nabc".utf8) {
            client.send([byte])
        }
        #expect(try client.readResponse().text == "abc")
    }

    @Test func expectContinue() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try server.client()
        client.send("POST /echo HTTP/1.1\r\nHost: t\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n")
        let interim = try client.readResponse()
        #expect(interim.status == 100)
        client.send("hello")
        let final = try client.readResponse()
        #expect(final.status == 200)
        #expect(final.text == "hello")
    }

    @Test func expectContinueTooLargeIsRefusedWithoutContinue() throws {
        let server = try TestServer { $0.limits.maxBody = 100 }
        defer { server.stop() }
        let client = try server.client()
        client.send("POST /echo HTTP/1.1\r\nHost: t\r\nExpect: 100-continue\r\nContent-Length: 101\r\n\r\n")
        #expect(try client.readResponse().status == 413)
    }

    @Test func requestLimitPerConnection() throws {
        let server = try TestServer { $0.maxRequestsPerConnection = 3 }
        defer { server.stop() }
        let client = try server.client()
        client.send(get("/hello") + get("/hello") + get("/hello") + get("/hello"))
        #expect(try client.readResponse().header("Connection") == nil)
        #expect(try client.readResponse().header("Connection") == nil)
        #expect(try client.readResponse().header("Connection") == "close")
        #expect(try client.closes(within: 2))
    }

    @Test func routingStatuses() throws {
        let server = try TestServer()
        defer { server.stop() }
        let client = try server.client()
        client.send(get("/nowhere"))
        #expect(try client.readResponse().status == 404)
        client.send("DELETE /hello HTTP/1.1\r\nHost: t\r\n\r\n")
        let wrong = try client.readResponse()
        #expect(wrong.status == 405)
        #expect(wrong.header("Allow") == "GET, HEAD")
    }
}
