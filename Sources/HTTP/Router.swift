/// What answers a request: a plain synchronous function, run on the event
/// loop, or, when `offLoop` is set, on the server's pool of blocking threads
/// so slow work (an outbound HTTP call, a long query) does not stall the loop;
/// or a `deferred` start, run on the loop, that answers later through its `Reply`
/// from any thread (when a write it queued has been committed, say), with no thread waiting meanwhile.
public struct Handler: Sendable {
    public let offLoop: Bool
    public let respond: @Sendable (Request) -> Response
    public let deferred: (@Sendable (Request, Reply) -> Void)?

    public init(offLoop: Bool = false, _ respond: @escaping @Sendable (Request) -> Response) {
        self.offLoop = offLoop
        self.respond = respond
        deferred = nil
    }

    public init(deferred start: @escaping @Sendable (Request, Reply) -> Void) {
        offLoop = false
        respond = { _ in Response.error(.internalServerError) }
        deferred = start
    }
}

/// How a deferred handler answers: exactly once, with `send`, from any thread. Work that may block
/// (before the answer) goes to the server's pool of blocking threads with `offload`.
public struct Reply: Sendable {
    private let deliver: @Sendable (Response) -> Void
    private let blocking: @Sendable (@escaping @Sendable () -> Void) -> Void

    public init(deliver: @escaping @Sendable (Response) -> Void,
                offload: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void) {
        self.deliver = deliver
        blocking = offload
    }

    public func send(_ response: Response) { deliver(response) }

    public func offload(_ work: @escaping @Sendable () -> Void) { blocking(work) }
}

/// Chooses the handler for each request. The server calls it on the loop.
public protocol Responder: Sendable {
    /// Returns the handler; may annotate the request (path parameters).
    func handler(for request: inout Request) -> Handler
    /// The page for a request the server refused before routing (400, 413, …).
    func refusal(_ error: HTTPError) -> Response
    /// Where event streams' events come from, if the responder has any.
    var channels: EventChannels? { get }
}

extension Responder {
    public func refusal(_ error: HTTPError) -> Response { Response.error(error.status, detail: error.reason) }
    public var channels: EventChannels? { nil }
}

