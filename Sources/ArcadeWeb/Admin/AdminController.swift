import ArcadeStore
import Crypto
import HTTP
import Interceptions
import Localization
import Logger
import Templates

/// `/admin`: sign-in with throttling, server-side sessions, sign-out and the
/// audit log. Pages without a session redirect to the sign-in page; the
/// admin API answers 401. These routes stay up during maintenance.
struct AdminController: Sendable {
    static let cookie = "arcade_admin"
    /// Issued by a successful sign-in, for that account's later sign-ins from the same browser.
    static let deviceCookie = "arcade_admin_device"
    /// Between a right password and the second factor's code: the account, signed, for five minutes.
    static let pendingCookie = "arcade_admin_pending"
    let store: AdminStore
    let pages: Pages
    let secureCookies: Bool
    let hotfixes: AdminHotfixes
    let interceptions: InterceptionsStore
    let people: PeopleStore
    let schedule: ChangeSchedule
    let limits: SignInLimits
    /// Signs device cookies (the site's cookie key).
    let signer: Signer
    /// Admins' passkeys: the relying party and challenges players' passkeys use, and tries per address.
    let passkeys: WebAuthnSite
    let passkeyAttempts: TokenBuckets
    /// The site's version: a web client's app version, so the rule preview starts from it.
    let version: @Sendable () -> String
    let housekeeping: Housekeeping

    func addRoutes(to routes: AdminRoutes) {
        routes.visitors.get("/admin/login", use: loginForm)
        routes.forms.post("/admin/login", use: signIn)
        routes.forms.post("/admin/logout", use: signOut)
        routes.pages.get("/admin", use: home)
        routes.pages.get("/admin/audit", use: audit)
        routes.api.get("/api/admin/session", use: session)
        addHotfixesRoutes(to: routes)
        addMaintenanceRoutes(to: routes)
        addRulesRoutes(to: routes)
        addScheduleRoutes(to: routes)
        addPasswordRoutes(to: routes)
        addAdminsRoutes(to: routes)
        addSecondFactorRoutes(to: routes)
        addPasskeyRoutes(to: routes)
        PeopleController(store: people, pages: pages).addRoutes(to: routes)
        StringsController(exchange: StringsExchange(hotfixes: hotfixes), pages: pages).addRoutes(to: routes)
    }

    /// For scripts: who is signed in, or 401.
    func session(_ request: Request, _ context: RequestContext) throws -> Response {
        guard let admin = try request.cookies[Self.cookie].flatMap({ try store.session($0) }) else {
            var response = JSONAnswer.error("sign in first", status: .unauthorized)
            response.headers.set("WWW-Authenticate", "Cookie realm=\"arcade-admin\"")
            return response
        }
        return JSONAnswer.make(.object([("admin", .string(admin.name))]))
    }

    func loginForm(_ request: Request, _ context: PlayerContext) throws -> Response {
        // After a set-up link: the new account's name filled in, and a word that it is ready.
        let ready = request.query["ready"].flatMap { AdminStore.validName($0) ? $0 : nil }
        return loginPage(context.visitor, status: .ok, error: nil, name: ready ?? "", ready: ready != nil)
    }

    func signIn(_ request: Request, _ context: PlayerContext) throws -> Response {
        let visitor = context.visitor
        let form = request.form ?? FormFields()
        let name = form["name"] ?? ""
        let password = form["password"] ?? ""
        // Limits count an IPv6 client by its /64; the audit log names the address itself.
        let address = ClientAddress.limitKey(request.remoteAddress)
        guard AdminStore.validName(name), !password.isEmpty else {
            logFailure("no valid name or no password", name: name, request, context.log)
            return loginPage(visitor, status: .unprocessableContent, error: "admin.login.wrong", name: name)
        }
        let device = request.cookies[Self.deviceCookie].flatMap { deviceID($0, for: name) }
        // Counted before any hashing: a refusal costs nothing and writes nothing.
        if case .refused(let seconds) = limits.admit(name: name, address: address, device: device) {
            SiteMetrics.refusals.add(["signin_throttled"])
            logFailure("throttled", name: name, request, context.log)
            var page = loginPage(visitor, status: .tooManyRequests, error: "admin.login.throttled", name: name)
            page.headers.set("Retry-After", String(seconds))
            return page
        }
        // A browser that signed in before has places of its own in the hashing queue: a flood cannot lock it out.
        guard
            let verified = try store.hashing.run(
                priority: device != nil, { try store.verify(name: name, password: password) })
        else {
            limits.cancelled(name: name, address: address, device: device)
            SiteMetrics.refusals.add(["signin_busy"])
            var page = loginPage(visitor, status: .serviceUnavailable, error: "admin.login.busy", name: name)
            page.headers.set("Retry-After", "2")
            return page
        }
        guard let admin = verified else {
            SiteMetrics.refusals.add(["signin_wrong_password"])
            logFailure("wrong name or password", name: name, request, context.log)
            return loginPage(visitor, status: .unauthorized, error: "admin.login.wrong", name: name)
        }
        if try store.hasTwoFactor(admin) {
            limits.passedFirstStep(name: name, address: address, device: device)
            // The password is right; the session waits for the code (a signed, short-lived proof of the first step).
            var response = Response.redirect(to: "/admin/login/code")
            response.setCookie(
                SetCookie(
                    name: Self.pendingCookie,
                    value: signer.sign("2fa|\(admin.id)|\(admin.name)|\(store.clock() + 300)"),
                    path: "/admin/login", maxAge: 300, secure: secureCookies, sameSite: .strict))
            return response
        }
        limits.succeeded(name: name, address: address, device: device)
        return try finishSignIn(request, admin, device: device, how: "password")
    }

