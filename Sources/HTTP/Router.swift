/// Where a route's work runs, declared with its group (`RouterGroup.running`).
public enum Execution: Sendable {
    /// On the event loop: for work served from memory.
    case loop
    /// On the server's pool of blocking threads, so slow work (an outbound call, a wait for a commit) does not
    /// stall the loop.
    case pool
    /// Work that reads the database: on the loop where a read is a page of a local file (SQLite), on the pool where
    /// each read is a network round trip (PostgreSQL). The router resolves it when the route is added
    /// (`Router.readsWait`), so a route runs where it was placed, once.
    case reads
}

/// Where a group of routes runs (`RouterGroup.running`); the event loop is not one of them. A group whose handlers
/// take a context built from what the site stores (a player, an admin) must never wait for a database on a loop, so
/// the compiler refuses to place it there: only a group whose context is a `LoopContext` has `runningOnLoop()`.
public enum Placement: Sendable {
    /// See `Execution.reads`.
    case reads
    /// See `Execution.pool`.
    case pool

    var execution: Execution { self == .reads ? .reads : .pool }
}

/// A context that a handler on the event loop may take: made from the request alone and memory, never from a
/// database. None of the site's contexts is one.
public protocol LoopContext: Sendable {}

/// What answers a request: a plain synchronous function, run on the event loop or on the pool; or a deferred start,
/// run on the loop, that answers later through its `Reply` from any thread (when a write it queued has been
/// committed, say), with no thread waiting meanwhile.
public enum Handler: Sendable {
    case loop(@Sendable (Request) -> Response)
    case pool(@Sendable (Request) -> Response)
    case deferred(@Sendable (Request, Reply) -> Void)

    /// `.reads` not resolved by a router is placed where it may wait.
    public init(_ execution: Execution, _ respond: @escaping @Sendable (Request) -> Response) {
        self = execution == .loop ? .loop(respond) : .pool(respond)
    }

    /// Where the handler (a deferred one's start) runs: `.loop` or `.pool`.
    var execution: Execution {
        if case .pool = self { .pool } else { .loop }
    }
}

/// How a deferred handler answers: exactly once, with `send`, from any thread. Work that may block
/// (before the answer) goes to the server's pool of blocking threads with `offload`.
public struct Reply: Sendable {
    private let deliver: @Sendable (Response) -> Void
    private let blocking: @Sendable (@escaping @Sendable () -> Void) -> Void

    public init(
        deliver: @escaping @Sendable (Response) -> Void,
        offload: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void
    ) {
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
    /// Whether a POST to an upload path may send its body, judged from its head (`ParserLimits.uploadGate`).
    var uploadGate: UploadGate? { get }
}

extension Responder {
    public func refusal(_ error: HTTPError) -> Response { Response.error(error.status, detail: error.reason) }
    public var channels: EventChannels? { nil }
    public var uploadGate: UploadGate? { nil }
}

/// Two routes that could take the same path, refused when the routes are built (at start-up).
public struct RouteConflict: Error, CustomStringConvertible {
    public let description: String
}

/// Collects routes, then builds the `Routes` that answer requests. Patterns are `/`-separated segments: literals,
/// `:name` parameters, and a final `*name` that takes the rest. As in RoutingKit's trie, literals match before
/// parameters and parameters before a rest, whatever the order routes were added in; two routes that could take
/// the same path (the same method on the same shape) are refused by `build()`.
public final class Router {
    private var root = Node()
    private var conflicts: [String] = []
    /// Every route, in the order added, with the file that added it: what the README's "Where things are" lists.
    public private(set) var table: [RouteEntry] = []
    public var fallback: Handler = .loop { _ in Response.error(.notFound) }
    /// Builds the 404/405/400 pages; the site replaces it with its own.
    public var errorPage: @Sendable (Status, Request) -> Response = { status, _ in Response.error(status) }
    /// Builds the page for requests refused before routing.
    public var refusalPage: @Sendable (HTTPError) -> Response = { Response.error($0.status, detail: $0.reason) }
    /// The event streams' channels (Server-Sent Events routes publish here).
    public var channels: EventChannels?
    /// See `Responder.uploadGate`.
    public var uploadGate: UploadGate?
    /// Whether reading the database may wait (PostgreSQL: each read a network round trip): `.reads` routes run on
    /// the pool then, on the loop otherwise.
    public let readsWait: Bool

