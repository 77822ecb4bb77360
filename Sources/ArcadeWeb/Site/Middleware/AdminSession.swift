import ArcadeStore
import HTTP

/// The admin pages that need a signed-in admin: without a session, to the sign-in page (`NoStore` keeps every admin
/// answer out of the browser's cache). A change's outcome ("Saved.") rides a short cookie over its redirect and is
/// shown once, on the next page.
struct AdminSession: ContextMiddleware {
    let store: AdminStore

    func handle(_ request: Request, context: PlayerContext, next: Next<AdminContext>) throws -> Response {
        guard let token = request.cookies[AdminController.cookie], let admin = try store.session(token) else {
            return .redirect(to: "/admin/login")
        }
        let flash = request.cookies[Flash.cookie].flatMap { URI.decode($0) }.map { String($0.prefix(300)) }
        let visitor = flash == nil ? context.visitor : context.visitor.with { $0.flash = flash }
        var response = try next(request, AdminContext(visitor: visitor, log: context.log, admin: admin))
        if flash != nil && response.status == .ok { response.setCookie(Flash.clear) }
        return response
    }
}
