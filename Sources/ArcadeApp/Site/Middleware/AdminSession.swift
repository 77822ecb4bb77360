import HTTP

/// The admin pages that need a signed-in admin: without a session, to the sign-in page. Their answers are never
/// stored by a browser (`no-store`). A change's outcome ("Saved.") rides a short cookie over its redirect and is
/// shown once, on the next page.
struct AdminSession: Middleware {
    let store: AdminStore

    func handle(_ request: Request, context: SiteContext, next: Next<SiteContext>) throws -> Response {
        guard let token = request.cookies[AdminRoutes.cookie], let admin = try store.session(token) else {
            return .redirect(to: "/admin/login")
        }
        var context = context
        context.admin = admin
        let flash = request.cookies[Flash.cookie].flatMap { URI.decode($0) }.map { String($0.prefix(300)) }
        var look = PageLook.current
        look.flash = flash
        var response = try PageLook.$current.withValue(look) { try next(request, context) }
        if flash != nil && response.status == .ok { response.setCookie(Flash.clear) }
        response.headers.set("Cache-Control", "no-store")
        return response
    }
}