    public init(readsWait: Bool = false) { self.readsWait = readsWait }

    /// Where work placed as `execution` runs on this router: `.loop` or `.pool`.
    public func placing(_ execution: Execution) -> Execution {
        execution == .reads ? (readsWait ? .pool : .loop) : execution
    }

    /// Adds a route; a deferred handler's start runs where `execution` places it.
    public func add(
        _ method: Method, _ pattern: String, _ handler: Handler, execution: Execution? = nil, file: String = #fileID
    ) {
        var handler = handler
        if case .deferred(let start) = handler, let execution, placing(execution) == .pool {
            handler = .deferred { request, reply in reply.offload { start(request, reply) } }
        }
        table.append(
            RouteEntry(
                method: method, pattern: pattern, file: file,
                execution: execution.map(placing) ?? handler.execution))
        let segments = pattern.split(separator: "/").map(String.init)
        if let conflict = root.insert(method, segments[...], handler, pattern: pattern) { conflicts.append(conflict) }
    }

    public func get(
        _ pattern: String, _ execution: Execution = .loop, file: String = #fileID,
        _ respond: @escaping @Sendable (Request) -> Response
    ) {
        add(.get, pattern, Handler(placing(execution), respond), file: file)
    }

    public func post(
        _ pattern: String, _ execution: Execution = .loop, file: String = #fileID,
        _ respond: @escaping @Sendable (Request) -> Response
    ) {
        add(.post, pattern, Handler(placing(execution), respond), file: file)
    }

    /// A group of routes under `prefix` whose handlers take a context made from each request.
    public func group<Context>(
        _ prefix: String = "", context: @escaping @Sendable (Request) -> Context
    ) -> RouterGroup<Context> {
        RouterGroup(router: self, prefix: prefix, context: context)
    }

    /// The routes, ready to answer; throws the first conflict found.
    public func build() throws(RouteConflict) -> Routes {
        if let first = conflicts.first { throw RouteConflict(description: first) }
        return Routes(
            root: root, fallback: fallback, errorPage: errorPage, refusalPage: refusalPage, channels: channels,
            table: table, uploadGate: uploadGate)
    }
}

/// A route as declared: its method, its pattern, the source file that declared it (`#fileID`), and where it runs
/// (`.loop` or `.pool`; a deferred route's start).
public struct RouteEntry: Sendable, Equatable {
    public let method: Method
    public let pattern: String
    public let file: String
    public let execution: Execution
}

/// Whether a POST to an upload path may send its body, judged from its head alone, and where that judgement runs
/// (`.loop`, or `.pool` for one that reads a database that may wait).
public struct UploadGate: Sendable {
    public let execution: Execution
    public let allows: @Sendable (HTTPHeaders) -> Bool

    public init(_ execution: Execution, allows: @escaping @Sendable (HTTPHeaders) -> Bool) {
        self.execution = execution
        self.allows = allows
    }
}

/// A trie of path segments; a node's handlers are the routes that end there, by method.
struct Node: Sendable {
    var literals: [String: Node] = [:]
    /// At most one parameter name per position: two would make the same path mean two things.
    var parameter: (name: String, node: [Node])? = nil
    var rest: (name: String, handlers: [Method: Handler])? = nil
    var restPatterns: [Method: String] = [:]
    var handlers: [Method: Handler] = [:]
    /// Each method's pattern here, to name both sides of a conflict.
    var patterns: [Method: String] = [:]