    /// A refused sign-in, for the operator: the account tried (at most 64 characters, escaped by the log) and the
    /// client, never the password or code. Throttled tries are rate-limited lines: a flood is one line and a count.
    func logFailure(_ why: String, name: String, _ request: Request, _ log: RequestLog) {
        log.warning(
            "admin sign-in refused: \(why)",
            ["account": .string(String(name.prefix(64))), "client": .string(request.remoteAddress)],
            every: why == "throttled" ? "admin sign-in throttled" : nil)
    }

    /// The session, its cookie and the device cookie, once every step passed.
    func finishSignIn(_ request: Request, _ admin: AdminStore.Admin, device: String?, how: String) throws -> Response {
        let name = admin.name
        let token = try store.startSession(
            admin, address: request.remoteAddress,
            device: AdminDevice.describe(userAgent: request.headers["User-Agent"] ?? ""), how: how)
        var response = Response.redirect(to: "/admin")
        response.setCookie(
            SetCookie(name: Self.cookie, value: token, path: "/", secure: secureCookies, sameSite: .strict))
        // This browser is now known for this account: its later sign-ins skip the address and account limits.
        let deviceValue = signer.sign("device|\(name)|\(device ?? Identity.newID())")
        response.setCookie(
            SetCookie(
                name: Self.deviceCookie, value: deviceValue, path: "/admin/login", maxAge: 365 * 86_400,
                secure: secureCookies, sameSite: .strict))
        return response
    }

