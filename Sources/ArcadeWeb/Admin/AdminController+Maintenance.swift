import ArcadeStore
import HTTP
import Interceptions
import Localization
import Templates

extension AdminController {
    func addMaintenanceRoutes(to routes: AdminRoutes) {
        routes.pages.get("/admin/maintenance", use: maintenanceList)
        routes.actions.post("/admin/maintenance", use: saveMaintenance)
        routes.actions.post("/admin/maintenance/revert", use: revertMaintenance)
    }

    func maintenanceList(_ request: Request, _ context: AdminContext) throws -> Response {
        try maintenancePage(context.visitor, status: .ok, message: nil)
    }

    func saveMaintenance(_ request: Request, _ context: AdminContext) throws -> Response {
        let visitor = context.visitor
        let admin = context.admin
        let form = request.form ?? FormFields()
        let t = pages.localizer.strings(for: visitor.language)
        guard let platform = form["platform"], InterceptionsStore.platforms.contains(platform) else {
            return try maintenancePage(
                visitor, status: .unprocessableContent, message: t.string("admin.maintenance.platform"))
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
                return try maintenancePage(
                    visitor, status: .unprocessableContent, message: t.string("admin.maintenance.minutes"))
            }
            endsAt = now + m * 60
        } else if let text = form["ends"], !text.isEmpty {
            guard let time = UTCTime.parse(text), time > now, time - now <= 10_080 * 60 else {
                return try maintenancePage(
                    visitor, status: .unprocessableContent, message: t.string("admin.maintenance.minutes"))
            }
            endsAt = time
        }
        let before = try interceptions.maintenance(platform)
        // The state changes only through the explicit switch buttons; "Save" keeps it.
        let active = form["switch"].map { $0 == "on" } ?? before.active
        let after = InterceptionsStore.Maintenance(
            active: active, messages: messages, endsAt: active ? endsAt : nil,
            pollInterval: before.pollInterval)
        if active != before.active && form["confirm"] != "1" {
            return try maintenanceConfirmation(visitor, platform: platform, form: form, on: active)
        }
        try interceptions.setMaintenance(platform, after, by: admin.name)
        let key =
            after.active == before.active
            ? "admin.maintenance.saved" : after.active ? "admin.maintenance.nowon" : "admin.maintenance.nowoff"
        return Flash.redirect("/admin/maintenance#maintenance-\(platform)", t.string(key, [.string(platform)]))
    }

    func revertMaintenance(_ request: Request, _ context: AdminContext) throws -> Response {
        let visitor = context.visitor
        let admin = context.admin
        let t = pages.localizer.strings(for: visitor.language)
        guard let id = request.form?["change"].flatMap({ Int($0) }), try interceptions.revert(id, by: admin.name) else {
            return try maintenancePage(
                visitor, status: .unprocessableContent, message: t.string("admin.hotfix.unknown"))
        }
        return Flash.redirect("/admin/maintenance", t.string("admin.reverted"))
    }

    /// Each platform, the web first: its state in words and colour, when it ends, its messages, on/off buttons and its
    /// recent history with revert.
    func maintenancePage(_ visitor: Visitor, status: Status, message: String?) throws -> Response {
        let localizer = pages.localizer
        let t = localizer.strings(for: visitor.language)
        let platforms: [TemplateValue] = try ["web", "ios", "android"].map { platform in
            let m = try interceptions.maintenance(platform)
            let changes = try interceptions.history(.maintenance, target: platform, limit: 10)
            let history = historyRows(changes, t)
            return .object([
                "platform": .string(platform), "active": .bool(m.active), "state": .string(m.active ? "on" : "off"),
                "stateText": .string(t.string(m.active ? "admin.state.on" : "admin.state.off")),
                "endsAt": m.endsAt.map { .string(UTCTime.format($0)) } ?? .null,
                "endsValue": .string(m.endsAt.map(UTCTime.inputValue) ?? ""),
                "messages": .list(
                    localizer.languages.map { language in
                        .object(["language": .string(language), "text": .string(m.messages[language] ?? "")])
                    }),
                "history": history, "hasHistory": .bool(!changes.isEmpty),
            ])
        }
        return pages.render(
            "admin-maintenance", status: status, title: t.string("admin.maintenance.title"),
            for: visitor, path: "/admin/maintenance", section: "admin",
            data: ["platforms": .list(platforms), "message": message.map { .string($0) } ?? .null])
    }

    /// "Switch maintenance on for web?": what it does, and the same form again with `confirm`.
    func maintenanceConfirmation(_ visitor: Visitor, platform: String, form: FormFields, on: Bool) throws -> Response {
        let t = pages.localizer.strings(for: visitor.language)
        let fields: [TemplateValue] = form.pairs.filter { $0.0 != "csrf" && $0.0 != "confirm" }.map { name, value in
            .object(["name": .string(name), "value": .string(value)])
        }
        return pages.render(
            "admin-confirm", title: t.string("admin.confirm.title"), for: visitor, path: "/admin/maintenance",
            section: "admin",
            data: [
                "action": "/admin/maintenance", "back": "/admin/maintenance", "fields": .list(fields),
                "question": .string(
                    t.string(
                        on ? "admin.maintenance.confirm.on" : "admin.maintenance.confirm.off",
                        [.string(platform)])),
                "confirm": .string(t.string(on ? "admin.maintenance.switch.on" : "admin.maintenance.switch.off")),
            ])
    }
}
