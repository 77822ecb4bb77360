import HTTP
import HTTPServer
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// A real server on a free loopback port, with routes made for testing.
final class TestServer {
    let server: HTTPServer
    var port: Int { server.port }

    init(_ configure: (inout ServerConfiguration) -> Void = { _ in }, router: Router = TestServer.routes()) throws {
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.workers = 2
        configuration.accessLog = false
        // These suites' clients are all 127.0.0.1; the per-address cap has its own tests.
        configuration.maxConnectionsPerAddress = .max
        configure(&configuration)
        server = try HTTPServer(configuration: configuration, responder: router.build())
        server.start()
    }

    func stop() {
        server.shutdown()
        server.wait()
    }

    func client(receiveBuffer: Int = 0) throws -> RawClient { try RawClient(port: port, receiveBuffer: receiveBuffer) }

    static func routes() -> Router {
        let router = Router()
        router.get("/hello") { _ in .text("hello") }
        router.get("/echo-path/*rest") { .text($0.parameters["rest"] ?? "") }
        router.post("/echo") { request in
            Response(status: .ok, contentType: "application/octet-stream", body: request.body)
        }
        router.get("/big") { request in
            let n = Int(request.query["n"] ?? "") ?? 1_000_000
            let body = [UInt8](unsafeUninitializedCapacity: n) { buffer, count in
                for i in 0..<n { buffer[i] = UInt8(truncatingIfNeeded: i % 251) }
                count = n
            }
            return Response(status: .ok, contentType: "application/octet-stream", body: body)
        }
        router.get("/zeros") { request in
            Response(
                status: .ok, contentType: "application/octet-stream",
                body: [UInt8](repeating: 0x30, count: Int(request.query["n"] ?? "") ?? 1_000_000))
        }
        router.get("/slow", .pool) { request in
            sleep(seconds: Double(Int(request.query["ms"] ?? "") ?? 100) / 1000)
            return .text("slept")
        }
        return router
    }
}

/// `GET path` with a Host header, as raw text.
func get(_ path: String, _ extra: String = "") -> String { "GET \(path) HTTP/1.1\r\nHost: t\r\n\(extra)\r\n" }