/// Routes by method and path pattern. Patterns are `/`-separated segments:
/// literals, `:name` parameters, and a final `*name` that takes the rest.
/// HEAD falls back to GET; a path known under other methods is 405 with
/// `Allow`; an unknown path goes to `fallback` (404 unless set).
public struct Router: Responder {
    enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(String)
        case rest(String)
    }

    struct Route: Sendable {
        let method: Method
        let segments: [Segment]
        let handler: Handler
    }

    private var routes: [Route] = []
    /// Route indexes by their first segment when it is a literal ("" for `/`), and those starting with a parameter:
    /// a request is matched against the few that could match, in the order they were added.
    private var byFirstSegment: [String: [Int]] = [:]
    private var startingWithParameter: [Int] = []
    public var fallback = Handler { _ in Response.error(.notFound) }
    /// Builds the 404/405/400 pages; the site replaces it with its own.
    public var errorPage: @Sendable (Status, Request) -> Response = { status, _ in Response.error(status) }
    /// Builds the page for requests refused before routing.
    public var refusalPage: @Sendable (HTTPError) -> Response = { Response.error($0.status, detail: $0.reason) }
    /// The event streams' channels (Server-Sent Events routes publish here).
    public var channels: EventChannels?
    /// Runs the starts of deferred routes added afterwards off the loop: for a database each query of which is a
    /// network round trip (PostgreSQL), which no loop may wait for. Other routes stay on the loop, and run again on
    /// the pool when they would have waited (`ThreadRole.noteWouldWait`).
    public var deferredOffLoop = false

    public init() {}

    public mutating func add(_ method: Method, _ pattern: String, offLoop: Bool = false,
                             _ respond: @escaping @Sendable (Request) -> Response) {
        let segments = pattern.split(separator: "/").enumerated().map { index, part -> Segment in
            if part.hasPrefix(":") { return .parameter(String(part.dropFirst())) }
            if part.hasPrefix("*") { return .rest(String(part.dropFirst())) }
            return .literal(String(part))
        }
        if let restIndex = segments.firstIndex(where: { if case .rest = $0 { true } else { false } }) {
            precondition(restIndex == segments.count - 1, "*rest must be the last segment of \(pattern)")
        }
        switch segments.first {
        case .literal(let first)?: byFirstSegment[first, default: []].append(routes.count)
        case nil: byFirstSegment["", default: []].append(routes.count)
        default: startingWithParameter.append(routes.count)
        }
        routes.append(Route(method: method, segments: segments, handler: Handler(offLoop: offLoop, respond)))
    }

    public mutating func add(_ method: Method, _ pattern: String, deferred: @escaping @Sendable (Request, Reply) -> Void) {
        add(method, pattern) { _ in Response.error(.internalServerError) }
        let last = routes.removeLast()
        var start = deferred
        if deferredOffLoop {
            start = { request, reply in reply.offload { deferred(request, reply) } }
        }
        routes.append(Route(method: last.method, segments: last.segments, handler: Handler(deferred: start)))
    }

    public mutating func get(_ p: String, offLoop: Bool = false, _ h: @escaping @Sendable (Request) -> Response) { add(.get, p, offLoop: offLoop, h) }
    public mutating func post(_ p: String, offLoop: Bool = false, _ h: @escaping @Sendable (Request) -> Response) { add(.post, p, offLoop: offLoop, h) }
    public mutating func put(_ p: String, offLoop: Bool = false, _ h: @escaping @Sendable (Request) -> Response) { add(.put, p, offLoop: offLoop, h) }
    public mutating func delete(_ p: String, offLoop: Bool = false, _ h: @escaping @Sendable (Request) -> Response) { add(.delete, p, offLoop: offLoop, h) }

    public func refusal(_ error: HTTPError) -> Response { refusalPage(error) }

    public func handler(for request: inout Request) -> Handler {
        guard let path = request.pathSegments else {
            let page = errorPage
            return Handler { page(.badRequest, $0) }
        }
        request.decodedPath = path
        var allowed: [Method] = []
        for index in candidates(path.first ?? "") {
            let route = routes[index]
            guard let parameters = Router.match(route.segments, path) else { continue }
            if route.method == request.method || (request.method == .head && route.method == .get) {
                // An exact HEAD route wins over GET's; GET serves HEAD otherwise.
                if request.method == .head && route.method == .get
                    && routes.contains(where: { $0.method == .head && Router.match($0.segments, path) != nil }) {
                    continue
                }
                request.parameters = parameters
                return route.handler
            }
            allowed.append(route.method)
        }
        if allowed.isEmpty { return fallback }
        if allowed.contains(.get) && !allowed.contains(.head) { allowed.append(.head) }
        let allow = Method.allCases.filter(allowed.contains).map(\.description).joined(separator: ", ")
        let page = errorPage
        return Handler { request in
            var response = page(.methodNotAllowed, request)
            response.headers.set("Allow", allow)
            return response
        }
    }

    /// The indexes of the routes that could match a path starting with `first`, in the order they were added.
    private func candidates(_ first: String) -> [Int] {
        let literal = byFirstSegment[first] ?? []
        if startingWithParameter.isEmpty { return literal }
        if literal.isEmpty { return startingWithParameter }
        return (literal + startingWithParameter).sorted()
    }

    static func match(_ pattern: [Segment], _ path: [String]) -> [String: String]? {
        var parameters: [String: String] = [:]
        for (index, segment) in pattern.enumerated() {
            switch segment {
            case .rest(let name):
                parameters[name] = path[index...].joined(separator: "/")
                return parameters
            case .literal(let literal):
                guard index < path.count, path[index] == literal else { return nil }
            case .parameter(let name):
                guard index < path.count else { return nil }
                parameters[name] = path[index]
            }
        }
        return pattern.count == path.count ? parameters : nil
    }
}
