import HTTP
import HTTPServer
import Storage
import Templates
import TestSupport
import Testing

@testable import ArcadeApp

#if canImport(Glibc)
import Glibc
#endif

/// A running site reached over loopback: the site in this process, or an `arcade` (or nginx before several) apart.
protocol Endpoint: Sendable {
    var port: Int { get }
    var database: DatabaseLocation { get }
}

/// A site in another process: its port, and the database it uses.
struct RemoteSite: Endpoint {
    let port: Int
    let database: DatabaseLocation
}

extension Endpoint {
    /// One request on a fresh connection.
    func get(_ path: String, headers: [String: String] = [:], from source: String? = nil) throws -> WireResponse {
        let client = try source.map { try RawClient(port: port, from: $0) } ?? RawClient(port: port)
        let extra = headers.map { "\($0.key): \($0.value)\r\n" }.joined()
        client.send("GET \(path) HTTP/1.1\r\nHost: t\r\n\(extra)Connection: close\r\n\r\n")
        return try client.readResponse()
    }

    func post(
        _ path: String, body: String, headers: [String: String] = [:], from source: String? = nil
    ) throws -> WireResponse {
        let client = try source.map { try RawClient(port: port, from: $0) } ?? RawClient(port: port)
        let extra = headers.map { "\($0.key): \($0.value)\r\n" }.joined()
        client.send(
            "POST \(path) HTTP/1.1\r\nHost: t\r\n\(extra)Content-Type: application/x-www-form-urlencoded\r\n"
                + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)")
        return try client.readResponse()
    }
}

/// The real site on a free loopback port, with its own database (an SQLite file, or a PostgreSQL schema).
final class SiteServer: Endpoint, @unchecked Sendable {
    let site: Site
    let server: HTTPServer
    let database: DatabaseLocation
    let scratch = ScratchDirectory()
    var port: Int { server.port }

    init(
        engine: Engine = .sqlite, routes: ((PlayerRoutes) -> Void)? = nil,
        _ configure: (inout ServeOptions) -> Void = { _ in }
    ) throws {
        var options = ServeOptions()
        options.database = try TestDatabase.fresh(engine, in: scratch)
        options.photos = scratch.path + "/photos"
        options.server.port = 0
        options.server.workers = 2
        options.server.accessLog = false
        // Tests that move the clock by weeks keep their players; retention tests switch it on.
        options.forgetAfter = 0
        // Every page a test renders is checked for names no controller gives (see `stop`).
        options.auditTemplates = true
        configure(&options)
        database = options.database
        site = try Site(options: options, adding: routes ?? { _ in })
        server = try HTTPServer(configuration: options.server, responder: site.routes)
        server.start()
    }

    func stop() {
        server.shutdown()
        server.wait()
        site.close()
        let missing = site.services.pages.templates.audit?.missing ?? []
        #expect(missing.isEmpty, "names the pages interpolate that nothing gives: \(missing.sorted())")
    }
}

extension WireResponse {
    /// `name=value` of each Set-Cookie, for sending back.
    var cookies: [String: String] {
        var result: [String: String] = [:]
        for (name, value) in headers where name.lowercased() == "set-cookie" {
            let pair = value.split(separator: ";")[0]
            let parts = pair.split(separator: "=", maxSplits: 1)
            result[String(parts[0])] = parts.count > 1 ? String(parts[1]) : ""
        }
        return result
    }

    func cookieHeader(adding more: [String: String] = [:]) -> String {
        cookies.merging(more) { $1 }.map { "\($0.key)=\($0.value)" }.sorted().joined(separator: "; ")
    }
}
