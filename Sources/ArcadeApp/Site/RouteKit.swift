import HTTP
import Interceptions
import Localization
import Templates

/// How routes are declared: pages identify the visitor first; actions also
/// check the CSRF token.
struct RouteKit: Sendable {
    let identity: Identity
    let pages: Pages
    let interceptions: InterceptionsStore
    var once: OnceStore? = nil
    /// The web app's version, compared with the rules' minimum app version.
    var clientVersion: @Sendable () -> String = { "1.0.0" }

    /// The update rule this browser breaks, if any (platform `web`; the OS
    /// and its version from the User-Agent).
    func updateNotice(_ request: Request) -> Violation? {
        guard let rules = try? interceptions.cachedRules(), rules.contains(where: { $0.platform == "web" && $0.active }),
              let app = Version(clientVersion()) else { return nil }
        // An unrecognized system is held to no OS minimum.
        let client = ClientOS.parse(userAgent: request.headers["User-Agent"] ?? "")
        return UpdateCheck.evaluate(rules, platform: "web", app: app, os: client?.version ?? Version("9999")!, system: client?.name,
                                    language: identity.language(for: request).0)
    }

    static func isGamePage(_ path: Substring) -> Bool {
        path == "/mastermind" || path.hasPrefix("/mastermind/") || path == "/namegame" || path.hasPrefix("/namegame/")
    }

    /// A GET page: the visitor is identified (and new cookies set) first;
    /// a failure inside becomes the localized 500 page.
    func page(_ router: inout Router, _ pattern: String, offLoop: Bool = false,
              _ render: @escaping @Sendable (Request, Visitor) throws -> Response) {
        router.get(pattern, offLoop: offLoop) { [self] request in respond(to: request, checkingCSRF: false, render) }
    }

    /// A state-changing POST: refused with a localized 403 unless it carries
    /// the session's CSRF token. It runs off the event loop, since it waits
    /// for its write to be committed before answering.
    func action(_ router: inout Router, _ pattern: String, offLoop: Bool = true,
                _ handle: @escaping @Sendable (Request, Visitor) throws -> Response) {
        router.post(pattern, offLoop: offLoop) { [self] request in respond(to: request, checkingCSRF: true, handle) }
    }

