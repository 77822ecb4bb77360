import ArcadeStore
import HTTP
import Localization
import Templates

/// `/admin/admins`: every admin (created, last sign-in, second factor) with their live sessions, each revocable;
/// new admins by a one-time set-up link (`/admin/setup?token=…`: a query, so access logs keep its name, not its
/// value); removal after a confirmation, never of the last admin.
extension AdminController {
    func addAdminsRoutes(to routes: AdminRoutes) {
        routes.pages.get("/admin/admins", use: adminsPage)
        routes.actions.post("/admin/admins/invite", use: inviteAdmin)
        routes.actions.post("/admin/admins/remove", use: removeAdmin)
        routes.actions.post("/admin/admins/sessions/revoke", use: revokeSession)
        routes.visitors.get("/admin/setup", use: setupForm)
        routes.forms.post("/admin/setup", use: setUpAccount)
    }

    func adminsPage(_ request: Request, _ context: AdminContext) throws -> Response {
        try adminsPage(request, context, status: .ok)
    }

    /// The page; `link` is a new set-up link, shown this once.
    func adminsPage(
        _ request: Request, _ context: AdminContext, status: Status, error: String? = nil,
        link: (name: String, url: String)? = nil
    ) throws -> Response {
        let visitor = context.visitor
        let t = pages.localizer.strings(for: visitor.language)
        let current = request.cookies[Self.cookie].map(AdminStore.sessionKey)
        let sessions = try store.sessions()
        let accounts: [TemplateValue] = try store.accounts().map { account in
            let count = sessions.count { $0.admin == account.name }
            return .object([
                "name": .string(account.name), "created": .string(UTCTime.format(account.created)),
                "lastSignIn": .string(account.lastSignIn.map(UTCTime.format) ?? t.string("admin.admins.never")),
                "twoFactor": .string(t.string(account.twoFactor ? "admin.admins.2fa.on" : "admin.admins.2fa.off")),
                "twoFactorState": .string(account.twoFactor ? "on" : "off"),
                "me": .bool(account.name == context.admin.name), "sessionCount": .int(count),
                "sessionsText": .string(t.string("admin.admins.sessions.count", [.int(count)])),
            ])
        }
        let sessionRows: [TemplateValue] = sessions.map { session in
            .object([
                "key": .string(session.key), "admin": .string(session.admin),
                "device": .string(session.device.isEmpty ? "–" : session.device),
                "address": .string(session.address), "lastSeen": .string(UTCTime.format(session.lastSeen)),
                "since": .string(UTCTime.format(session.created)), "current": .bool(session.key == current),
            ])
        }
        let invites: [TemplateValue] = try store.invites().map { invite in
            .object([
                "name": .string(invite.name), "by": .string(invite.createdBy),
                "expires": .string(UTCTime.format(invite.expires)),
            ])
        }
        return pages.render(
            "admin-admins", status: status, title: t.string("admin.admins.title"), for: visitor,
            path: "/admin/admins", section: "admin",
            data: [
                "accounts": .list(accounts), "sessions": .list(sessionRows), "invites": .list(invites),
                "hasInvites": .bool(!invites.isEmpty),
                "error": error.map { .string(t.string($0)) } ?? .null,
                "link": link.map { .object(["name": .string($0.name), "url": .string($0.url)]) } ?? .null,
            ])
    }

    func inviteAdmin(_ request: Request, _ context: AdminContext) throws -> Response {
        let name = request.form?["name"] ?? ""
        guard AdminStore.validName(name) else {
            return try adminsPage(request, context, status: .unprocessableContent, error: "admin.admins.name.invalid")
        }
        switch try store.invite(name: name, by: context.admin.name) {
        case .taken:
            return try adminsPage(request, context, status: .conflict, error: "admin.admins.name.taken")
        case .created(let token):
            // Shown in this answer only (no redirect: the token never rides a cookie or a stored page).
            return try adminsPage(request, context, status: .ok, link: (name, setupURL(request, token: token)))
        }
    }

    /// The link as the admin's browser reached this site (the Host it sent; https when cookies are secure).
    func setupURL(_ request: Request, token: String) -> String {
        let host = request.headers["Host"].flatMap { $0.isEmpty ? nil : String($0.prefix(255)) } ?? "localhost"
        return (secureCookies ? "https://" : "http://") + host + "/admin/setup?token=" + token
    }

