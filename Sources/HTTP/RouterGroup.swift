import Synchronization

/// Routes that share a path prefix, a chain of middleware and where they run, declared where the routes are. A group
/// made from another keeps its middleware and adds its own, as Hummingbird's `RouterGroup` does; a middleware may
/// turn the context into a richer one (`ContextMiddleware`, as Hummingbird's `ChildRequestContext`), so a handler
/// receives exactly the context its group guarantees. Handlers may throw: a middleware of the group should turn errors
/// into answers (an error that escapes every middleware is answered plainly, with its `HTTPResponseError` status or
/// 500).
public struct RouterGroup<Context: Sendable> {
    public typealias Handle = @Sendable (Request, Context) throws -> Response
    /// The middleware (and the context they build) around a handler: composed once, when a route is added.
    typealias Wrap = @Sendable (@escaping Handle) -> @Sendable (Request) throws -> Response

    let router: Router
    public let prefix: String
    /// Where this group's routes run (a deferred route's start), as the router places it (`Router.placing`).
    public let execution: Execution
    let wrap: Wrap

    /// A new group runs where reads may wait (`.reads`): on the loop only once its context says it may.
    init(router: Router, prefix: String, context: @escaping @Sendable (Request) -> Context) {
        self.init(router: router, prefix: prefix, execution: .reads) { handle in
            { request in try handle(request, context(request)) }
        }
    }

    init(router: Router, prefix: String, execution: Execution, wrap: @escaping Wrap) {
        self.router = router
        self.prefix = prefix
        self.execution = execution
        self.wrap = wrap
    }

    /// This group with `added` running inside its middleware, nearer the handlers.
    public func adding(_ added: some Middleware<Context>) -> RouterGroup {
        let outer = wrap
        return RouterGroup(router: router, prefix: prefix, execution: execution) { handle in
            outer { request, context in try added.handle(request, context: context, next: Next(call: handle)) }
        }
    }

    /// A group whose handlers take the richer context `added` builds.
    public func adding<Child>(_ added: some ContextMiddleware<Context, Child>) -> RouterGroup<Child> {
        let outer = wrap
        return RouterGroup<Child>(router: router, prefix: prefix, execution: execution) { handle in
            outer { request, context in try added.handle(request, context: context, next: Next(call: handle)) }
        }
    }

    /// A group under a longer path, with the same middleware.
    public func group(_ path: String) -> RouterGroup {
        RouterGroup(router: router, prefix: prefix + path, execution: execution, wrap: wrap)
    }

    /// The same group, its routes run as `placement` says: where reads may wait, or on the pool.
    public func running(_ placement: Placement) -> RouterGroup {
        RouterGroup(router: router, prefix: prefix, execution: placement.execution, wrap: wrap)
    }

    public func on(_ method: Method, _ path: String, file: String = #fileID, use handle: @escaping Handle) {
        let chain = wrap(handle)
        router.add(
            method, prefix + path, Handler(router.placing(execution)) { request in Self.run(chain, request) },
            file: file)
    }

    public func get(_ path: String, file: String = #fileID, use handle: @escaping Handle) {
        on(.get, path, file: file, use: handle)
    }

    public func post(_ path: String, file: String = #fileID, use handle: @escaping Handle) {
        on(.post, path, file: file, use: handle)
    }

    public typealias Start = @Sendable (Request, Context, Reply) throws -> Void

    /// A route that answers later, from any thread, through its `Reply` (when a write it queued is committed). The
    /// middleware run first, around `start`, where the group places them: the headers they add to the stand-in `start` leaves (cookies, security
    /// headers) are carried over to the real answer. An answer of their own, or an error `start` throws, is sent
    /// at once. The chain is composed for each request, around that request's reply.
    public func deferred(_ method: Method, _ path: String, file: String = #fileID, use start: @escaping Start) {
        let wrap = self.wrap
        router.add(
            method, prefix + path,
            .deferred { request, reply in
                let answer = DeferredAnswer(reply)
                let chain = wrap { request, context in
                    try start(request, context, answer.reply)
                    answer.started()
                    return Response(status: .noContent)
                }
                let first = Self.run(chain, request)
                if answer.hasStarted { answer.middlewareDone(first.headers) } else { reply.send(first) }
            }, execution: execution, file: file)
    }

    static func run(_ chain: @Sendable (Request) throws -> Response, _ request: Request) -> Response {
        do {
            return try chain(request)
        } catch let error as any HTTPResponseError {
            return Response.error(error.status, detail: error.message.isEmpty ? nil : error.message)
        } catch {
            return Response.error(.internalServerError)
        }
    }
}

extension RouterGroup where Context: LoopContext {
    /// The same group, its routes run on the event loop: its context holds nothing a database gave.
    public func runningOnLoop() -> RouterGroup {
        RouterGroup(router: router, prefix: prefix, execution: .loop, wrap: wrap)
    }
}

/// Joins a deferred route's answer with the headers its middleware added, whichever comes second.
private final class DeferredAnswer: Sendable {
    private let state = Mutex<(headers: HTTPHeaders?, early: Response?, started: Bool)>((nil, nil, false))
    private let outer: Reply
    var reply: Reply {
        Reply(deliver: { [self] in deliver($0) }, offload: { [outer] in outer.offload($0) })
    }

    init(_ reply: Reply) { outer = reply }

    /// The route's start returned: its reply will come, so the middleware's answer is a stand-in.
    func started() { state.withLock { $0.started = true } }
    var hasStarted: Bool { state.withLock { $0.started } }

    func middlewareDone(_ headers: HTTPHeaders) {
        guard
            let early = state.withLock({ state -> Response? in
                state.headers = headers
                return state.early
            })
        else { return }
        outer.send(Self.merge(early, headers))
    }

    private func deliver(_ response: Response) {
        guard
            let headers = state.withLock({ state -> HTTPHeaders? in
                if state.headers == nil { state.early = response }
                return state.headers
            })
        else { return }
        outer.send(Self.merge(response, headers))
    }

    /// The answer's own headers win; the middleware's cookies are all kept.
    private static func merge(_ response: Response, _ added: HTTPHeaders) -> Response {
        var response = response
        response.headers.appendMissing(from: added, always: "Set-Cookie")
        return response
    }
}
