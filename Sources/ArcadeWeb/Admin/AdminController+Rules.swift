import ArcadeStore
import HTTP
import Interceptions
import Localization
import Templates

extension AdminController {
    func addRulesRoutes(to routes: AdminRoutes) {
        routes.pages.get("/admin/rules", use: ruleList)
        routes.actions.post("/admin/rules", use: saveRule)
        routes.actions.post("/admin/rules/revert", use: revertRule)
    }

    func ruleList(_ request: Request, _ context: AdminContext) throws -> Response {
        try rulesPage(request, context.visitor, status: .ok, message: nil)
    }

    func saveRule(_ request: Request, _ context: AdminContext) throws -> Response {
        let visitor = context.visitor
        let admin = context.admin
        let form = request.form ?? FormFields()
        let id = form["id"].flatMap { Int($0) }
        let t = pages.localizer.strings(for: visitor.language)
        if form["delete"] != nil, let id {
            guard try interceptions.deleteRule(id, by: admin.name) else {
                return try rulesPage(
                    request, visitor, status: .unprocessableContent, message: t.string("admin.rules.invalid"))
            }
            return Flash.redirect("/admin/rules", t.string("admin.rules.deleted", [.int(id)]))
        }
        guard let platform = form["platform"], InterceptionsStore.platforms.contains(platform),
            let restriction = form["restriction"].flatMap({ Int($0) }).flatMap(Restriction.init)
        else {
            return try rulesPage(
                request, visitor, status: .unprocessableContent, message: t.string("admin.rules.invalid"))
        }
        func requirement(_ prefix: String) -> (String, [String: String])?? {
            let version = (form["\(prefix)_version"] ?? "").filter { !$0.isWhitespace }
            if version.isEmpty { return .some(nil) }
            guard Version(version) != nil else { return nil }
            var messages: [String: String] = [:]
            for language in pages.localizer.languages {
                if let text = form["\(prefix)_message_\(language)"], !text.isEmpty {
                    messages[language] = String(text.prefix(2000))
                }
            }
            return .some((version, messages))
        }
        guard let app = requirement("app"), let os = requirement("os"), app != nil || os != nil else {
            return try rulesPage(
                request, visitor, status: .unprocessableContent, message: t.string("admin.rules.versions"))
        }
        // Only browser rules may name a system: native rules are for their own.
        let system = form["system"].flatMap { $0.isEmpty ? nil : $0 }
        if let system, platform != "web" || !InterceptionsStore.systems.contains(system) {
            return try rulesPage(
                request, visitor, status: .unprocessableContent, message: t.string("admin.rules.invalid"))
        }
        let active = form["active"] == "on"
        if let id {
            guard
                try interceptions.updateRule(
                    id, platform: platform, restriction: restriction, active: active,
                    minimumApp: app, minimumOS: os, os: system, by: admin.name)
            else {
                return try rulesPage(
                    request, visitor, status: .unprocessableContent, message: t.string("admin.rules.invalid"))
            }
            return Flash.redirect("/admin/rules#rule-\(id)", t.string("admin.rules.saved", [.int(id)]))
        }
        let new = try interceptions.addRule(
            platform: platform, restriction: restriction, active: active, minimumApp: app,
            minimumOS: os, os: system, by: admin.name)
        return Flash.redirect("/admin/rules#rule-\(new)", t.string("admin.rules.added", [.int(new)]))
    }

    func revertRule(_ request: Request, _ context: AdminContext) throws -> Response {
        let visitor = context.visitor
        let admin = context.admin
        let t = pages.localizer.strings(for: visitor.language)
        guard let id = request.form?["change"].flatMap({ Int($0) }), try interceptions.revert(id, by: admin.name) else {
            return try rulesPage(
                request, visitor, status: .unprocessableContent, message: t.string("admin.hotfix.unknown"))
        }
        return Flash.redirect("/admin/rules", t.string("admin.reverted"))
    }