    func removeAdmin(_ request: Request, _ context: AdminContext) throws -> Response {
        let form = request.form ?? FormFields()
        let name = form["name"] ?? ""
        let t = pages.localizer.strings(for: context.visitor.language)
        guard AdminStore.validName(name) else { throw PageError(.notFound) }
        let yourself = name == context.admin.name
        // Asked once more, always: for yourself, with what follows (you are signed out here and everywhere).
        guard form["confirm"] == "1" else {
            return pages.render(
                "admin-confirm", title: t.string("admin.confirm.title"), for: context.visitor, path: "/admin/admins",
                section: "admin",
                data: [
                    "question": .string(
                        t.string(yourself ? "admin.admins.remove.self" : "admin.admins.remove.confirm", [.string(name)])
                    ),
                    "action": .string("/admin/admins/remove"), "back": .string("/admin/admins"),
                    "confirm": .string(t.string("admin.admins.remove")),
                    "fields": .list([.object(["name": .string("name"), "value": .string(name)])]),
                ])
        }
        switch try store.remove(name: name, by: context.admin.name) {
        case .noSuchAdmin: throw PageError(.notFound)
        case .lastAdmin:
            return try adminsPage(request, context, status: .conflict, error: "admin.admins.remove.last")
        case .removed:
            if yourself {
                var response = Response.redirect(to: "/admin/login")
                response.setCookie(
                    SetCookie(
                        name: Self.cookie, value: "", path: "/", maxAge: 0, secure: secureCookies, sameSite: .strict))
                return response
            }
            return Flash.redirect("/admin/admins", t.string("admin.admins.removed", [.string(name)]))
        }
    }

    func revokeSession(_ request: Request, _ context: AdminContext) throws -> Response {
        let key = request.form?["session"] ?? ""
        let t = pages.localizer.strings(for: context.visitor.language)
        guard try store.revokeSession(key: key, by: context.admin.name) else {
            return Flash.redirect("/admin/admins", t.string("admin.admins.session.gone"))
        }
        if request.cookies[Self.cookie].map(AdminStore.sessionKey) == key {
            return .redirect(to: "/admin/login")
        }
        return Flash.redirect("/admin/admins", t.string("admin.admins.session.revoked"))
    }

    /// The set-up link's page: the name it is for and two password fields, or why the link no longer works.
    func setupForm(_ request: Request, _ context: PlayerContext) throws -> Response {
        let token = request.query["token"] ?? ""
        return setupPage(context.visitor, token: token, invite: try store.invitation(token), status: .ok, error: nil)
    }

    func setUpAccount(_ request: Request, _ context: PlayerContext) throws -> Response {
        let form = request.form ?? FormFields()
        let token = form["token"] ?? ""
        let password = form["password"] ?? ""
        guard let invite = try store.invitation(token) else {
            return setupPage(context.visitor, token: token, invite: nil, status: .notFound, error: nil)
        }
        guard password.count >= 10, password.utf8.count <= 1024 else {
            return setupPage(
                context.visitor, token: token, invite: invite, status: .unprocessableContent,
                error: "admin.password.short")
        }
        guard password == form["again"] else {
            return setupPage(
                context.visitor, token: token, invite: invite, status: .unprocessableContent,
                error: "admin.setup.mismatch")
        }
        guard let outcome = try store.hashing.run({ try store.accept(invite: token, password: password) }) else {
            var page = setupPage(
                context.visitor, token: token, invite: invite, status: .serviceUnavailable, error: "admin.login.busy")
            page.headers.set("Retry-After", "2")
            return page
        }
        switch outcome {
        case .created(let name):
            return .redirect(to: "/admin/login?ready=" + URI.encode(name))
        case .invalid:
            return setupPage(context.visitor, token: token, invite: nil, status: .notFound, error: nil)
        case .taken:
            return setupPage(
                context.visitor, token: token, invite: nil, status: .conflict, error: "admin.admins.name.taken")
        }
    }

    func setupPage(
        _ visitor: Visitor, token: String, invite: AdminStore.Invite?, status: Status, error: String?
    ) -> Response {
        let t = pages.localizer.strings(for: visitor.language)
        return pages.render(
            "admin-setup", status: invite == nil && status == .ok ? .notFound : status,
            title: t.string("admin.setup.title"), for: visitor, path: "/admin/setup", section: "admin",
            data: [
                "token": .string(String(token.prefix(64))),
                "invite": invite.map {
                    .object(["name": .string($0.name), "expires": .string(UTCTime.format($0.expires))])
                } ?? .null,
                "error": error.map { .string(t.string($0)) } ?? .null,
            ])
    }
}