    /// The id of a device cookie issued to `name`, or nil for anything else.
    func deviceID(_ cookie: String, for name: String) -> String? {
        guard let value = signer.verify(cookie) else { return nil }
        let parts = value.split(separator: "|", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "device", parts[1] == name, Identity.isID(String(parts[2])) else {
            return nil
        }
        return String(parts[2])
    }

    func signOut(_ request: Request, _ context: PlayerContext) throws -> Response {
        if let token = request.cookies[Self.cookie] {
            try store.endSession(token, admin: try store.session(token)?.name)
        }
        var response = Response.redirect(to: "/admin/login")
        response.setCookie(
            SetCookie(name: Self.cookie, value: "", path: "/", maxAge: 0, secure: secureCookies, sameSite: .strict))
        return response
    }

    func home(_ request: Request, _ context: AdminContext) throws -> Response {
        let visitor = context.visitor
        let admin = context.admin
        return try dashboard(visitor, admin)
    }

    func audit(_ request: Request, _ context: AdminContext) throws -> Response {
        let visitor = context.visitor
        let admin = context.admin
        let t = pages.localizer.strings(for: visitor.language)
        let entries: [TemplateValue] = try store.auditLog().map { entry in
            .object([
                "at": .string(UTCTime.format(entry.at)), "admin": .string(Self.actorText(entry.admin, t)),
                "action": .string(entry.action), "actionText": .string(Self.actionText(entry.action, t)),
                "target": .string(entry.target),
                "before": .string(entry.before ?? ""),
                // How an admin signed in, in the reader's language (four native readers met "password" in English).
                "after": .string(
                    entry.action == "sign-in" ? Self.words("admin.audit.how.", entry.after ?? "", t) : entry.after ?? ""
                ),
            ])
        }
        return pages.render(
            "admin-audit", title: pages.localizer.string("admin.audit.title", language: visitor.language),
            for: visitor, path: "/admin/audit", section: "admin",
            data: ["entries": .list(entries), "admin": .string(admin.name)])
    }

    /// Who made an audit entry, in the reader's language where it is not an admin's name: the first start, the
    /// command line (a native review read "first start" in English in a German log). The log keeps its own words.
    static func actorText(_ actor: String, _ t: LanguageStrings) -> String {
        if actor == "first start" { return t.string("admin.audit.actor.first") }
        if actor.hasPrefix("command line ("), actor.hasSuffix(")") {
            return t.string("admin.audit.actor.cli", [.string(String(actor.dropFirst(14).dropLast()))])
        }
        return actor
    }

    /// An audit entry's action in the reader's language ("add rule" is "Rule added"); one the strings do not know
    /// (logged by a later version), as logged. The log keeps the words it was written with.
    static func actionText(_ action: String, _ t: LanguageStrings) -> String {
        words("admin.audit.action.", action, t)
    }

    /// A logged value's words under `prefix` ("password + code" is `prefix` + "password.code"), or the value as logged.
    static func words(_ prefix: String, _ value: String, _ t: LanguageStrings) -> String {
        let key = prefix + value.lowercased().split { !$0.isLetter && !$0.isNumber }.joined(separator: ".")
        return t.has(key) ? t.string(key) : value
    }

    /// What an operator checks first: maintenance and active rules per platform, hotfixes per language, what is
    /// scheduled and the last ten changes; each links to its editor. `data-` attributes carry the states for tests.
    func dashboard(_ visitor: Visitor, _ admin: AdminStore.Admin) throws -> Response {
        let localizer = pages.localizer
        let t = localizer.strings(for: visitor.language)
        let rules = try interceptions.rules()
        let platforms: [TemplateValue] = try ["web", "ios", "android"].map { platform in
            let m = try interceptions.maintenance(platform)
            let active = rules.filter { $0.platform == platform && $0.active }
            let highest = active.map(\.restriction).max()
            return .object([
                "platform": .string(platform), "state": .string(m.active ? "on" : "off"),
                "stateText": .string(t.string(m.active ? "admin.state.on" : "admin.state.off")),
                "endsAt": m.endsAt.map { .string(UTCTime.format($0)) } ?? .null,
                "rules": .int(active.count),
                "rulesText": .string(t.string("admin.dashboard.rules", [.int(active.count)])),
                "highest": highest.map { .string($0.name) } ?? .null,
            ])
        }
        let languages: [TemplateValue] = ([StringOverlay.allLanguages] + localizer.languages).map { language in
            let count = localizer.overlay.values(for: language).count
            return .object([
                "language": .string(language == StringOverlay.allLanguages ? "all" : language),
                "label": .string(language == StringOverlay.allLanguages ? t.string("admin.hotfix.all") : language),
                "count": .int(count),
            ])
        }
        let recent: [TemplateValue] = try store.auditLog(limit: 10).map { entry in
            .object([
                "at": .string(UTCTime.format(entry.at)), "admin": .string(Self.actorText(entry.admin, t)),
                "action": .string(entry.action), "actionText": .string(Self.actionText(entry.action, t)),
                "target": .string(entry.target),
            ])
        }
        let scheduled = try schedule.upcoming().map { scheduledRow($0, t) }
        let backup: String
        let lastBackup = try housekeeping.lastBackup()
        if let last = lastBackup {
            backup =
                last.error.map { t.string("admin.backup.failed", [.string(UTCTime.format(last.at)), .string($0)]) }
                ?? t.string(
                    "admin.backup.last", [.string(UTCTime.format(last.at)), .int(last.bytes), .int(last.rows)])
        } else if housekeeping.folder == nil {
            backup = t.string("admin.backup.off")
        } else {
            backup = t.string("admin.backup.none")
        }
        return pages.render(
            "admin", title: t.string("admin.title"), for: visitor,
            path: "/admin", section: "admin",
            data: [
                "admin": .string(admin.name), "platforms": .list(platforms), "languages": .list(languages),
                "recent": .list(recent), "hasRecent": .bool(!recent.isEmpty),
                "scheduled": .list(scheduled), "scheduledCount": .int(scheduled.count),
                "hasScheduled": .bool(!scheduled.isEmpty), "backup": .string(backup),
                "backupState": .string(
                    lastBackup.map { $0.error == nil ? "ok" : "failed" }
                        ?? (housekeeping.folder == nil ? "off" : "none")),
            ])
    }

    /// History entries (rules, maintenance) as rows with a revert button.
    func historyRows(_ changes: [InterceptionsStore.Change], _ t: LanguageStrings) -> TemplateValue {
        .list(
            changes.map { change in
                .object([
                    "id": .int(change.id), "at": .string(UTCTime.format(change.at)), "admin": .string(change.admin),
                    "target": .string(change.target),
                    "before": .string(describe(change.kind, change.before, t)),
                    "after": .string(describe(change.kind, change.after, t)),
                ])
            })
    }

    /// The sign-in form; after a failure it keeps the name typed (never the password).
    func loginPage(
        _ visitor: Visitor, status: Status, error: String?, name: String = "", ready: Bool = false
    )
        -> Response
    {
        let t = pages.localizer.strings(for: visitor.language)
        return pages.render(
            "admin-login", status: status, title: t.string("admin.login.title"), for: visitor, path: "/admin/login",
            section: "admin",
            data: [
                "error": error.map { .string(t.string($0)) } ?? .null,
                "name": .string(String(name.prefix(64))), "ready": .bool(ready),
            ])
    }

    /// A stored item in a few words for the history table.
    func describe(_ kind: InterceptionsStore.Kind, _ json: String?, _ t: LanguageStrings) -> String {
        guard let json else { return "–" }
        switch kind {
        case .rule: return InterceptionsStore.rule(json: json).map(InterceptionsStore.summary) ?? "?"
        case .maintenance:
            guard let m = InterceptionsStore.maintenance(json: json) else { return "?" }
            return t.string(m.active ? "admin.state.on" : "admin.state.off")
                + (m.endsAt.map { " → " + UTCTime.format($0) } ?? "")
        }
    }
}
