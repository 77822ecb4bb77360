import HTTP

/// The admin pages that need a signed-in admin: without a session, to the sign-in page. Their answers are never
/// stored by a browser (`no-store`).
struct AdminSession: Middleware {
    let store: AdminStore

    func handle(_ request: Request, context: SiteContext, next: Next<SiteContext>) throws -> Response {
        guard let token = request.cookies[AdminRoutes.cookie], let admin = try store.session(token) else {
            return .redirect(to: "/admin/login")
        }
        var context = context
        context.admin = admin
        var response = try next(request, context)
        response.headers.set("Cache-Control", "no-store")
        return response
    }
}
