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
    let schedule: ChangeSchedule
    /// The site's version: a web client's app version, so the rule preview starts from it.
    let version: @Sendable () -> String

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
                    return loginPage(visitor, status: .unprocessableContent, error: "admin.login.wrong", name: name)
                }
                if try store.recentFailures(name: name, address: address) >= AdminStore.maxFailures {
                    var page = loginPage(visitor, status: .tooManyRequests, error: "admin.login.throttled", name: name)
                    page.headers.set("Retry-After", String(AdminStore.failureWindow))
                    return page
                }
                guard let admin = try store.verify(name: name, password: password) else {
                    try store.recordFailure(name: name, address: address)
                    return loginPage(visitor, status: .unauthorized, error: "admin.login.wrong", name: name)
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
            try context.admin { visitor, admin in try dashboard(visitor, admin) }
        }
        signedIn.get("/audit", offLoop: true, in: &router) { request, context in
            try context.admin { visitor, admin in
                let entries: [TemplateValue] = try store.auditLog().map { entry in
                    .object(["at": .string(UTCTime.format(entry.at)), "admin": .string(entry.admin),
                             "action": .string(entry.action), "target": .string(entry.target),
                             "before": .string(entry.before ?? ""), "after": .string(entry.after ?? "")])
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
                // Every language at once replaces what each shows: checked, then listed for a confirmation first.
                if language == StringOverlay.allLanguages, form["confirm"] != "1" {
                    if let refusal = hotfixes.check(key, language: language, value: value) {
                        return try hotfixPage(request, visitor, status: .unprocessableContent, message: describe(refusal, visitor.language))
                    }
                    return allLanguagesConfirmation(visitor, key: key, value: value, form: form)
                }
                let t = pages.localizer.strings(for: visitor.language)
                switch try hotfixes.set(key, language: language, to: value, by: admin.name) {
                case .success:
                    let label = language == StringOverlay.allLanguages ? t.string("admin.hotfix.all") : language
                    return Flash.redirect("/admin/hotfixes?q=\(URI.encode(key))",
                                          t.string(value == nil ? "admin.hotfix.removed" : "admin.hotfix.saved", [.string(key), .string(label)]))
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
                case .success:
                    return Flash.redirect("/admin/hotfixes?q=\(URI.encode(key))",
                                          pages.localizer.string("admin.hotfix.constant.saved", language: visitor.language, [.string(key)]))
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
                return Flash.redirect("/admin/hotfixes?q=\(URI.encode(request.form?["key"] ?? ""))",
                                      pages.localizer.string("admin.reverted", language: visitor.language))
            }
        }
        signedIn.get("/maintenance", offLoop: true, in: &router) { request, context in
            try context.admin { visitor, admin in try maintenancePage(visitor, status: .ok, message: nil) }
        }
        // Switching a platform on or off asks once more (a page naming what it does); messages and the end save at once.
        signedInForms.post("/maintenance", offLoop: true, in: &router) { request, context in
            try context.admin { visitor, admin in
                let form = request.form ?? FormFields()
                let t = pages.localizer.strings(for: visitor.language)
                guard let platform = form["platform"], InterceptionsStore.platforms.contains(platform) else {
                    return try maintenancePage(visitor, status: .unprocessableContent, message: t.string("admin.maintenance.platform"))
                }
                var messages: [String: String] = [:]
                for language in pages.localizer.languages {
                    if let text = form["message_\(language)"], !text.isEmpty { messages[language] = String(text.prefix(2000)) }
                }
                // The end: a time (UTC) or a number of minutes from now; blank for none.
                var endsAt: Int?
                let now = store.clock()
                if let minutes = form["minutes"], !minutes.isEmpty {
                    guard let m = Int(minutes), (1...10_080).contains(m) else {
                        return try maintenancePage(visitor, status: .unprocessableContent, message: t.string("admin.maintenance.minutes"))
                    }
                    endsAt = now + m * 60
                } else if let text = form["ends"], !text.isEmpty {
                    guard let time = UTCTime.parse(text), time > now, time - now <= 10_080 * 60 else {
                        return try maintenancePage(visitor, status: .unprocessableContent, message: t.string("admin.maintenance.minutes"))
                    }
                    endsAt = time
                }
                let before = try interceptions.maintenance(platform)
                // The state changes only through the explicit switch buttons; "Save" keeps it.
                let active = form["switch"].map { $0 == "on" } ?? before.active
                let after = InterceptionsStore.Maintenance(active: active, messages: messages, endsAt: active ? endsAt : nil,
                                                           pollInterval: before.pollInterval)
                if active != before.active && form["confirm"] != "1" {
                    return try maintenanceConfirmation(visitor, platform: platform, form: form, on: active)
                }
                try interceptions.setMaintenance(platform, after, by: admin.name)
                let key = after.active == before.active ? "admin.maintenance.saved" : after.active ? "admin.maintenance.nowon" : "admin.maintenance.nowoff"
                return Flash.redirect("/admin/maintenance#maintenance-\(platform)", t.string(key, [.string(platform)]))
            }
        }
        signedInForms.post("/maintenance/revert", offLoop: true, in: &router) { request, context in
            try context.admin { visitor, admin in
                let t = pages.localizer.strings(for: visitor.language)
                guard let id = request.form?["change"].flatMap({ Int($0) }), try interceptions.revert(id, by: admin.name) else {
                    return try maintenancePage(visitor, status: .unprocessableContent, message: t.string("admin.hotfix.unknown"))
                }
                return Flash.redirect("/admin/maintenance", t.string("admin.reverted"))
            }
        }
        signedIn.get("/rules", offLoop: true, in: &router) { request, context in
            try context.admin { visitor, admin in try rulesPage(request, visitor, status: .ok, message: nil) }
        }
        signedInForms.post("/rules", offLoop: true, in: &router) { request, context in
            try context.admin { visitor, admin in
                let form = request.form ?? FormFields()
                let id = form["id"].flatMap { Int($0) }
                let t = pages.localizer.strings(for: visitor.language)
                if form["delete"] != nil, let id {
                    guard try interceptions.deleteRule(id, by: admin.name) else {
                        return try rulesPage(request, visitor, status: .unprocessableContent, message: t.string("admin.rules.invalid"))
                    }
                    return Flash.redirect("/admin/rules", t.string("admin.rules.deleted", [.int(id)]))
                }
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
                                                        minimumApp: app, minimumOS: os, os: system, by: admin.name) else {
                        return try rulesPage(request, visitor, status: .unprocessableContent, message: t.string("admin.rules.invalid"))
                    }
                    return Flash.redirect("/admin/rules#rule-\(id)", t.string("admin.rules.saved", [.int(id)]))
                }
                let new = try interceptions.addRule(platform: platform, restriction: restriction, active: active, minimumApp: app,
                                                    minimumOS: os, os: system, by: admin.name)
                return Flash.redirect("/admin/rules#rule-\(new)", t.string("admin.rules.added", [.int(new)]))
            }
        }
        signedInForms.post("/rules/revert", offLoop: true, in: &router) { request, context in
            try context.admin { visitor, admin in
                let t = pages.localizer.strings(for: visitor.language)
                guard let id = request.form?["change"].flatMap({ Int($0) }), try interceptions.revert(id, by: admin.name) else {
                    return try rulesPage(request, visitor, status: .unprocessableContent, message: t.string("admin.hotfix.unknown"))
                }
                return Flash.redirect("/admin/rules", t.string("admin.reverted"))
            }
        }
        signedIn.get("/schedule", offLoop: true, in: &router) { request, context in
            try context.admin { visitor, admin in try schedulePage(visitor, status: .ok, message: nil) }
        }
        signedInForms.post("/schedule", offLoop: true, in: &router) { request, context in
            try context.admin { visitor, admin in
                let form = request.form ?? FormFields()
                let t = pages.localizer.strings(for: visitor.language)
                let now = store.clock()
                guard let start = form["starts"].flatMap(UTCTime.parse) else {
                    return try schedulePage(visitor, status: .unprocessableContent, message: t.string("admin.schedule.invalid"))
                }
                let end = form["ends"].flatMap { $0.isEmpty ? nil : $0 }.map(UTCTime.parse)
                // An end that does not parse, or that comes before the start, is refused; a start in the past starts now.
                if let end, end == nil || end! <= max(start, now) {
                    return try schedulePage(visitor, status: .unprocessableContent, message: t.string("admin.schedule.invalid"))
                }
                let until = end ?? nil
                switch form["kind"] {
                case "maintenance":
                    guard let platform = form["platform"], InterceptionsStore.platforms.contains(platform) else {
                        return try schedulePage(visitor, status: .unprocessableContent, message: t.string("admin.maintenance.platform"))
                    }
                    var messages: [String: String] = [:]
                    for language in pages.localizer.languages {
                        if let text = form["message_\(language)"], !text.isEmpty { messages[language] = String(text.prefix(2000)) }
                    }
                    _ = try schedule.maintenance(platform, messages: messages, from: start, until: until, by: admin.name)
                case "rule":
                    guard let id = form["rule"].flatMap({ Int($0.filter { $0 != "#" }) }), try interceptions.rule(id) != nil else {
                        return try schedulePage(visitor, status: .unprocessableContent, message: t.string("admin.rules.invalid"))
                    }
                    _ = try schedule.rule(id, from: start, until: until, by: admin.name)
                case "hotfix":
                    let key = form["key"] ?? "", language = form["language"] ?? StringOverlay.allLanguages, value = form["value"] ?? ""
                    // Checked now as an admin's hotfix would be, so the tick never meets a refusal.
                    if let refusal = hotfixes.check(key, language: language, value: value) {
                        return try schedulePage(visitor, status: .unprocessableContent, message: describe(refusal, visitor.language))
                    }
                    _ = try schedule.hotfix(key, language: language, value: value, from: start, until: until, by: admin.name)
                default:
                    return try schedulePage(visitor, status: .unprocessableContent, message: t.string("admin.schedule.invalid"))
                }
                return Flash.redirect("/admin/schedule", t.string("admin.schedule.added", [.string(UTCTime.format(start))]))
            }
        }
        signedInForms.post("/schedule/cancel", offLoop: true, in: &router) { request, context in
            try context.admin { visitor, admin in
                let t = pages.localizer.strings(for: visitor.language)
                guard let id = request.form?["change"].flatMap({ Int($0) }), try schedule.cancel(id, by: admin.name) else {
                    return try schedulePage(visitor, status: .unprocessableContent, message: t.string("admin.hotfix.unknown"))
                }
                return Flash.redirect("/admin/schedule", t.string("admin.schedule.cancelled"))
            }
        }
        PeopleRoutes(store: people, pages: pages, identity: identity).register(&router, signedIn: signedIn,
                                                                               forms: signedInForms)
        StringsRoutes(exchange: StringsExchange(hotfixes: hotfixes), pages: pages, identity: identity)
            .register(&router, signedIn: signedIn, forms: signedInForms)
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

    /// What an operator checks first: maintenance and active rules per platform, hotfixes per language, what is
    /// scheduled and the last ten changes; each links to its editor. `data-` attributes carry the states for tests.
    private func dashboard(_ visitor: Visitor, _ admin: AdminStore.Admin) throws -> Response {
        let localizer = pages.localizer
        let t = localizer.strings(for: visitor.language)
        let rules = try interceptions.rules()
        let platforms: [TemplateValue] = try ["web", "ios", "android"].map { platform in
            let m = try interceptions.maintenance(platform)
            let active = rules.filter { $0.platform == platform && $0.active }
            let highest = active.map(\.restriction).max()
            return .object(["platform": .string(platform), "state": .string(m.active ? "on" : "off"),
                            "stateText": .string(t.string(m.active ? "admin.state.on" : "admin.state.off")),
                            "endsAt": m.endsAt.map { .string(UTCTime.format($0)) } ?? .null,
                            "rules": .int(active.count),
                            "rulesText": .string(t.string("admin.dashboard.rules", [.int(active.count)])),
                            "highest": highest.map { .string($0.name) } ?? .null])
        }
        let languages: [TemplateValue] = ([StringOverlay.allLanguages] + localizer.languages).map { language in
            let count = localizer.overlay.values(for: language).count
            return .object(["language": .string(language == StringOverlay.allLanguages ? "all" : language),
                            "label": .string(language == StringOverlay.allLanguages ? t.string("admin.hotfix.all") : language),
                            "count": .int(count)])
        }
        let recent: [TemplateValue] = try store.auditLog(limit: 10).map { entry in
            .object(["at": .string(UTCTime.format(entry.at)), "admin": .string(entry.admin),
                     "action": .string(entry.action), "target": .string(entry.target)])
        }
        let scheduled = try schedule.upcoming().map { scheduledRow($0, t) }
        return pages.render("admin", title: t.string("admin.title"), language: visitor.language, csrf: visitor.csrfToken,
                            path: "/admin", section: "admin",
                            data: ["admin": .string(admin.name), "platforms": .list(platforms), "languages": .list(languages),
                                   "recent": .list(recent), "hasRecent": .bool(!recent.isEmpty),
                                   "scheduled": .list(scheduled), "scheduledCount": .int(scheduled.count),
                                   "hasScheduled": .bool(!scheduled.isEmpty)])
    }

    /// A scheduled change in words: "Maintenance on web", and when.
    private func scheduledRow(_ change: ChangeSchedule.Change, _ t: LanguageStrings) -> TemplateValue {
        let what: String = switch change.kind {
        case .maintenance: t.string("admin.schedule.what.maintenance", [.string(change.target)])
        case .rule: t.string("admin.schedule.what.rule", [.string(change.target)])
        case .hotfix: t.string("admin.schedule.what.hotfix", [.string(change.target),
                                                               .string(change.payload["language"]?.string ?? "")])
        }
        let when = UTCTime.format(change.startsAt) + (change.endsAt.map { " → " + UTCTime.format($0) } ?? "")
        return .object(["id": .int(change.id), "what": .string(what), "when": .string(when), "state": .string(change.state),
                        "stateText": .string(t.string("admin.schedule.state.\(change.state)")), "admin": .string(change.admin)])
    }

    private func schedulePage(_ visitor: Visitor, status: Status, message: String?) throws -> Response {
        let localizer = pages.localizer
        let t = localizer.strings(for: visitor.language)
        let upcoming = try schedule.upcoming().map { scheduledRow($0, t) }
        let soon = UTCTime.inputValue((store.clock() / 60 + 60) * 60)
        var response = pages.render("admin-schedule", status: status, title: t.string("admin.schedule.title"),
                                    language: visitor.language, csrf: visitor.csrfToken, path: "/admin/schedule", section: "admin",
                                    data: ["upcoming": .list(upcoming), "hasUpcoming": .bool(!upcoming.isEmpty),
                                           "soon": .string(soon), "now": .string(UTCTime.format(store.clock())),
                                           "platforms": .list(["web", "ios", "android"].map { .string($0) }),
                                           "rules": .list(try interceptions.rules().map { rule in
                                               .object(["id": .int(rule.id), "summary": .string(InterceptionsStore.summary(rule))])
                                           }),
                                           "languages": .list(([StringOverlay.allLanguages] + localizer.languages).map { .string($0) }),
                                           "messages": .list(localizer.languages.map { .string($0) }),
                                           "message": message.map { .string($0) } ?? .null])
        response.headers.set("Cache-Control", "no-store")
        return response
    }

    private func describe(_ refusal: AdminHotfixes.Refusal, _ language: String) -> String {
        AdminHotfixes.describe(refusal, pages.localizer.strings(for: language))
    }

    /// Search first: keys matching the query (or, with none, the keys that have hotfixes), each with a row per
    /// language (the text it ships, its hotfix, a form that changes that language only), a separate "all languages"
    /// form, and the key's history with revert.
    private func hotfixPage(_ request: Request, _ visitor: Visitor, status: Status, message: String?) throws -> Response {
        let localizer = pages.localizer
        let t = localizer.strings(for: visitor.language)
        let query = (request.query["q"] ?? request.form?["key"] ?? "").lowercased()
        // A query longer than every key matches none, so the search never grows with it.
        let searchable = query.utf8.count <= FieldLimits.site.limit(for: "q")
        let all = localizer.overlay.values(for: StringOverlay.allLanguages)
        let hotfixed = Set(([StringOverlay.allLanguages] + localizer.languages).flatMap { localizer.overlay.values(for: $0).keys })
        let keys = (localizer.table(localizer.base).keys.sorted() + localizer.pluralFormKeys)
            .filter { query.isEmpty ? hotfixed.contains($0) : (searchable && $0.lowercased().contains(query)) }
        let shown = 20
        let rows: [TemplateValue] = keys.prefix(shown).map { key in
            let base = localizer.table(localizer.base)[key] ?? localizer.shippedForm(key, language: localizer.base) ?? ""
            let languages: [TemplateValue] = localizer.languages.map { language in
                let own = localizer.table(language)[key] ?? (key.contains("#") ? localizer.shippedForm(key, language: language) : nil)
                let hotfix = localizer.overlay.values(for: language)[key]
                return .object(["language": .string(language), "shipped": .string(own ?? base), "fallback": .bool(own == nil),
                                "hotfix": hotfix.map { .string($0) } ?? .null, "fromAll": all[key].map { .string($0) } ?? .null,
                                "value": .string(hotfix ?? all[key] ?? own ?? base)])
            }
            let history: [TemplateValue] = (key == query ? (try? hotfixes.history(key)) ?? [] : []).map { change in
                .object(["id": .int(change.id), "language": .string(change.language), "before": .string(change.before ?? "–"),
                         "after": .string(change.after ?? "–"), "admin": .string(change.admin), "at": .string(UTCTime.format(change.at)),
                         "batch": change.batch.map { .int($0) } ?? .null])
            }
            return .object(["key": .string(key), "base": .string(base), "languages": .list(languages),
                            "all": all[key].map { .string($0) } ?? .null,
                            "history": .list(history), "hasHistory": .bool(!history.isEmpty)])
        }
        let constants = hotfixes.constants
        let constantRows: [TemplateValue] = query.isEmpty ? [] : constants.base.keys.sorted()
            .filter { searchable && $0.lowercased().contains(query) }
            .compactMap { key in
                guard let base = constants.base[key] else { return nil }
                let current = constants.hotfixValues.first { $0.0 == key }.map { AdminHotfixes.text($0.1) }
                let history: [TemplateValue] = (key.lowercased() == query ? (try? hotfixes.history(key)) ?? [] : []).map { change in
                    .object(["id": .int(change.id), "language": .string(change.language), "before": .string(change.before ?? "–"),
                             "after": .string(change.after ?? "–"), "admin": .string(change.admin),
                             "at": .string(UTCTime.format(change.at))])
                }
                return .object(["key": .string(key), "type": .string(base.typeName), "base": .string(AdminHotfixes.text(base)),
                                "current": current.map { .string($0) } ?? .null, "history": .list(history),
                                "hasHistory": .bool(!history.isEmpty)])
            }
        let found = query.isEmpty ? "" : t.string("admin.hotfix.found", [.int(keys.count + constantRows.count)])
        var response = pages.render("admin-hotfixes", status: status, title: t.string("admin.hotfix.title"),
                                    language: visitor.language, csrf: visitor.csrfToken, path: "/admin/hotfixes", section: "admin",
                                    data: ["rows": .list(rows), "query": .string(query), "searched": .bool(!query.isEmpty),
                                           "found": .string(found), "constants": .list(constantRows),
                                           "nothing": .bool(!query.isEmpty && rows.isEmpty && constantRows.isEmpty),
                                           "message": message.map { .string($0) } ?? .null, "more": .bool(keys.count > shown)])
        response.headers.set("Cache-Control", "no-store")
        return response
    }

    /// "Set for every language?": what each language shows now and what it will show (a language with its own hotfix
    /// keeps it), and the same form again with `confirm`.
    private func allLanguagesConfirmation(_ visitor: Visitor, key: String, value: String?, form: FormFields) -> Response {
        let localizer = pages.localizer
        let t = localizer.strings(for: visitor.language)
        let items: [TemplateValue] = localizer.languages.map { language in
            let own = localizer.overlay.values(for: language)[key]
            let now = localizer.rawString(key, language: language) ?? localizer.shippedForm(key, language: language) ?? ""
            let after = own ?? value ?? localizer.table(language)[key] ?? localizer.table(localizer.base)[key] ?? now
            return .object(["language": .string(language), "before": .string(now), "after": .string(after),
                            "keeps": .bool(own != nil)])
        }
        let fields: [TemplateValue] = form.pairs.filter { $0.0 != "csrf" && $0.0 != "confirm" }.map { name, value in
            .object(["name": .string(name), "value": .string(value)])
        }
        return pages.render("admin-confirm", title: t.string("admin.confirm.title"), language: visitor.language,
                            csrf: visitor.csrfToken, path: "/admin/hotfixes", section: "admin",
                            data: ["action": "/admin/hotfixes", "back": .string("/admin/hotfixes?q=" + URI.encode(key)),
                                   "fields": .list(fields), "items": .list(items), "hasItems": true,
                                   "question": .string(t.string(value == nil ? "admin.hotfix.all.confirm.remove" : "admin.hotfix.all.confirm",
                                                                [.string(key)])),
                                   "confirm": .string(t.string("admin.hotfix.all.set"))])
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
        // The preview's own fields, kept in the form; its language is the preview's, never the admin's page language.
        let query = request.query
        let t = localizer.strings(for: visitor.language)
        let asked = (platform: query["platform"].flatMap { InterceptionsStore.platforms.contains($0) ? $0 : nil } ?? "web",
                     app: (query["app"] ?? "").filter { !$0.isWhitespace }, os: (query["os"] ?? "").filter { !$0.isWhitespace },
                     system: query["system"].flatMap { InterceptionsStore.systems.contains($0) ? $0 : nil },
                     language: query["language"].flatMap { localizer.languages.contains($0) ? $0 : nil } ?? localizer.base)
        var preview: TemplateValue = .null, previewError: TemplateValue = .null
        if query["preview"] != nil {
            // A blank OS is the usual case on the web (a browser that names no version): its minimums are not checked.
            if let app = Version(asked.app), let os = asked.os.isEmpty ? Version("9999") : Version(asked.os) {
                let client = asked.os.isEmpty ? t.string("admin.rules.preview.client.noos", [.string(app.text)])
                    : t.string("admin.rules.preview.client", [.string(app.text), .string(os.text)])
                if let violation = UpdateCheck.evaluate(rules, platform: asked.platform, app: app, os: os, system: asked.system,
                                                        language: asked.language, base: localizer.base) {
                    let below = violation.kind == .app ? "admin.rules.preview.app" : "admin.rules.preview.os"
                    preview = .object(["client": .string(client), "rule": .int(violation.rule.id),
                                       "restriction": .string(violation.rule.restriction.name),
                                       "why": .string(t.string(below, [.string(violation.requirement.version.text)])),
                                       "message": .string(violation.message)])
                } else {
                    preview = .object(["client": .string(client), "none": .string(t.string("admin.rules.none"))])
                }
            } else {
                previewError = .string(t.string("admin.rules.preview.invalid"))
            }
        }
        let previewForm: TemplateValue = .object([
            "app": .string(query["preview"] == nil ? version() : asked.app), "os": .string(asked.os),
            "platforms": .list(InterceptionsStore.platforms.map { .object(["value": .string($0), "selected": .bool($0 == asked.platform)]) }),
            "systems": .list(InterceptionsStore.systems.map { .object(["value": .string($0), "selected": .bool($0 == asked.system)]) }),
            "languages": .list(localizer.languages.map { .object(["value": .string($0), "selected": .bool($0 == asked.language)]) })])
        let ruleChanges = try interceptions.history(.rule, limit: 20)
        var response = pages.render("admin-rules", status: status, title: localizer.string("admin.rules.title", language: visitor.language),
                                    language: visitor.language, csrf: visitor.csrfToken, path: "/admin/rules", section: "admin",
                                    data: ["rules": .list(rows), "new": fields(nil), "preview": preview,
                                           "previewError": previewError, "previewForm": previewForm,
                                           "history": historyRows(ruleChanges, t), "hasHistory": .bool(!ruleChanges.isEmpty),
                                           "platforms": .list(InterceptionsStore.platforms.map { .string($0) }),
                                           "systems": .list(InterceptionsStore.systems.map { .string($0) }),
                                           "message": message.map { .string($0) } ?? .null])
        response.headers.set("Cache-Control", "no-store")
        return response
    }

    /// Each platform, the web first: its state in words and colour, when it ends, its messages, on/off buttons and its
    /// recent history with revert.
    private func maintenancePage(_ visitor: Visitor, status: Status, message: String?) throws -> Response {
        let localizer = pages.localizer
        let t = localizer.strings(for: visitor.language)
        let platforms: [TemplateValue] = try ["web", "ios", "android"].map { platform in
            let m = try interceptions.maintenance(platform)
            let changes = try interceptions.history(.maintenance, target: platform, limit: 10), history = historyRows(changes, t)
            return .object(["platform": .string(platform), "active": .bool(m.active), "state": .string(m.active ? "on" : "off"),
                            "stateText": .string(t.string(m.active ? "admin.state.on" : "admin.state.off")),
                            "endsAt": m.endsAt.map { .string(UTCTime.format($0)) } ?? .null,
                            "endsValue": .string(m.endsAt.map(UTCTime.inputValue) ?? ""),
                            "messages": .list(localizer.languages.map { language in
                                .object(["language": .string(language), "text": .string(m.messages[language] ?? "")])
                            }),
                            "history": history, "hasHistory": .bool(!changes.isEmpty)])
        }
        var response = pages.render("admin-maintenance", status: status, title: t.string("admin.maintenance.title"),
                                    language: visitor.language, csrf: visitor.csrfToken, path: "/admin/maintenance", section: "admin",
                                    data: ["platforms": .list(platforms), "message": message.map { .string($0) } ?? .null])
        response.headers.set("Cache-Control", "no-store")
        return response
    }

    /// "Switch maintenance on for web?": what it does, and the same form again with `confirm`.
    private func maintenanceConfirmation(_ visitor: Visitor, platform: String, form: FormFields, on: Bool) throws -> Response {
        let t = pages.localizer.strings(for: visitor.language)
        let fields: [TemplateValue] = form.pairs.filter { $0.0 != "csrf" && $0.0 != "confirm" }.map { name, value in
            .object(["name": .string(name), "value": .string(value)])
        }
        return pages.render("admin-confirm", title: t.string("admin.confirm.title"), language: visitor.language,
                            csrf: visitor.csrfToken, path: "/admin/maintenance", section: "admin",
                            data: ["action": "/admin/maintenance", "back": "/admin/maintenance", "fields": .list(fields),
                                   "question": .string(t.string(on ? "admin.maintenance.confirm.on" : "admin.maintenance.confirm.off",
                                                                [.string(platform)])),
                                   "confirm": .string(t.string(on ? "admin.maintenance.switch.on" : "admin.maintenance.switch.off"))])
    }

    /// History entries (rules, maintenance) as rows with a revert button.
    private func historyRows(_ changes: [InterceptionsStore.Change], _ t: LanguageStrings) -> TemplateValue {
        .list(changes.map { change in
            .object(["id": .int(change.id), "at": .string(UTCTime.format(change.at)), "admin": .string(change.admin),
                     "target": .string(change.target),
                     "before": .string(describe(change.kind, change.before, t)), "after": .string(describe(change.kind, change.after, t))])
        })
    }

    /// A stored item in a few words for the history table.
    private func describe(_ kind: InterceptionsStore.Kind, _ json: String?, _ t: LanguageStrings) -> String {
        guard let json else { return "–" }
        switch kind {
        case .rule: return InterceptionsStore.rule(json: json).map(InterceptionsStore.summary) ?? "?"
        case .maintenance:
            guard let m = InterceptionsStore.maintenance(json: json) else { return "?" }
            return t.string(m.active ? "admin.state.on" : "admin.state.off") + (m.endsAt.map { " → " + UTCTime.format($0) } ?? "")
        }
    }

    /// The sign-in form; after a failure it keeps the name typed (never the password).
    private func loginPage(_ visitor: Visitor, status: Status, error: String?, name: String = "") -> Response {
        let t = pages.localizer.strings(for: visitor.language)
        var response = pages.render("admin-login", status: status, title: t.string("admin.login.title"), language: visitor.language,
                                    csrf: visitor.csrfToken, path: "/admin/login", section: "admin",
                                    data: ["error": error.map { .string(t.string($0)) } ?? .null,
                                           "name": .string(String(name.prefix(64)))])
        response.headers.set("Cache-Control", "no-store")
        return response
    }
}
