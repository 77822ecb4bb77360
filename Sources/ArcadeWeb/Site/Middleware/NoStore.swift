import HTTP

/// Admin pages are never stored by a browser: they carry the admin session's CSRF token. Outside `VisitorCookies`,
/// so error pages get it too.
struct NoStore: Middleware {
    func handle(_ request: Request, context: RequestContext, next: Next<RequestContext>) throws -> Response {
        var response = try next(request, context)
        response.headers.set("Cache-Control", "no-store")
        return response
    }
}