    /// Every rule with its edit form, a form for a new one, and the preview:
    /// "app 4.2 on OS 9 → rule #2 (high), message …".
    func rulesPage(_ request: Request, _ visitor: Visitor, status: Status, message: String?) throws -> Response {
        let localizer = pages.localizer
        let rules = try interceptions.rules()
        let t = localizer.strings(for: visitor.language)
        let rows = rules.map { ruleFields($0, t: t) }
        // The preview's own fields, kept in the form; its language is the preview's, never the admin's page language.
        let query = request.query
        let asked = (
            platform: query["platform"].flatMap { InterceptionsStore.platforms.contains($0) ? $0 : nil } ?? "web",
            app: (query["app"] ?? "").filter { !$0.isWhitespace }, os: (query["os"] ?? "").filter { !$0.isWhitespace },
            system: query["system"].flatMap { InterceptionsStore.systems.contains($0) ? $0 : nil },
            language: query["language"].flatMap { localizer.languages.contains($0) ? $0 : nil } ?? localizer.base
        )
        let (preview, previewError) =
            query["preview"] == nil ? (TemplateValue.null, TemplateValue.null) : self.preview(asked, rules: rules, t: t)
        let previewForm: TemplateValue = .object([
            "app": .string(query["preview"] == nil ? version() : asked.app), "os": .string(asked.os),
            "platforms": Self.options(InterceptionsStore.platforms, selected: asked.platform),
            "systems": Self.options(InterceptionsStore.systems, selected: asked.system),
            "languages": Self.options(localizer.languages, selected: asked.language),
        ])
        let ruleChanges = try interceptions.history(.rule, limit: 20)
        return pages.render(
            "admin-rules", status: status, title: localizer.string("admin.rules.title", language: visitor.language),
            for: visitor, path: "/admin/rules", section: "admin",
            data: [
                "rules": .list(rows), "new": requirementFields(nil), "newRestrictions": restrictionFields(nil, t: t),
                "preview": preview,
                "previewError": previewError, "previewForm": previewForm,
                "history": historyRows(ruleChanges, t), "hasHistory": .bool(!ruleChanges.isEmpty),
                "platforms": .list(InterceptionsStore.platforms.map { .string($0) }),
                "systems": .list(InterceptionsStore.systems.map { .string($0) }),
                "message": message.map { .string($0) } ?? .null,
            ])
    }

    /// A version requirement's form fields: its version and a message per language.
    private func requirementFields(_ requirement: Requirement?) -> TemplateValue {
        .object([
            "version": .string(requirement?.version.text ?? ""),
            "messages": .list(
                pages.localizer.languages.map {
                    .object(["language": .string($0), "text": .string(requirement?.messages[$0] ?? "")])
                }),
        ])
    }

    /// The levels in words of the admin's language (the data attribute keeps the API's name).
    private func restrictionFields(_ selected: Restriction?, t: LanguageStrings) -> TemplateValue {
        .list(
            Restriction.allCases.map {
                .object([
                    "value": .int($0.rawValue), "name": .string(t.string("admin.rules.restriction.\($0.name)")),
                    "selected": .bool($0 == selected),
                ])
            })
    }

    /// A rule with its edit form's fields.
    private func ruleFields(_ rule: UpdateRule, t: LanguageStrings) -> TemplateValue {
        .object([
            "id": .int(rule.id), "platform": .string(rule.platform), "restriction": .int(rule.restriction.rawValue),
            "restrictionName": .string(rule.restriction.name),
            "restrictionLabel": .string(t.string("admin.rules.restriction.\(rule.restriction.name)")),
            "active": .bool(rule.active),
            "app": requirementFields(rule.minimumApp), "os": requirementFields(rule.minimumOS),
            "platforms": Self.options(InterceptionsStore.platforms, selected: rule.platform),
            "system": rule.os.map { .string($0) } ?? .null,
            "systems": Self.options(InterceptionsStore.systems, selected: rule.os),
            "restrictions": restrictionFields(rule.restriction, t: t),
        ])
    }

    typealias PreviewQuery = (platform: String, app: String, os: String, system: String?, language: String)

    /// "app 4.2 on OS 9 → rule #2 (high), message …", or why the versions asked about do not parse.
    private func preview(
        _ asked: PreviewQuery, rules: [UpdateRule], t: LanguageStrings
    )
        -> (preview: TemplateValue, error: TemplateValue)
    {
        let localizer = pages.localizer
        // A blank OS is the usual case on the web (a browser that names no version): its minimums are not checked.
        if let app = Version(asked.app), let os = asked.os.isEmpty ? Version("9999") : Version(asked.os) {
            let client =
                asked.os.isEmpty
                ? t.string("admin.rules.preview.client.noos", [.string(app.text)])
                : t.string("admin.rules.preview.client", [.string(app.text), .string(os.text)])
            if let violation = UpdateCheck.evaluate(
                rules, platform: asked.platform, app: app, os: os, system: asked.system,
                language: asked.language, base: localizer.base)
            {
                let below = violation.kind == .app ? "admin.rules.preview.app" : "admin.rules.preview.os"
                return (
                    .object([
                        "client": .string(client), "rule": .int(violation.rule.id),
                        "restriction": .string(violation.rule.restriction.name),
                        "why": .string(t.string(below, [.string(violation.requirement.version.text)])),
                        "message": .string(violation.message), "none": .null,
                    ]), .null
                )
            } else {
                return (.object(["client": .string(client), "none": .string(t.string("admin.rules.none"))]), .null)
            }
        } else {
            return (.null, .string(t.string("admin.rules.preview.invalid")))
        }
    }

    /// A `<select>`'s options, `selected` marked.
    static func options(_ values: [String], selected: String?) -> TemplateValue {
        .list(values.map { .object(["value": .string($0), "selected": .bool($0 == selected)]) })
    }
}
