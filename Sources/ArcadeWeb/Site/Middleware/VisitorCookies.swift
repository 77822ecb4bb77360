import HTTP
import Logger

/// Identifies the visitor from their signed cookies (a new one is minted, not stored, until their first action),
/// and sets the cookies this request made on whatever the handler answers, an error page included.
struct VisitorCookies: ContextMiddleware {
    let identity: Identity
    let errors: ErrorPages

    func handle(_ request: Request, context: RequestContext, next: Next<PlayerContext>) throws -> Response {
        let visitor = try identity.visitor(for: request)
        var response: Response
        do {
            response = try next(request, PlayerContext(visitor: visitor, log: RequestLog(requestID: request.requestID)))
        } catch {
            response = errors.answer(for: error, request, visitor: visitor)
        }
        // A cookie the handler set itself (a passkey's sign-in names another player) is not set again over it.
        guard !visitor.cookies.isEmpty else { return response }
        let own = response.headers.values("Set-Cookie")
        for cookie in visitor.cookies where !own.contains(where: { $0.hasPrefix(cookie.name + "=") }) {
            response.setCookie(cookie)
        }
        return response
    }
}
