import HTTP

/// How the site's routes are declared: each feature registers its pages and actions through a kit whose group
/// carries the middleware that apply (see `Site.init`, where the groups are made). Pages identify the visitor first;
/// actions also pass `CSRFCheck`. Handlers may throw: `ErrorPages` turns that into the localized error page.
struct RouteKit: Sendable {
    let group: RouterGroup<SiteContext>
    let identity: Identity
    let pages: Pages
    let errors: ErrorPages

    /// The same kit with `middleware` added for the routes registered through it.
    func adding(_ middleware: some Middleware<SiteContext>) -> RouteKit {
        RouteKit(group: group.adding(middleware), identity: identity, pages: pages, errors: errors)
    }

    /// The CRT theme, toggled by each completion of the `crt` cheat, on every page. A cosmetic choice, so a plain
    /// cookie carries it and pages need no database lookup.
    static let themeCookie = "arcade_theme"
    /// Set when the retro cheat was found: the chooser offers retro from then on.
    static let retroCookie = "arcade_retro"

    /// A GET page.
    func page(_ router: inout Router, _ pattern: String, offLoop: Bool = false,
              _ render: @escaping @Sendable (Request, Visitor) throws -> Response) {
        group.get(pattern, offLoop: offLoop, in: &router) { request, context in try render(request, context.requireVisitor()) }
    }

    /// A state-changing POST. It runs off the event loop, since it waits for its write to be committed before
    /// answering.
    func action(_ router: inout Router, _ pattern: String, offLoop: Bool = true,
                _ handle: @escaping @Sendable (Request, Visitor) throws -> Response) {
        group.adding(CSRFCheck(identity: identity, pages: pages))
            .post(pattern, offLoop: offLoop, in: &router) { request, context in try handle(request, context.requireVisitor()) }
    }

    /// A state-changing POST that holds no thread while its write commits: `handle` runs on the event loop after the
    /// same middleware as `action`, queues its write, and answers through `Later` once it is committed.
    func deferredAction(_ router: inout Router, _ pattern: String,
                        _ handle: @escaping @Sendable (Request, Visitor, Later) throws -> Void) {
        let errors = self.errors
        group.adding(CSRFCheck(identity: identity, pages: pages)).deferred(.post, pattern, in: &router) { request, context, reply in
            let visitor = try context.requireVisitor()
            try handle(request, visitor, Later(reply: reply) { result in
                switch result {
                case .success(let response): reply.send(response)
                case .failure(let error): reply.send(SecurityHeaders<SiteContext>.apply(errors.page(for: error, request)))
                }
            })
        }
    }

    /// A deferred action's answer, from any thread: exactly one of `send`, `fail` or `sendBlocking`.
    struct Later: Sendable {
        let reply: Reply
        let done: @Sendable (Result<Response, any Error>) -> Void

        func send(_ response: Response) { done(.success(response)) }
        func fail(_ error: any Error) { done(.failure(error)) }
        /// Finishes on a pool thread, for work that may block (an outbound call, a wait for a commit).
        func sendBlocking(_ body: @escaping @Sendable () throws -> Response) {
            reply.offload { [done] in done(Result { try body() }) }
        }
    }
}
