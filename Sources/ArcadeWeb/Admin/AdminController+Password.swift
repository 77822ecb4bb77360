import ArcadeStore
import HTTP
import Logger

/// `/admin/password`: an admin changes their own password, proving the current one; every other session of theirs
/// ends (a stolen cookie with it), this one stays.
extension AdminController {
    func addPasswordRoutes(to routes: AdminRoutes) {
        routes.pages.get("/admin/password", use: passwordForm)
        routes.actions.post("/admin/password", use: changePassword)
    }

    func passwordForm(_ request: Request, _ context: AdminContext) throws -> Response {
        passwordPage(context.visitor, status: .ok, error: nil)
    }

    func changePassword(_ request: Request, _ context: AdminContext) throws -> Response {
        let visitor = context.visitor
        let admin = context.admin
        let form = request.form ?? FormFields()
        let current = form["current"] ?? ""
        let new = form["new"] ?? ""
        // As `arcade admin password`: at least 10 characters; a bound so hashing costs what a sign-in does.
        guard new.count >= 10, new.utf8.count <= 1024 else {
            return passwordPage(visitor, status: .unprocessableContent, error: "admin.password.short")
        }
        switch try checkOwnPassword(admin, current, request, context.log) {
        case .right: break
        case .wrong: return passwordPage(visitor, status: .unprocessableContent, error: "admin.password.wrong")
        case .refused(let status, let error, let seconds):
            var page = passwordPage(visitor, status: status, error: error)
            page.headers.set("Retry-After", String(seconds))
            return page
        }
        guard
            try store.hashing.run({
                try store.setPassword(
                    name: admin.name, password: new, keeping: request.cookies[Self.cookie],
                    audit: (admin.name, "change password"))
            }) != nil
        else {
            var page = passwordPage(visitor, status: .serviceUnavailable, error: "admin.login.busy")
            page.headers.set("Retry-After", "2")
            return page
        }
        return Flash.redirect("/admin", pages.localizer.string("admin.password.changed", language: visitor.language))
    }

    func passwordPage(_ visitor: Visitor, status: Status, error: String?) -> Response {
        let t = pages.localizer.strings(for: visitor.language)
        return pages.render(
            "admin-password", status: status, title: t.string("admin.password.title"), for: visitor,
            path: "/admin/password", section: "admin",
            data: ["error": error.map { .string(t.string($0)) } ?? .null])
    }

    enum OwnPassword {
        case right, wrong
        /// Throttled (429) or the hashing busy (503), with the error's key and when to come back.
        case refused(Status, String, Int)
    }

    /// An admin's own password, asked again inside the console (to change it, to turn the second factor off): under
    /// the sign-in limits, so a stolen session cannot try passwords at the hashing's pace (an attacker's review: 30
    /// wrong ones in 5 s, none refused).
    func checkOwnPassword(
        _ admin: AdminStore.Admin, _ password: String, _ request: Request, _ log: RequestLog
    ) throws -> OwnPassword {
        let address = ClientAddress.limitKey(request.remoteAddress)
        if case .refused(let seconds) = limits.admit(name: admin.name, address: address, device: nil) {
            SiteMetrics.refusals.add(["signin_throttled"])
            return .refused(.tooManyRequests, "admin.login.throttled", seconds)
        }
        guard let verified = try store.hashing.run({ try store.verify(name: admin.name, password: password) }) else {
            limits.cancelled(name: admin.name, address: address, device: nil)
            return .refused(.serviceUnavailable, "admin.login.busy", 2)
        }
        guard verified != nil else {
            logFailure("wrong password in the console", name: admin.name, request, log)
            return .wrong
        }
        limits.succeeded(name: admin.name, address: address, device: nil)
        return .right
    }
}
