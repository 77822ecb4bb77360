import HTTP
import HTTPServer
import Storage
import Synchronization
import Templates
import TestSupport
import Testing
import Threads

@testable import ArcadeStore
@testable import ArcadeWeb

#if canImport(Glibc)
import Glibc
#endif

/// A running site: reached over loopback (the site in this process, or an `arcade` or nginx apart), or its routes
/// called in this process without sockets (`InProcessSite`).
protocol Endpoint: Sendable {
    var database: DatabaseLocation { get }
    /// One request, as its bytes on the wire (the head, a blank line, the body), from `source` (127.0.0.x).
    func exchange(_ raw: [UInt8], from source: String?) throws -> WireResponse
}

/// A site reached over loopback.
protocol SocketEndpoint: Endpoint {
    var port: Int { get }
}

extension SocketEndpoint {
    /// On a fresh connection.
    func exchange(_ raw: [UInt8], from source: String?) throws -> WireResponse {
        let client = try source.map { try RawClient(port: port, from: $0) } ?? RawClient(port: port)
        client.send(raw)
        return try client.readResponse()
    }
}

/// The site in this process, over loopback or not.
protocol LocalSite: Endpoint {
    var site: Site { get }
}

/// A site in another process: its port, and the database it uses.
struct RemoteSite: SocketEndpoint {
    let port: Int
    let database: DatabaseLocation
}

extension Endpoint {
    func get(_ path: String, headers: [String: String] = [:], from source: String? = nil) throws -> WireResponse {
        let extra = headers.map { "\($0.key): \($0.value)\r\n" }.joined()
        return try exchange(
            Array("GET \(path) HTTP/1.1\r\nHost: t\r\n\(extra)Connection: close\r\n\r\n".utf8), from: source)
    }

    func post(
        _ path: String, body: String, headers: [String: String] = [:], from source: String? = nil
    ) throws -> WireResponse {
        let extra = headers.map { "\($0.key): \($0.value)\r\n" }.joined()
        let head =
            "POST \(path) HTTP/1.1\r\nHost: t\r\n\(extra)Content-Type: application/x-www-form-urlencoded\r\n"
            + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n"
        return try exchange(Array((head + body).utf8), from: source)
    }
}

/// The real site on a free loopback port, with its own database (an SQLite file, or a PostgreSQL schema).
final class SiteServer: SocketEndpoint, LocalSite, @unchecked Sendable {
    let site: Site
    let server: HTTPServer
    let database: DatabaseLocation
    let scratch = ScratchDirectory()
    var port: Int { server.port }

    init(
        engine: Engine = .sqlite, routes: ((PlayerRoutes) -> Void)? = nil,
        _ configure: (inout ServeOptions) -> Void = { _ in }
    ) throws {
        let options = try Self.options(engine, scratch, configure)
        database = options.database
        site = try Site(options: options, adding: routes ?? { _ in })
        server = try HTTPServer(configuration: options.server, responder: site.routes)
        server.start()
    }

    /// A test's site: its own database and photos folder, no access log, every rendered page audited.
    static func options(
        _ engine: Engine, _ scratch: ScratchDirectory, _ configure: (inout ServeOptions) -> Void
    ) throws -> ServeOptions {
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
        return options
    }

    func stop() {
        server.shutdown()
        server.wait()
        Self.close(site)
    }

    static func close(_ site: Site) {
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

/// Another instance on the same database, busy: `write` runs over and over on a connection of its own (given the
/// round's number) until `stop`, each commit a change this instance hears of through its change feed.
final class BusyElsewhere: Sendable {
    private let stopping = Atomic<Bool>(false)
    private let done = Atomic<Int>(0)
    private let thread = Mutex<OSThread?>(nil)

    /// Rounds written so far.
    var writes: Int { done.load(ordering: .relaxed) }

    init(_ location: DatabaseLocation, _ write: @escaping @Sendable (Database, Int) throws -> Void) {
        thread.withLock {
            $0 = OSThread { [self] in
                guard let others = try? Database(location: location) else { return }
                var n = 0
                while !stopping.load(ordering: .acquiring) {
                    n += 1
                    try? write(others, n)
                    done.add(1, ordering: .relaxed)
                }
            }
        }
    }

    func stop() {
        stopping.store(true, ordering: .releasing)
        thread.withLock { running in
            running?.join()
            running = nil
        }
    }
}
