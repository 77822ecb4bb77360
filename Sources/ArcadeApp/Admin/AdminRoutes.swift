import HTTP
import Interceptions
import Localization
import Templates

/// `/admin`: sign-in with throttling, server-side sessions, sign-out and the
/// audit log. Pages without a session redirect to the sign-in page; the
/// admin API answers 401. These routes stay up during maintenance.
struct AdminRoutes: Sendable {
    static let cookie = "arcade_admin"
    let store: AdminStore
    let pages: Pages
    let identity: Identity
    let secureCookies: Bool
    let hotfixes: AdminHotfixes
    let interceptions: InterceptionsStore
    let people: PeopleStore

    func register(_ router: inout Router) {
        // The admin's middleware, outermost first; these routes stay up during maintenance. Sign-in and sign-out
        // check the CSRF token; every other page needs a session too.
        let visitors = RouterGroup<SiteContext>("/admin", context: SiteContext.init)
            .adding(SecurityHeaders<SiteContext>())
            .adding(ErrorPages(pages: pages, identity: identity))
            .adding(VisitorCookies(identity: identity))
        let forms = visitors.adding(CSRFCheck(identity: identity, pages: pages))
        let signedIn = visitors.adding(AdminSession(store: store))
        let signedInForms = forms.adding(AdminSession(store: store))
        // Admin pages renew the session, a write they wait for: all of them run off the event loop.
        visitors.get("/login", offLoop: true, in: &router) { request, context in
            try context.visitor { visitor in loginPage(visitor, status: .ok, error: nil) }
        }
        // Hashing a password takes a moment, and every change waits for its commit: off the event loop.
        forms.post("/login", offLoop: true, in: &router) { request, context in
            try context.visitor { visitor in
                let form = request.form ?? FormFields()
                let name = form["name"] ?? "", password = form["password"] ?? ""
                let address = request.remoteAddress
                guard AdminStore.validName(name), !password.isEmpty else {
                    return loginPage(visitor, status: .unprocessableContent, error: "admin.login.wrong")
                }
                if try store.recentFailures(name: name, address: address) >= AdminStore.maxFailures {
                    var page = loginPage(visitor, status: .tooManyRequests, error: "admin.login.throttled")
                    page.headers.set("Retry-After", String(AdminStore.failureWindow))
                    return page
                }
                guard let admin = try store.verify(name: name, password: password) else {
                    try store.recordFailure(name: name, address: address)
                    return loginPage(visitor, status: .unauthorized, error: "admin.login.wrong")
                }
                let token = try store.startSession(admin)
                try store.audit(admin.name, action: "sign-in", target: address, before: nil, after: nil)
                var response = Response.redirect(to: "/admin")
                response.setCookie(SetCookie(name: Self.cookie, value: token, path: "/", secure: secureCookies, sameSite: .strict))
                return response
            }
        }
        forms.post("/logout", offLoop: true, in: &router) { request, context in
            try context.visitor { _ in
                if let token = request.cookies[Self.cookie] {
                    if let admin = try store.session(token) { try store.audit(admin.name, action: "sign-out", target: "", before: nil, after: nil) }
                    try store.endSession(token)
                }
                var response = Response.redirect(to: "/admin/login")
                response.setCookie(SetCookie(name: Self.cookie, value: "", path: "/", maxAge: 0, secure: secureCookies, sameSite: .strict))
                return response
            }
        }
        signedIn.get("", offLoop: true, in: &router) { request, context in
            try context.admin { visitor, admin in
                pages.render("admin", title: pages.localizer.string("admin.title", language: visitor.language), language: visitor.language,
                             csrf: visitor.csrfToken, path: "/admin", section: "admin", data: ["admin": .string(admin.name)])
            }
        }
        signedIn.get("/audit", offLoop: true, in: &router) { request, context in
            try context.admin { visitor, admin in
                let entries: [TemplateValue] = try store.auditLog().map { row in
                    .object(["at": .int(row.int("at") ?? 0), "admin": .string(row.string("admin") ?? ""),
                             "action": .string(row.string("action") ?? ""), "target": .string(row.string("target") ?? ""),
                             "before": .string(row.string("before") ?? ""), "after": .string(row.string("after") ?? "")])
                }
                return pages.render("admin-audit", title: pages.localizer.string("admin.audit.title", language: visitor.language),
                                    language: visitor.language, csrf: visitor.csrfToken, path: "/admin/audit", section: "admin",
                                    data: ["entries": .list(entries), "admin": .string(admin.name)])
            }
        }
        signedIn.get("/hotfixes", offLoop: true, in: &router) { request, context in
            try context.admin { visitor, admin in try hotfixPage(request, visitor, status: .ok, message: nil) }
        }
        signedInForms.post("/hotfixes", offLoop: true, in: &router) { request, context in
            try context.admin { visitor, admin in
                let form = request.form ?? FormFields()
                let key = form["key"] ?? "", language = form["language"] ?? StringOverlay.allLanguages
                let value = form["remove"] != nil ? nil : (form["value"] ?? "")
                switch try hotfixes.set(key, language: language, to: value, by: admin.name) {
                case .success: return .redirect(to: "/admin/hotfixes?q=\(URI.encode(key))")
                case .failure(let refusal):
                    return try hotfixPage(request, visitor, status: .unprocessableContent, message: describe(refusal, visitor.language))
                }
            }
        }
        signedInForms.post("/constants", offLoop: true, in: &router) { request, context in
            try context.admin { visitor, admin in
                let form = request.form ?? FormFields()
                let key = form["key"] ?? ""
                switch try hotfixes.setConstant(key, to: form["remove"] != nil ? nil : (form["value"] ?? ""), by: admin.name) {
                case .success: return .redirect(to: "/admin/hotfixes?q=\(URI.encode(key))")
                case .failure(let refusal):
                    return try hotfixPage(request, visitor, status: .unprocessableContent, message: describe(refusal, visitor.language))
                }
            }
        }
        signedInForms.post("/hotfixes/revert", offLoop: true, in: &router) { request, context in
            try context.admin { visitor, admin in
                guard let id = request.form?["change"].flatMap({ Int($0) }), let result = try hotfixes.revert(id, by: admin.name) else {
                    return try hotfixPage(request, visitor, status: .unprocessableContent,
                                          message: pages.localizer.string("admin.hotfix.unknown", language: visitor.language))
                }
                if case .failure(let refusal) = result {
                    return try hotfixPage(request, visitor, status: .unprocessableContent, message: describe(refusal, visitor.language))
                }
                return .redirect(to: "/admin/hotfixes?q=\(URI.encode(request.form?["key"] ?? ""))")
            }
        }
        signedIn.get("/maintenance", offLoop: true, in: &router) { request, context in
            try context.admin { visitor, admin in try maintenancePage(visitor, status: .ok, message: nil) }
        }
        signedInForms.post("/maintenance", offLoop: true, in: &router) { request, context in
            try context.admin { visitor, admin in
                let form = request.form ?? FormFields()
                guard let platform = form["platform"], InterceptionsStore.platforms.contains(platform) else {
                    return try maintenancePage(visitor, status: .unprocessableContent,
                                               message: pages.localizer.string("admin.maintenance.platform", language: visitor.language))
                }
                var messages: [String: String] = [:]
                for language in pages.localizer.languages {
                    if let text = form["message_\(language)"], !text.isEmpty { messages[language] = String(text.prefix(2000)) }
                }
                var endsAt: Int?
                if let minutes = form["minutes"], !minutes.isEmpty {
                    guard let m = Int(minutes), (1...10_080).contains(m) else {
                        return try maintenancePage(visitor, status: .unprocessableContent,
                                                   message: pages.localizer.string("admin.maintenance.minutes", language: visitor.language))
                    }
                    endsAt = store.clock() + m * 60
                }
                let before = try interceptions.maintenance(platform)
                let after = InterceptionsStore.Maintenance(active: form["active"] == "on", messages: messages, endsAt: endsAt,
                                                           pollInterval: before.pollInterval)
                try interceptions.setMaintenance(platform, after)
                try store.audit(admin.name, action: "maintenance", target: platform, before: before.active ? "on" : "off",
                                after: after.active ? "on" : "off")
                return .redirect(to: "/admin/maintenance")
            }
        }
        signedIn.get("/rules", offLoop: true, in: &router) { request, context in
            try context.admin { visitor, admin in try rulesPage(request, visitor, status: .ok, message: nil) }
        }
        signedInForms.post("/rules", offLoop: true, in: &router) { request, context in
            try context.admin { visitor, admin in
                let form = request.form ?? FormFields()
                let id = form["id"].flatMap { Int($0) }
                if form["delete"] != nil, let id {
                    _ = try interceptions.deleteRule(id)
                    try store.audit(admin.name, action: "delete rule", target: "#\(id)", before: nil, after: nil)
                    return .redirect(to: "/admin/rules")
                }
                let t = pages.localizer.strings(for: visitor.language)
                guard let platform = form["platform"], InterceptionsStore.platforms.contains(platform),
                      let restriction = form["restriction"].flatMap({ Int($0) }).flatMap(Restriction.init) else {
                    return try rulesPage(request, visitor, status: .unprocessableContent, message: t.string("admin.rules.invalid"))
                }
                func requirement(_ prefix: String) -> (String, [String: String])?? {
                    let version = (form["\(prefix)_version"] ?? "").filter { !$0.isWhitespace }
                    if version.isEmpty { return .some(nil) }
                    guard Version(version) != nil else { return nil }
                    var messages: [String: String] = [:]
                    for language in pages.localizer.languages {
                        if let text = form["\(prefix)_message_\(language)"], !text.isEmpty { messages[language] = String(text.prefix(2000)) }
                    }
                    return .some((version, messages))
                }
                guard let app = requirement("app"), let os = requirement("os"), app != nil || os != nil else {
                    return try rulesPage(request, visitor, status: .unprocessableContent, message: t.string("admin.rules.versions"))
                }
                // Only browser rules may name a system: native rules are for their own.
                let system = form["system"].flatMap { $0.isEmpty ? nil : $0 }
                if let system, platform != "web" || !InterceptionsStore.systems.contains(system) {
                    return try rulesPage(request, visitor, status: .unprocessableContent, message: t.string("admin.rules.invalid"))
                }
                let active = form["active"] == "on"
                if let id {
                    guard try interceptions.updateRule(id, platform: platform, restriction: restriction, active: active,
                                                        minimumApp: app, minimumOS: os, os: system) else {
                        return try rulesPage(request, visitor, status: .unprocessableContent, message: t.string("admin.rules.invalid"))
                    }
                    try store.audit(admin.name, action: "edit rule", target: "#\(id)", before: nil, after: "\(platform) \(restriction.name)")
                } else {
                    let new = try interceptions.addRule(platform: platform, restriction: restriction, active: active, minimumApp: app,
                                                        minimumOS: os, os: system)
                    try store.audit(admin.name, action: "add rule", target: "#\(new)", before: nil, after: "\(platform) \(restriction.name)")
                }
                return .redirect(to: "/admin/rules")
            }
        }
        PeopleRoutes(store: people, pages: pages, identity: identity).register(&router, signedIn: signedIn,
                                                                               forms: signedInForms)
        router.get("/api/admin/session", offLoop: true) { request in
            let admin = request.cookies[Self.cookie].flatMap { try? store.session($0) }
            guard let admin else {
                var response = InterceptionsRoutes.json(.object([("error", .string("sign in first"))]), status: .unauthorized)
                response.headers.set("WWW-Authenticate", "Cookie realm=\"arcade-admin\"")
                return response
            }
            return InterceptionsRoutes.json(.object([("admin", .string(admin.name))]))
        }
    }

