import ArcadeStore
import Crypto
import HTTP
import JSON
import Templates
import WebAuthn

/// An admin's passkeys: registered on `/admin/totp` (user verification required: the device's own lock is the second
/// factor), they sign in alone from `/admin/login`, or as the second step after the password on `/admin/login/code`.
/// The same checks as players' (`WebAuthnSite`), the same sign-in limits as a password, and every change audited.
extension AdminController {
    func addPasskeyRoutes(to routes: AdminRoutes) {
        routes.pages.get("/admin/passkeys/options", use: adminPasskeyOptions)
        routes.actions.post("/admin/passkeys", use: registerAdminPasskey)
        routes.actions.post("/admin/passkeys/remove", use: removeAdminPasskey)
        routes.visitors.get("/admin/login/passkey/options", use: adminSignInOptions)
        routes.forms.post("/admin/login/passkey", use: adminPasskeySignIn)
    }

    func adminPasskeyOptions(_ request: Request, _ context: AdminContext) throws -> Response {
        let t = pages.localizer.strings(for: context.visitor.language)
        guard let party = passkeys.relyingParty(request) else {
            return JSONAnswer.error(t.string("passkeys.unavailable"), status: .conflict)
        }
        let admin = context.admin
        return JSONAnswer.make(
            .object(
                passkeys.challenge(.adminCreate, session: context.visitor.sessionID, party: party) + [
                    ("rpName", .string(t.string("site.name"))),
                    ("userId", .string(Base64URL.encode(Array("admin \(admin.id)".utf8)))),
                    ("userName", .string(admin.name)), ("userDisplayName", .string(admin.name)),
                    ("exclude", .array(try store.passkeys(admin).map { .string($0.id) })),
                ]))
    }

    func registerAdminPasskey(_ request: Request, _ context: AdminContext) throws -> Response {
        let t = pages.localizer.strings(for: context.visitor.language)
        if let wait = PasskeyController.limited(passkeyAttempts, request, t) { return wait }
        switch passkeys.registration(request, .adminCreate, session: context.visitor.sessionID, userVerification: true)
        {
        case .failure(let refused):
            return PasskeyController.refuse(refused, t, context.log)
        case .success(let checked):
            guard
                try store.addPasskey(
                    context.admin, id: Base64URL.encode(checked.value.credentialID), publicKey: checked.value.publicKey,
                    signCount: checked.value.signCount, challenge: checked.challenge, expires: checked.expires)
            else { return PasskeyController.refuse(WebAuthnSite.Refused("expired"), t, context.log) }
            return JSONAnswer.make(.object([("next", .string("/admin/totp?passkey=added#passkeys"))]))
        }
    }

    func removeAdminPasskey(_ request: Request, _ context: AdminContext) throws -> Response {
        let removed = try store.removePasskey(context.admin, id: request.form?["id"] ?? "")
        return .redirect(to: "/admin/totp?passkey=" + (removed ? "removed" : "gone") + "#passkeys")
    }

    func adminSignInOptions(_ request: Request, _ context: PlayerContext) throws -> Response {
        let t = pages.localizer.strings(for: context.visitor.language)
        guard let party = passkeys.relyingParty(request) else {
            return JSONAnswer.error(t.string("passkeys.unavailable"), status: .conflict)
        }
        return JSONAnswer.make(.object(passkeys.challenge(.adminGet, session: context.visitor.sessionID, party: party)))
    }

    /// A passkey alone, or after the password (then it must be that admin's): the session starts as a password and
    /// code would start it.
    func adminPasskeySignIn(_ request: Request, _ context: PlayerContext) throws -> Response {
        let visitor = context.visitor
        let t = pages.localizer.strings(for: visitor.language)
        let (id, party): (String, RelyingParty)
        switch passkeys.assertionStart(request, .adminGet, session: visitor.sessionID) {
        case .failure(let refused): return PasskeyController.refuse(refused, t, context.log)
        case .success(let value): (id, party) = value
        }
        guard id.utf8.count <= 400, let key = try store.passkeyKey(id) else {
            return PasskeyController.refuse(WebAuthnSite.Refused("unknown"), t, context.log)
        }
        let pending = pendingAdmin(request)
        if let pending, pending.id != key.admin.id {
            return PasskeyController.refuse(WebAuthnSite.Refused("invalid"), t, context.log)
        }
        let address = ClientAddress.limitKey(request.remoteAddress)
        let device = request.cookies[Self.deviceCookie].flatMap { deviceID($0, for: key.admin.name) }
        // The password's limits: a passkey is another way in to the same account.
        if case .refused(let seconds) = limits.admit(name: key.admin.name, address: address, device: device) {
            logFailure("throttled", name: key.admin.name, request, context.log)
            var response = JSONAnswer.error(t.string("admin.login.throttled"), status: .tooManyRequests)
            response.headers.set("Retry-After", String(seconds))
            return response
        }
        let checked: WebAuthnSite.Checked<Assertion>
        switch passkeys.assertion(
            request, .adminGet, session: visitor.sessionID, party: party, publicKey: key.publicKey,
            signCount: key.signCount, userVerification: true)
        {
        case .failure(let refused):
            logFailure(
                "passkey refused (\(refused.log ?? refused.message))", name: key.admin.name, request, context.log)
            return PasskeyController.refuse(refused, t, context.log)
        case .success(let value): checked = value
        }
        guard
            try store.usePasskey(
                id, signCount: checked.value.signCount, challenge: checked.challenge, expires: checked.expires)
        else {
            logFailure("passkey replayed or its counter went back", name: key.admin.name, request, context.log)
            return PasskeyController.refuse(WebAuthnSite.Refused("counter"), t, context.log)
        }
        limits.succeeded(name: key.admin.name, address: address, device: device)
        // The sign-in's own answer is a redirect with its cookies: the script is given the cookies and where to go.
        let finished = try finishSignIn(request, key.admin, device: device, how: "passkey")
        var response = JSONAnswer.make(.object([("next", .string(finished.headers["Location"] ?? "/admin"))]))
        for cookie in finished.headers.values("Set-Cookie") { response.headers.append("Set-Cookie", cookie) }
        if pending != nil {
            response.setCookie(
                SetCookie(
                    name: Self.pendingCookie, value: "", path: "/admin/login", maxAge: 0, secure: secureCookies,
                    sameSite: .strict))
        }
        return response
    }

    /// The passkeys section of `/admin/totp`.
    func adminPasskeysSection(_ request: Request, _ context: AdminContext) throws -> TemplateValue {
        let t = pages.localizer.strings(for: context.visitor.language)
        let said = request.query["passkey"].flatMap { ["added", "removed", "gone"].contains($0) ? $0 : nil }
        let known = try store.passkeys(context.admin)
        return .object([
            "available": .bool(passkeys.relyingParty(request) != nil),
            "status": said.map { .string(t.string("admin.passkeys.status.\($0)")) } ?? .null,
            "hasPasskeys": .bool(!known.isEmpty),
            "passkeys": .list(
                known.enumerated().map { index, passkey in
                    [
                        "id": .string(passkey.id), "name": .string(t.string("passkeys.name", [.int(index + 1)])),
                        "added": .string(t.string("admin.passkeys.added", [.string(UTCTime.format(passkey.created))])),
                        "used": passkey.lastUsed.map {
                            .string(t.string("admin.passkeys.used", [.string(UTCTime.format($0))]))
                        } ?? .null,
                    ]
                }),
        ])
    }
}
