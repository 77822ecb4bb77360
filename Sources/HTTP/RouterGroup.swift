import Synchronization

/// Routes that share a path prefix and a chain of middleware, declared where the routes are: a group made from
/// another keeps its middleware and adds its own, as Hummingbird's `RouterGroup` does. Handlers take the context the
/// middleware built and may throw; the chain's first middleware should turn errors into pages (an error that
/// escapes every middleware is answered plainly, with its `HTTPResponseError` status or 500).
public struct RouterGroup<Context: Sendable>: Sendable {
    public let prefix: String
    /// Each middleware's `handle`, as a closure made where its type was known: calling it needs no existential.
    let middleware: [Step]
    let context: @Sendable (Request) -> Context

    public init(_ prefix: String = "", context: @escaping @Sendable (Request) -> Context) {
        self.prefix = prefix
        middleware = []
        self.context = context
    }

    typealias Step = @Sendable (Request, Context, Next<Context>) throws -> Response

    private init(prefix: String, middleware: [Step], context: @escaping @Sendable (Request) -> Context) {
        self.prefix = prefix
        self.middleware = middleware
        self.context = context
    }

    /// This group with `added` running inside its middleware, nearer the handlers.
    public func adding(_ added: some Middleware<Context>) -> RouterGroup {
        RouterGroup(prefix: prefix, middleware: middleware + [{ try added.handle($0, context: $1, next: $2) }], context: context)
    }

    /// A group under a longer path, with the same middleware.
    public func group(_ path: String) -> RouterGroup {
        RouterGroup(prefix: prefix + path, middleware: middleware, context: context)
    }

    public typealias Handle = @Sendable (Request, Context) throws -> Response

    /// Adds a route; `offLoop` runs it (middleware and all) on the server's pool of blocking threads.
    public func on(_ method: Method, _ path: String, offLoop: Bool = false, in router: inout Router,
                   _ handle: @escaping Handle) {
        let chain = self.chain(handle)
        router.add(method, prefix + path, offLoop: offLoop) { request in chain(request) }
    }

    public func get(_ path: String, offLoop: Bool = false, in router: inout Router, _ handle: @escaping Handle) {
        on(.get, path, offLoop: offLoop, in: &router, handle)
    }

    public func post(_ path: String, offLoop: Bool = false, in router: inout Router, _ handle: @escaping Handle) {
        on(.post, path, offLoop: offLoop, in: &router, handle)
    }

    /// A route that answers later, from any thread, through its `Reply` (when a write it queued is committed). The
    /// middleware run first, around `start` (on the loop): they see a placeholder answer, and the headers they add
    /// to it (cookies, security headers) are carried over to the real one. An answer of their own, or an error
    /// `start` throws, is sent at once.
    public func deferred(_ method: Method, _ path: String, in router: inout Router,
                         _ start: @escaping @Sendable (Request, Context, Reply) throws -> Void) {
        let middleware = self.middleware, makeContext = context
        router.add(method, prefix + path) { request, reply in
            let answer = DeferredAnswer(reply)
            let first = RouterGroup.run(RouterGroup.compose(middleware) { request, context in
                try start(request, context, answer.reply)
                var placeholder = Response(status: .noContent)
                placeholder.headers.append(DeferredAnswer.marker, "")
                return placeholder
            }, request, makeContext(request))
            if first.headers.contains(DeferredAnswer.marker) { answer.middlewareDone(first.headers) } else { reply.send(first) }
        }
    }

    func chain(_ handle: @escaping Handle) -> @Sendable (Request) -> Response {
        let chain = RouterGroup.compose(middleware, handle), makeContext = context
        return { request in RouterGroup.run(chain, request, makeContext(request)) }
    }

    /// The middleware around `handle`, outermost first, nested once when the route is added.
    static func compose(_ middleware: [Step], _ handle: @escaping Handle) -> Handle {
        var chain = handle
        for step in middleware.reversed() {
            let inner = chain
            chain = { request, context in try step(request, context, Next(call: inner)) }
        }
        return chain
    }

    static func run(_ chain: Handle, _ request: Request, _ context: Context) -> Response {
        do {
            return try chain(request, context)
        } catch let error as any HTTPResponseError {
            return Response.error(error.status, detail: error.message.isEmpty ? nil : error.message)
        } catch {
            return Response.error(.internalServerError)
        }
    }
}

/// Joins a deferred route's answer with the headers its middleware added, whichever comes second.
private final class DeferredAnswer: Sendable {
    static let marker = "X-Deferred-Placeholder"
    private let state = Mutex<(headers: HTTPHeaders?, early: Response?)>((nil, nil))
    private let outer: Reply
    var reply: Reply {
        Reply(deliver: { [self] in deliver($0) }, offload: { [outer] in outer.offload($0) })
    }

    init(_ reply: Reply) { outer = reply }

    func middlewareDone(_ headers: HTTPHeaders) {
        var added = headers
        added.remove(DeferredAnswer.marker)
        guard let early = state.withLock({ state -> Response? in state.headers = added; return state.early }) else { return }
        outer.send(Self.merge(early, added))
    }

    private func deliver(_ response: Response) {
        guard let headers = state.withLock({ state -> HTTPHeaders? in
            if state.headers == nil { state.early = response }
            return state.headers
        }) else { return }
        outer.send(Self.merge(response, headers))
    }

    /// The answer's own headers win; the middleware's cookies are all kept.
    private static func merge(_ response: Response, _ added: HTTPHeaders) -> Response {
        var response = response
        response.headers.appendMissing(from: added, always: "Set-Cookie")
        return response
    }
}
