import ArcadeStore
import Crypto
import HTTP
import Localization
import Templates

/// The optional second factor: `/admin/login/code`, the sign-in's second step (a wrong code is throttled as a wrong
/// password is), and `/admin/totp`, where an admin sets it up (the secret as base32 and as a QR code drawn in SVG),
/// renews their recovery codes or turns it off (with their password).
extension AdminController {
    /// `otpauth://` as authenticator apps read it (the issuer in the label and as a parameter, as Google's key
    /// format asks). An `@` stays as it is (a path may hold it), so the longest name still fits a QR code.
    static func provisioningURI(name: String, secret: [UInt8], issuer: String = "Arcade") -> String {
        let label = URI.encode(issuer) + ":" + URI.encode(name).replacing("%40", with: "@")
        return "otpauth://totp/\(label)?secret=\(Base32.encode(secret))&issuer=\(URI.encode(issuer))"
            + "&algorithm=SHA1&digits=6&period=30"
    }

    func addSecondFactorRoutes(to routes: AdminRoutes) {
        routes.visitors.get("/admin/login/code", use: codeForm)
        routes.forms.post("/admin/login/code", use: checkCode)
        routes.pages.get("/admin/totp", use: totpPage)
        routes.actions.post("/admin/totp/setup", use: startTOTP)
        routes.actions.post("/admin/totp/confirm", use: confirmTOTP)
        routes.actions.post("/admin/totp/recovery", use: renewRecoveryCodes)
        routes.actions.post("/admin/totp/disable", use: disableTOTP)
    }

    /// The account whose password was right a moment ago in this browser, if it still may send its code.
    func pendingAdmin(_ request: Request) -> AdminStore.Admin? {
        guard let value = request.cookies[Self.pendingCookie].flatMap({ signer.verify($0) }) else { return nil }
        let parts = value.split(separator: "|", omittingEmptySubsequences: false)
        guard parts.count == 4, parts[0] == "2fa", let id = Int(parts[1]), let until = Int(parts[3]),
            until >= store.clock()
        else { return nil }
        return AdminStore.Admin(id: id, name: String(parts[2]))
    }

    func codeForm(_ request: Request, _ context: PlayerContext) throws -> Response {
        guard pendingAdmin(request) != nil else { return .redirect(to: "/admin/login") }
        return codePage(context.visitor, status: .ok, error: nil)
    }

    func checkCode(_ request: Request, _ context: PlayerContext) throws -> Response {
        guard let admin = pendingAdmin(request) else { return .redirect(to: "/admin/login") }
        let code = String((request.form?["code"] ?? "").prefix(32))
        // As the password's: an IPv6 client by its /64.
        let address = ClientAddress.limitKey(request.remoteAddress)
        let device = request.cookies[Self.deviceCookie].flatMap { deviceID($0, for: admin.name) }
        // The same limits as the password: a code is six digits, so guessing must cost as much.
        if case .refused(let seconds) = limits.admit(name: admin.name, address: address, device: device) {
            SiteMetrics.refusals.add(["signin_throttled"])
            logFailure("throttled", name: admin.name, request, context.log)
            var page = codePage(context.visitor, status: .tooManyRequests, error: "admin.login.throttled")
            page.headers.set("Retry-After", String(seconds))
            return page
        }
        guard let how = try store.checkSecondFactor(admin, code: code) else {
            SiteMetrics.refusals.add(["signin_wrong_code"])
            logFailure("wrong second-factor code", name: admin.name, request, context.log)
            return codePage(context.visitor, status: .unauthorized, error: "admin.code.wrong")
        }
        limits.succeeded(name: admin.name, address: address, device: device)
        var response = try finishSignIn(request, admin, device: device, how: how)
        response.setCookie(
            SetCookie(
                name: Self.pendingCookie, value: "", path: "/admin/login", maxAge: 0, secure: secureCookies,
                sameSite: .strict))
        return response
    }

