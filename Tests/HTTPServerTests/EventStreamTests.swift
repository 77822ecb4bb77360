import HTTP
import HTTPServer
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Server-Sent Events: a response that stays open on a channel and gets what is published to it.
@Suite("Event streams")
struct EventStreamTests {
    static func server(
        _ configure: (inout ServerConfiguration) -> Void = { _ in }
    ) throws -> (TestServer, EventChannels) {
        let channels = EventChannels()
        let router = TestServer.routes()
        router.channels = channels
        router.get("/events/:channel") { request in
            .eventStream(
                channel: request.parameters["channel"] ?? "", initial: EventChannels.encode(event: "hello", data: "0"))
        }
        return (try TestServer(configure, router: router), channels)
    }

    @Test func aStreamGetsItsChannelsEventsOnly() throws {
        let (server, channels) = try Self.server()
        defer { server.stop() }
        let red = try server.client()
        let blue = try server.client()
        red.send(get("/events/red"))
        blue.send(get("/events/blue"))
        let head = try red.readResponse(head: true)
        #expect(head.status == 200)
        #expect(head.header("Content-Type") == "text/event-stream; charset=utf-8")
        #expect(head.header("Content-Length") == nil, "a stream has no length")
        #expect(head.header("Connection") == "close")
        #expect(try red.read(until: "data: 0\n\n", timeout: 2) != nil, "the initial event")
        _ = try blue.readResponse(head: true)
        _ = try blue.read(until: "data: 0\n\n", timeout: 2)
        channels.publish("red", event: "etag", data: "two\nlines")
        #expect(try red.read(until: "event: etag\ndata: two\ndata: lines\n\n", timeout: 2) != nil)
        #expect(try blue.readAvailable(timeout: 0.3).isEmpty, "another channel hears nothing")
        // Anything the client sends on a stream is ignored; it still gets events.
        red.send(get("/hello"))
        channels.publish("red", event: "etag", data: "3")
        let more = try #require(try red.read(until: "data: 3\n\n", timeout: 2))
        #expect(!more.contains("hello"))
    }

    @Test func idleStreamsGetHeartbeatsAndOutliveTheIdleTimeout() throws {
        let (server, _) = try Self.server {
            $0.heartbeatInterval = 0.2
            $0.idleTimeout = 0.3
        }
        defer { server.stop() }
        let client = try server.client()
        client.send(get("/events/x"))
        _ = try client.readResponse(head: true)
        #expect(try client.read(until: ":\n\n", timeout: 2) != nil)
        sleep(seconds: 0.8)
        #expect(try client.read(until: ":\n\n", timeout: 1) != nil, "still open after twice the idle timeout")
    }

    @Test func shutdownEndsStreamsAndAClosedStreamIsForgotten() throws {
        let (server, channels) = try Self.server()
        let streams = try (0..<20).map { _ in try server.client() }
        for stream in streams { stream.send(get("/events/x")) }
        for stream in streams { _ = try stream.readResponse(head: true) }
        streams[0].close()
        channels.publish("x", event: "e", data: "after a close")  // the closed one is skipped without harm
        #expect(try streams[1].read(until: "after a close", timeout: 2) != nil)
        let start = csysNow()
        server.server.shutdown()
        for stream in streams.dropFirst() { #expect(try stream.closes(within: 2)) }
        server.server.wait()
        #expect(csysNow() - start < 2, "streams do not hold shutdown for its grace")
    }

    @Test func streamsCountAgainstTheConnectionCap() throws {
        let (server, _) = try Self.server { $0.maxConnections = 3 }
        defer { server.stop() }
        let streams = try (0..<3).map { _ in try server.client() }
        for stream in streams {
            stream.send(get("/events/x"))
            _ = try stream.readResponse(head: true)
        }
        let extra = try server.client()
        extra.send(get("/hello"))
        #expect(try extra.readResponse().status == 503)
    }
}