    /// Adds a route; returns a conflict's description instead when it could take another route's paths.
    mutating func insert(_ method: Method, _ path: ArraySlice<String>, _ handler: Handler, pattern: String) -> String? {
        guard let first = path.first else {
            if let other = patterns[method] { return "\(method) \(pattern) conflicts with \(method) \(other)" }
            handlers[method] = handler
            patterns[method] = pattern
            return nil
        }
        let remaining = path.dropFirst()
        if first.hasPrefix("*") {
            guard remaining.isEmpty else { return "*rest must be the last segment of \(pattern)" }
            let name = String(first.dropFirst())
            var current = rest ?? (name, [:])
            if current.name != name || current.handlers[method] != nil {
                return "\(method) \(pattern) conflicts with another route ending in *\(current.name)"
            }
            current.handlers[method] = handler
            rest = current
            restPatterns[method] = pattern
            return nil
        }
        if first.hasPrefix(":") {
            let name = String(first.dropFirst())
            var child = parameter ?? (name, [Node()])
            guard child.name == name else {
                return "\(pattern) names a parameter :\(name) where another route has :\(child.name)"
            }
            let conflict = child.node[0].insert(method, remaining, handler, pattern: pattern)
            parameter = child
            return conflict
        }
        var child = literals[first] ?? Node()
        let conflict = child.insert(method, remaining, handler, pattern: pattern)
        literals[first] = child
        return conflict
    }

    /// Searches literals, then the parameter, then a rest; `found` is asked at each node that ends a path and
    /// stops the search by returning true.
    func search(
        _ path: ArraySlice<String>, _ parameters: inout [String: String],
        _ found: (_ handlers: [Method: Handler], _ patterns: [Method: String], _ parameters: [String: String]) -> Bool
    ) -> Bool {
        guard let first = path.first else { return !handlers.isEmpty && found(handlers, patterns, parameters) }
        if let child = literals[first], child.search(path.dropFirst(), &parameters, found) { return true }
        if let (name, node) = parameter {
            let previous = parameters[name]
            parameters[name] = first
            if node[0].search(path.dropFirst(), &parameters, found) { return true }
            parameters[name] = previous
        }
        if let (name, handlers) = rest {
            parameters[name] = path.joined(separator: "/")
            if found(handlers, restPatterns, parameters) { return true }
            parameters[name] = nil
        }
        return false
    }
}

/// Routes by method and path. HEAD falls back to GET; a path known under other methods is 405 with `Allow`; an
/// unknown path goes to `fallback`.
public struct Routes: Responder {
    let root: Node
    let fallback: Handler
    let errorPage: @Sendable (Status, Request) -> Response
    let refusalPage: @Sendable (HTTPError) -> Response
    public let channels: EventChannels?
    public let table: [RouteEntry]
    public let uploadGate: UploadGate?

    public func refusal(_ error: HTTPError) -> Response { refusalPage(error) }

    public func handler(for request: inout Request) -> Handler {
        guard let path = request.pathSegments else {
            let page = errorPage
            return .loop { page(.badRequest, $0) }
        }
        request = request.routed(path: path)
        var chosen: (Handler, [String: String], String?)?
        var allowed: Set<Method> = []
        var parameters: [String: String] = [:]
        let method = request.method
        _ = root.search(path[...], &parameters) { handlers, patterns, parameters in
            // An exact HEAD route wins over GET's; GET serves HEAD otherwise.
            if let handler = handlers[method] ?? (method == .head ? handlers[.get] : nil) {
                chosen = (handler, parameters, patterns[method] ?? patterns[.get])
                return true
            }
            allowed.formUnion(handlers.keys)
            return false
        }
        if let (handler, parameters, pattern) = chosen {
            request = request.routed(path: path, pattern: pattern, parameters: parameters)
            return handler
        }
        if allowed.isEmpty { return fallback }
        if allowed.contains(.get) { allowed.insert(.head) }
        let allow = Method.allCases.filter(allowed.contains).map(\.description).joined(separator: ", ")
        let page = errorPage
        return .loop { request in
            var response = page(.methodNotAllowed, request)
            response.headers.set("Allow", allow)
            return response
        }
    }
}
