import HTTP

/// Identifies the visitor from their signed cookies (a new one is minted, not stored, until their first action),
/// and sets the cookies this request made on whatever the handler answers.
struct VisitorCookies: Middleware {
    let identity: Identity

    func handle(_ request: Request, context: SiteContext, next: Next<SiteContext>) throws -> Response {
        var context = context
        let visitor = try identity.visitor(for: request)
        context.visitor = visitor
        var response = try next(request, context)
        for cookie in visitor.cookies { response.setCookie(cookie) }
        return response
    }
}