    func codePage(_ visitor: Visitor, status: Status, error: String?) -> Response {
        let t = pages.localizer.strings(for: visitor.language)
        return pages.render(
            "admin-code", status: status, title: t.string("admin.code.title"), for: visitor,
            path: "/admin/login/code", section: "admin", data: ["error": error.map { .string(t.string($0)) } ?? .null])
    }

    func totpPage(_ request: Request, _ context: AdminContext) throws -> Response {
        try totpPage(request, context, status: .ok, error: nil, codes: nil)
    }

    /// On, with recovery codes left; or being set up (the secret and its QR code); or off. `codes`: new recovery
    /// codes, shown in this answer only.
    func totpPage(
        _ request: Request, _ context: AdminContext, status: Status, error: String?, codes: [String]?
    ) throws -> Response {
        let admin = context.admin
        let t = pages.localizer.strings(for: context.visitor.language)
        var data: TemplateFields = [
            "error": error.map { .string(t.string($0)) } ?? .null,
            "codes": .list((codes ?? []).map { .string($0) }), "hasCodes": .bool(codes != nil),
            "passkeys": try adminPasskeysSection(request, context),
        ]
        if try store.hasTwoFactor(admin) {
            data["enabled"] = .bool(true)
            data["left"] = .string(t.string("admin.totp.left", [.int(try store.recoveryCodesLeft(admin))]))
        } else if let secret = try store.existingPendingSecret(admin) {
            let uri = Self.provisioningURI(name: admin.name, secret: secret)
            let qr = QRCode(Array(uri.utf8))
            let grouped = Base32.encode(secret).enumerated().map {
                $0.offset > 0 && $0.offset % 4 == 0 ? " \($0.element)" : "\($0.element)"
            }
            data["pending"] = .object([
                "secret": .string(grouped.joined()), "uri": .string(uri),
                "qr": qr.map { .object(["side": .int($0.size + 8), "path": .string($0.svgPath())]) } ?? .null,
            ])
        }
        return pages.render(
            "admin-totp", status: status, title: t.string("admin.totp.title"), for: context.visitor,
            path: "/admin/totp", section: "admin", data: data)
    }

    func startTOTP(_ request: Request, _ context: AdminContext) throws -> Response {
        guard try !store.hasTwoFactor(context.admin) else { return .redirect(to: "/admin/totp") }
        _ = try store.pendingSecret(context.admin, renew: true)
        return .redirect(to: "/admin/totp")
    }

    func confirmTOTP(_ request: Request, _ context: AdminContext) throws -> Response {
        guard let codes = try store.confirmTwoFactor(context.admin, code: request.form?["code"] ?? "") else {
            return try totpPage(request, context, status: .unprocessableContent, error: "admin.code.wrong", codes: nil)
        }
        return try totpPage(request, context, status: .ok, error: nil, codes: codes)
    }

    func renewRecoveryCodes(_ request: Request, _ context: AdminContext) throws -> Response {
        guard try store.hasTwoFactor(context.admin) else { return .redirect(to: "/admin/totp") }
        return try totpPage(
            request, context, status: .ok, error: nil, codes: try store.renewRecoveryCodes(context.admin))
    }

    /// Off only with the password (a session left open should not be enough to weaken the account).
    func disableTOTP(_ request: Request, _ context: AdminContext) throws -> Response {
        let admin = context.admin
        let password = request.form?["password"] ?? ""
        guard !password.isEmpty, password.utf8.count <= 1024 else {
            return try totpPage(
                request, context, status: .unprocessableContent, error: "admin.password.wrong", codes: nil)
        }
        switch try checkOwnPassword(admin, password, request, context.log) {
        case .right: break
        case .wrong:
            return try totpPage(
                request, context, status: .unprocessableContent, error: "admin.password.wrong", codes: nil)
        case .refused(let status, let error, let seconds):
            var page = try totpPage(request, context, status: status, error: error, codes: nil)
            page.headers.set("Retry-After", String(seconds))
            return page
        }
        _ = try store.disableTwoFactor(name: admin.name, by: admin.name)
        return Flash.redirect(
            "/admin/totp", pages.localizer.string("admin.totp.disabled", language: context.visitor.language))
    }
}
