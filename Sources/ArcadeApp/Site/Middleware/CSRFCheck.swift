import HTTP

/// On state-changing routes: a body that claims to be a form but does not parse is a 400, a field longer than the
/// site allows a 422 naming it, and a missing or wrong CSRF token a 403, before the handler runs.
struct CSRFCheck: Middleware {
    let identity: Identity
    let pages: Pages

    func handle(_ request: Request, context: SiteContext, next: Next<SiteContext>) throws -> Response {
        let visitor = try context.requireVisitor()
        let isForm = request.headers["Content-Type"]?.lowercased().hasPrefix("application/x-www-form-urlencoded") == true
        if isForm && request.form == nil {
            return pages.error(.badRequest, language: visitor.language, csrf: visitor.csrfToken, path: "/")
        }
        if let refusal = pages.fieldTooLong(request, visitor) { return refusal }
        guard identity.passesCSRF(request, token: context.upload?["csrf"]) else {
            return pages.error(.forbidden, language: visitor.language, csrf: visitor.csrfToken, path: "/")
        }
        return try next(request, context)
    }
}
