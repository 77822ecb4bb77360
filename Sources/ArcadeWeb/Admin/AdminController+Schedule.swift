import ArcadeStore
import HTTP
import Interceptions
import Localization
import Templates

extension AdminController {
    func addScheduleRoutes(to routes: AdminRoutes) {
        routes.pages.get("/admin/schedule", use: scheduled)
        routes.actions.post("/admin/schedule", use: addScheduled)
        routes.actions.post("/admin/schedule/cancel", use: cancelScheduled)
    }

    func scheduled(_ request: Request, _ context: AdminContext) throws -> Response {
        try schedulePage(context.visitor, status: .ok, message: nil)
    }

    func addScheduled(_ request: Request, _ context: AdminContext) throws -> Response {
        let visitor = context.visitor
        let admin = context.admin
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
                return try schedulePage(
                    visitor, status: .unprocessableContent, message: t.string("admin.maintenance.platform"))
            }
            var messages: [String: String] = [:]
            for language in pages.localizer.languages {
                if let text = form["message_\(language)"], !text.isEmpty {
                    messages[language] = String(text.prefix(2000))
                }
            }
            _ = try schedule.maintenance(platform, messages: messages, from: start, until: until, by: admin.name)
        case "rule":
            guard let id = form["rule"].flatMap({ Int($0.filter { $0 != "#" }) }), try interceptions.rule(id) != nil
            else {
                return try schedulePage(
                    visitor, status: .unprocessableContent, message: t.string("admin.rules.invalid"))
            }
            _ = try schedule.rule(id, from: start, until: until, by: admin.name)
        case "hotfix":
            let key = form["key"] ?? ""
            let language = form["language"] ?? StringOverlay.allLanguages
            let value = form["value"] ?? ""
            // Checked now as an admin's hotfix would be, so the tick never meets a refusal.
            if let refusal = hotfixes.check(key, language: language, value: value) {
                return try schedulePage(
                    visitor, status: .unprocessableContent, message: describe(refusal, visitor.language))
            }
            _ = try schedule.hotfix(key, language: language, value: value, from: start, until: until, by: admin.name)
        default:
            return try schedulePage(visitor, status: .unprocessableContent, message: t.string("admin.schedule.invalid"))
        }
        return Flash.redirect("/admin/schedule", t.string("admin.schedule.added", [.string(UTCTime.format(start))]))
    }

    func cancelScheduled(_ request: Request, _ context: AdminContext) throws -> Response {
        let visitor = context.visitor
        let admin = context.admin
        let t = pages.localizer.strings(for: visitor.language)
        guard let id = request.form?["change"].flatMap({ Int($0) }), try schedule.cancel(id, by: admin.name) else {
            return try schedulePage(visitor, status: .unprocessableContent, message: t.string("admin.hotfix.unknown"))
        }
        return Flash.redirect("/admin/schedule", t.string("admin.schedule.cancelled"))
    }

    func schedulePage(_ visitor: Visitor, status: Status, message: String?) throws -> Response {
        let localizer = pages.localizer
        let t = localizer.strings(for: visitor.language)
        let upcoming = try schedule.upcoming().map { scheduledRow($0, t) }
        let soon = UTCTime.inputValue((store.clock() / 60 + 60) * 60)
        return pages.render(
            "admin-schedule", status: status, title: t.string("admin.schedule.title"),
            for: visitor, path: "/admin/schedule", section: "admin",
            data: [
                "upcoming": .list(upcoming), "hasUpcoming": .bool(!upcoming.isEmpty),
                "soon": .string(soon), "now": .string(UTCTime.format(store.clock())),
                "platforms": .list(["web", "ios", "android"].map { .string($0) }),
                "rules": .list(
                    try interceptions.rules().map { rule in
                        .object(["id": .int(rule.id), "summary": .string(InterceptionsStore.summary(rule))])
                    }),
                "languages": .list(([StringOverlay.allLanguages] + localizer.languages).map { .string($0) }),
                "messages": .list(localizer.languages.map { .string($0) }),
                "message": message.map { .string($0) } ?? .null,
            ])
    }

    /// A scheduled change in words: "Maintenance on web", and when.
    func scheduledRow(_ change: ChangeSchedule.Change, _ t: LanguageStrings) -> TemplateValue {
        let what: String =
            switch change.kind {
            case .maintenance: t.string("admin.schedule.what.maintenance", [.string(change.target)])
            case .rule: t.string("admin.schedule.what.rule", [.string(change.target)])
            case .hotfix:
                t.string(
                    "admin.schedule.what.hotfix",
                    [
                        .string(change.target),
                        .string(change.payload["language"]?.string ?? ""),
                    ])
            }
        let when = UTCTime.format(change.startsAt) + (change.endsAt.map { " → " + UTCTime.format($0) } ?? "")
        return .object([
            "id": .int(change.id), "what": .string(what), "when": .string(when), "state": .string(change.state),
            "stateText": .string(t.string("admin.schedule.state.\(change.state)")), "admin": .string(change.admin),
        ])
    }
}