    private func describe(_ refusal: AdminHotfixes.Refusal, _ language: String) -> String {
        let t = pages.localizer.strings(for: language)
        switch refusal {
        case .unknownKey: return t.string("admin.hotfix.unknown")
        case .unknownLanguage: return t.string("admin.hotfix.language.unknown")
        case .tooLong: return t.string("admin.hotfix.long")
        case .wrongType(let type): return t.string("admin.constant.type", [.string(type)])
        case .notEditable: return t.string("admin.constant.noteditable")
        case .placeholders(let expected, let got):
            return t.string("admin.hotfix.placeholders", [.string(expected.isEmpty ? "–" : expected), .string(got.isEmpty ? "–" : got)])
        }
    }

    /// Keys matching the search, each with its base value, the language's
    /// value and the overrides; and the history of an exact match.
    private func hotfixPage(_ request: Request, _ visitor: Visitor, status: Status, message: String?) throws -> Response {
        let localizer = pages.localizer
        let query = (request.query["q"] ?? request.form?["key"] ?? "").lowercased()
        // A query longer than every key matches none, so the search never grows with it.
        let searchable = query.utf8.count <= FieldLimits.site.limit(for: "q")
        let keys = (localizer.table(localizer.base).keys.sorted() + localizer.pluralFormKeys)
            .filter { query.isEmpty || (searchable && $0.lowercased().contains(query)) }
        let rows: [TemplateValue] = keys.prefix(60).map { key in
            let overrides: [TemplateValue] = ([StringOverlay.allLanguages] + localizer.languages).compactMap { language in
                localizer.overlay.values(for: language)[key].map { .object(["language": .string(language), "value": .string($0)]) }
            }
            let history: [TemplateValue] = (key == query ? (try? hotfixes.history(key)) ?? [] : []).map { change in
                .object(["id": .int(change.id), "language": .string(change.language), "before": .string(change.before ?? "–"),
                         "after": .string(change.after ?? "–"), "admin": .string(change.admin)])
            }
            let base = localizer.table(localizer.base)[key] ?? localizer.shippedForm(key, language: localizer.base) ?? ""
            return .object(["key": .string(key), "base": .string(base),
                            "overrides": .list(overrides), "history": .list(history), "hasHistory": .bool(!history.isEmpty)])
        }
        let languages: [TemplateValue] = ([StringOverlay.allLanguages] + localizer.languages).map { .string($0) }
        let constants = hotfixes.constants
        let constantRows: [TemplateValue] = constants.base.keys.sorted()
            .filter { query.isEmpty || (searchable && $0.lowercased().contains(query)) }
            .compactMap { key in
                guard let base = constants.base[key] else { return nil }
                let current = constants.hotfixValues.first { $0.0 == key }.map { AdminHotfixes.text($0.1) }
                let history: [TemplateValue] = (key.lowercased() == query ? (try? hotfixes.history(key)) ?? [] : []).map { change in
                    .object(["id": .int(change.id), "language": .string(change.language), "before": .string(change.before ?? "–"),
                             "after": .string(change.after ?? "–"), "admin": .string(change.admin)])
                }
                return .object(["key": .string(key), "type": .string(base.typeName), "base": .string(AdminHotfixes.text(base)),
                                "current": current.map { .string($0) } ?? .null, "history": .list(history),
                                "hasHistory": .bool(!history.isEmpty)])
            }
        var response = pages.render("admin-hotfixes", status: status, title: localizer.string("admin.hotfix.title", language: visitor.language),
                                    language: visitor.language, csrf: visitor.csrfToken, path: "/admin/hotfixes", section: "admin",
                                    data: ["rows": .list(rows), "query": .string(query), "languages": .list(languages),
                                           "constants": .list(constantRows),
                                           "message": message.map { .string($0) } ?? .null, "more": .bool(keys.count > 60)])
        response.headers.set("Cache-Control", "no-store")
        return response
    }