    /// A state-changing POST that holds no thread while its write commits: `handle` runs on the event loop
    /// after the same checks as `action`, queues its write, and answers through `Later` once it is committed.
    func deferredAction(_ router: inout Router, _ pattern: String,
                        _ handle: @escaping @Sendable (Request, Visitor, Later) throws -> Void) {
        router.add(.post, pattern) { [self] request, reply in
            switch prelude(request, checkingCSRF: true) {
            case .answered(let response):
                reply.send(response)
            case .proceed(let visitor, _):
                let later = Later(reply: reply) { result in
                    switch result {
                    case .success(let response):
                        reply.send(finish(response, visitor))
                    case .failure(let error):
                        reply.send(failure(request, error))
                    }
                }
                do { try handle(request, visitor, later) } catch { later.fail(error) }
            }
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

    /// The update banner's data: low is dismissible for 24 hours (the once-store remembers), medium and high stay.
    private func banner(_ notice: Violation?, _ visitor: Visitor, back: String) throws -> TemplateValue? {
        guard let notice else { return nil }
        let low = notice.rule.restriction == .low
        if low, let once, try once.perform(visitor).once.beenDone(SiteTasks.updateDismissed, scope: .since(86_400)) { return nil }
        let message = notice.message.isEmpty ? pages.localizer.string("update.required.text", language: visitor.language) : notice.message
        return .object(["level": .string(notice.rule.restriction.name), "message": .string(message),
                        "dismissible": .bool(low), "back": .string(OnceRoutes.localPath(back))])
    }

    /// The CRT theme, toggled by each completion of the `crt` cheat, on
    /// every page. A cosmetic choice, so a plain cookie carries it and pages
    /// need no database lookup.
    static let themeCookie = "arcade_theme"
    /// Set when the retro cheat was found: the chooser offers retro from then on.
    static let retroCookie = "arcade_retro"

    private func isFormPost(_ request: Request) -> Bool {
        request.headers["Content-Type"]?.lowercased().hasPrefix("application/x-www-form-urlencoded") == true
    }

    private func respond(to request: Request, checkingCSRF: Bool,
                         _ handle: (Request, Visitor) throws -> Response) -> Response {
        switch prelude(request, checkingCSRF: checkingCSRF) {
        case .answered(let response):
            return response
        case .proceed(let visitor, let look):
            return PageLook.$current.withValue(look) {
                do {
                    return finish(try handle(request, visitor), visitor)
                } catch {
                    return failure(request, error)
                }
            }
        }
    }

    private enum Prelude {
        /// Answered before the handler: maintenance, update required, a bad form, a failed CSRF check.
        case answered(Response)
        case proceed(Visitor, PageLook)
    }

    private func prelude(_ request: Request, checkingCSRF: Bool) -> Prelude {
        // Maintenance: every player page answers 503 (static files, /healthz and the APIs keep working).
        if let maintenance = try? interceptions.webMaintenance(), maintenance.active {
            let language = identity.language(for: request).0
            var response = pages.error(.serviceUnavailable, language: language, csrf: "", path: "/",
                                       message: Requirement(version: Version("0")!, messages: maintenance.messages)
                                           .message(for: language, base: "en"))
            let now = Int(NameGameStore.nowMilliseconds() / 1000)
            response.headers.set("Retry-After", String(max(60, min(86_400, (maintenance.endsAt ?? now + 300) - now))))
            return .answered(response)
        }
        let visitor: Visitor
        do { visitor = try identity.visitor(for: request) } catch { return .answered(failure(request, error)) }
        let notice = updateNotice(request)
        if let notice, notice.rule.restriction == .high, Self.isGamePage(request.rawPath) {
            // A high rule: game pages give way to "update required".
            var response = pages.render("update-required", title: pages.localizer.string("update.required.title", language: visitor.language),
                                    language: visitor.language, csrf: visitor.csrfToken, path: "/",
                                    data: ["message": .string(notice.message.isEmpty
                                        ? pages.localizer.string("update.required.text", language: visitor.language) : notice.message)])
            for cookie in visitor.cookies { response.setCookie(cookie) }
            return .answered(response)
        }
        let look: PageLook
        do {
            look = PageLook(theme: visitor.theme, retroUnlocked: visitor.retroUnlocked, banner: try banner(notice, visitor, back: String(request.rawPath)))
        } catch {
            return .answered(failure(request, error))
        }
        let response = PageLook.$current.withValue(look) { () -> Response? in
            if checkingCSRF && isFormPost(request) && request.form == nil {
                // A body that claims to be a form but does not parse: say so.
                return pages.error(.badRequest, language: visitor.language, csrf: visitor.csrfToken, path: "/")
            } else if checkingCSRF, let refusal = pages.fieldTooLong(request, visitor) {
                return refusal
            } else if checkingCSRF && !identity.passesCSRF(request) {
                return pages.error(.forbidden, language: visitor.language, csrf: visitor.csrfToken, path: "/")
            }
            return nil
        }
        guard let response else { return .proceed(visitor, look) }
        return .answered(finish(response, visitor))
    }

    /// What every handler's answer gets: the visitor's new cookies.
    private func finish(_ answer: Response, _ visitor: Visitor) -> Response {
        var response = answer
        for cookie in visitor.cookies { response.setCookie(cookie) }
        return response
    }

    private func failure(_ request: Request, _ error: any Error) -> Response {
        Log.error("\(request.method) \(request.target): \(error)")
        return pages.error(.internalServerError, language: identity.language(for: request).0, csrf: "", path: "/")
    }
}
