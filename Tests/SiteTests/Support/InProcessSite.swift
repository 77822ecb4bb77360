import HTTP
import Storage
import Synchronization
import TestSupport
import Threads

@testable import ArcadeStore
@testable import ArcadeWeb

/// The site's routes called in this process, without sockets or event loops: for the app's own logic, each request
/// parsed from its bytes by the server's parser and answered by the router and the handler it picks, as the server
/// would. What the server itself does (connections, pipelining, limits, event streams) keeps its socket tests.
final class InProcessSite: LocalSite, @unchecked Sendable {
    let site: Site
    let database: DatabaseLocation
    let scratch = ScratchDirectory()
    private let limits: ParserLimits
    /// The threads deferred routes offloaded work to, joined when the site stops.
    private let threads = ThreadList()

    init(engine: Engine = .sqlite, _ configure: (inout ServeOptions) -> Void = { _ in }) throws {
        let options = try SiteServer.options(engine, scratch, configure)
        database = options.database
        site = try Site(options: options)
        var limits = options.server.limits
        limits.uploadGate = limits.uploadGate ?? site.routes.uploadGate
        self.limits = limits
    }

    func stop() {
        threads.joinAll()
        SiteServer.close(site)
    }

    func exchange(_ raw: [UInt8], from source: String?) throws -> WireResponse {
        var request: Request
        do { request = try parse(raw) } catch let error as HTTPError { return wire(site.routes.refusal(error)) }
        request = request.from(source ?? "127.0.0.1")
        let response =
            switch site.routes.handler(for: &request) {
            case .loop(let respond), .pool(let respond): respond(request)
            case .deferred(let start): try wait(for: start, request)
            }
        return wire(response)
    }

    private func wire(_ response: Response) -> WireResponse {
        let body: [UInt8] =
            switch response.body {
            case .empty, .file: []  // a file is the server's to send: its tests use `SiteServer`
            case .bytes(let bytes): bytes
            case .events(_, let initial): initial
            }
        return WireResponse(
            status: response.status.code, reason: response.status.reason,
            headers: response.headers.map { ($0.name, $0.value) }, body: body)
    }

    /// One whole request, as the server's parser reads it with the site's limits; an upload's head is put to the
    /// site's gate first. Throws the parser's refusal.
    private func parse(_ bytes: [UInt8]) throws -> Request {
        var parser = RequestParser(limits: limits)
        var (used, event) = bytes.withUnsafeBytes { parser.parse($0) }
        if case .approval(let headers) = event {
            event = parser.approve(limits.uploadGate?.allows(headers) ?? true) ?? .needMore
            if case .needMore = event {
                (used, event) = bytes[used...].withUnsafeBytes { parser.parse($0) }
            }
        }
        switch event {
        case .request(let request): return request
        case .failure(let error): throw error
        default: throw TestFailure("not one whole request: \(event)")
        }
    }

    /// A deferred route's answer, sent from whichever thread commits its write; work it offloads runs on a thread
    /// of its own, as on the server's pool.
    private func wait(for start: @Sendable (Request, Reply) -> Void, _ request: Request) throws -> Response {
        let answer = Mutex<Response?>(nil)
        let sent = Condition()
        let reply = Reply(
            deliver: { response in
                sent.withLock {
                    answer.withLock { $0 = response }
                    sent.broadcast()
                }
            },
            offload: { [threads] work in threads.start(work) })
        start(request, reply)
        return try sent.withLock {
            for _ in 0..<300 where answer.withLock({ $0 }) == nil { sent.wait(seconds: 0.1) }
            guard let response = answer.withLock({ $0 }) else { throw TestFailure("no answer in 30 s") }
            return response
        }
    }
}

/// Threads started for offloaded work, joined at the end.
private final class ThreadList: Sendable {
    private let threads = Mutex<[OSThread]>([])

    func start(_ work: @escaping @Sendable () -> Void) { threads.withLock { $0.append(OSThread(work)) } }

    func joinAll() {
        for thread in threads.withLock({ $0 }) { thread.join() }
    }
}