    /// Every rule with its edit form, a form for a new one, and the preview:
    /// "app 4.2 on OS 9 → rule #2 (high), message …".
    private func rulesPage(_ request: Request, _ visitor: Visitor, status: Status, message: String?) throws -> Response {
        let localizer = pages.localizer
        let languages = localizer.languages
        func fields(_ requirement: Requirement?) -> TemplateValue {
            .object(["version": .string(requirement?.version.text ?? ""),
                     "messages": .list(languages.map { .object(["language": .string($0), "text": .string(requirement?.messages[$0] ?? "")]) })])
        }
        let rules = try interceptions.rules()
        let rows: [TemplateValue] = rules.map { rule in
            .object(["id": .int(rule.id), "platform": .string(rule.platform), "restriction": .int(rule.restriction.rawValue),
                     "restrictionName": .string(rule.restriction.name), "active": .bool(rule.active),
                     "app": fields(rule.minimumApp), "os": fields(rule.minimumOS),
                     "platforms": .list(InterceptionsStore.platforms.map { .object(["value": .string($0), "selected": .bool($0 == rule.platform)]) }),
                     "system": rule.os.map { .string($0) } ?? .null,
                     "systems": .list(InterceptionsStore.systems.map { .object(["value": .string($0), "selected": .bool($0 == rule.os)]) }),
                     "restrictions": .list(Restriction.allCases.map { .object(["value": .int($0.rawValue), "name": .string($0.name),
                                                                                "selected": .bool($0 == rule.restriction)]) })])
        }
        var preview: TemplateValue = .null
        let query = request.query
        if let platform = query["platform"], let app = query["app"].flatMap(Version.init), let os = query["os"].flatMap(Version.init) {
            let language = InterceptionsRoutes.languageTag(query["lang"]) ?? localizer.base
            let system = query["system"].flatMap { InterceptionsStore.systems.contains($0) ? $0 : nil }
            if let violation = UpdateCheck.evaluate(rules, platform: platform, app: app, os: os, system: system,
                                                    language: language, base: localizer.base) {
                preview = .string("app \(app) on OS \(os) → rule #\(violation.rule.id) (\(violation.rule.restriction.name)), "
                                  + "\(violation.kind == .app ? "app" : "OS") below \(violation.requirement.version): \(violation.message)")
            } else {
                preview = .string("app \(app) on OS \(os) → " + localizer.string("admin.rules.none", language: visitor.language))
            }
        }
        var response = pages.render("admin-rules", status: status, title: localizer.string("admin.rules.title", language: visitor.language),
                                    language: visitor.language, csrf: visitor.csrfToken, path: "/admin/rules", section: "admin",
                                    data: ["rules": .list(rows), "new": fields(nil), "preview": preview,
                                           "platforms": .list(InterceptionsStore.platforms.map { .string($0) }),
                                           "systems": .list(InterceptionsStore.systems.map { .string($0) }),
                                           "message": message.map { .string($0) } ?? .null])
        response.headers.set("Cache-Control", "no-store")
        return response
    }

    private func maintenancePage(_ visitor: Visitor, status: Status, message: String?) throws -> Response {
        let localizer = pages.localizer
        let platforms: [TemplateValue] = try InterceptionsStore.platforms.map { platform in
            let m = try interceptions.maintenance(platform)
            return .object(["platform": .string(platform), "active": .bool(m.active),
                            "messages": .list(localizer.languages.map { language in
                                .object(["language": .string(language), "text": .string(m.messages[language] ?? "")])
                            })])
        }
        var response = pages.render("admin-maintenance", status: status, title: localizer.string("admin.maintenance.title", language: visitor.language),
                                    language: visitor.language, csrf: visitor.csrfToken, path: "/admin/maintenance", section: "admin",
                                    data: ["platforms": .list(platforms), "message": message.map { .string($0) } ?? .null])
        response.headers.set("Cache-Control", "no-store")
        return response
    }

    private func loginPage(_ visitor: Visitor, status: Status, error: String?) -> Response {
        let t = pages.localizer.strings(for: visitor.language)
        var response = pages.render("admin-login", status: status, title: t.string("admin.login.title"), language: visitor.language,
                                    csrf: visitor.csrfToken, path: "/admin/login", section: "admin",
                                    data: ["error": error.map { .string(t.string($0)) } ?? .null])
        response.headers.set("Cache-Control", "no-store")
        return response
    }
}
