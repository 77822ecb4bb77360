import ArcadeStore
import HTTP
import Interceptions
import Localization
import Templates

extension AdminController {
    func addHotfixesRoutes(to routes: AdminRoutes) {
        routes.pages.get("/admin/hotfixes", use: hotfixList)
        routes.actions.post("/admin/hotfixes", use: saveHotfix)
        routes.actions.post("/admin/constants", use: saveConstant)
        routes.actions.post("/admin/hotfixes/revert", use: revertHotfix)
    }

    func hotfixList(_ request: Request, _ context: AdminContext) throws -> Response {
        try hotfixPage(request, context.visitor, status: .ok, message: nil)
    }

    func saveHotfix(_ request: Request, _ context: AdminContext) throws -> Response {
        let visitor = context.visitor
        let admin = context.admin
        let form = request.form ?? FormFields()
        let key = form["key"] ?? ""
        let language = form["language"] ?? StringOverlay.allLanguages
        let value = form["remove"] != nil ? nil : (form["value"] ?? "")
        // Every language at once replaces what each shows: checked, then listed for a confirmation first.
        if language == StringOverlay.allLanguages, form["confirm"] != "1" {
            if let refusal = hotfixes.check(key, language: language, value: value) {
                return try hotfixPage(
                    request, visitor, status: .unprocessableContent, message: describe(refusal, visitor.language))
            }
            return allLanguagesConfirmation(visitor, key: key, value: value, form: form)
        }
        let t = pages.localizer.strings(for: visitor.language)
        switch try hotfixes.set(key, language: language, to: value, by: admin.name) {
        case .success:
            let label = language == StringOverlay.allLanguages ? t.string("admin.hotfix.all") : language
            return Flash.redirect(
                "/admin/hotfixes?q=\(URI.encode(key))",
                t.string(value == nil ? "admin.hotfix.removed" : "admin.hotfix.saved", [.string(key), .string(label)]))
        case .failure(let refusal):
            return try hotfixPage(
                request, visitor, status: .unprocessableContent, message: describe(refusal, visitor.language))
        }
    }

    func saveConstant(_ request: Request, _ context: AdminContext) throws -> Response {
        let visitor = context.visitor
        let admin = context.admin
        let form = request.form ?? FormFields()
        let key = form["key"] ?? ""
        switch try hotfixes.setConstant(key, to: form["remove"] != nil ? nil : (form["value"] ?? ""), by: admin.name) {
        case .success:
            return Flash.redirect(
                "/admin/hotfixes?q=\(URI.encode(key))",
                pages.localizer.string("admin.hotfix.constant.saved", language: visitor.language, [.string(key)]))
        case .failure(let refusal):
            return try hotfixPage(
                request, visitor, status: .unprocessableContent, message: describe(refusal, visitor.language))
        }
    }

    func revertHotfix(_ request: Request, _ context: AdminContext) throws -> Response {
        let visitor = context.visitor
        let admin = context.admin
        guard let id = request.form?["change"].flatMap({ Int($0) }),
            let result = try hotfixes.revert(id, by: admin.name)
        else {
            return try hotfixPage(
                request, visitor, status: .unprocessableContent,
                message: pages.localizer.string("admin.hotfix.unknown", language: visitor.language))
        }
        if case .failure(let refusal) = result {
            return try hotfixPage(
                request, visitor, status: .unprocessableContent, message: describe(refusal, visitor.language))
        }
        return Flash.redirect(
            "/admin/hotfixes?q=\(URI.encode(request.form?["key"] ?? ""))",
            pages.localizer.string("admin.reverted", language: visitor.language))
    }

    /// Search first: keys matching the query (or, with none, the keys that have hotfixes), each with a row per
    /// language (the text it ships, its hotfix, a form that changes that language only), a separate "all languages"
    /// form, and the key's history with revert.
    /// A key's changes, newest first, each revertable (an import's changes linked to it).
    private func historyContext(_ key: String) -> [TemplateValue] {
        ((try? hotfixes.history(key)) ?? []).map { change in
            .object([
                "id": .int(change.id), "language": .string(change.language), "before": .string(change.before ?? "–"),
                "after": .string(change.after ?? "–"), "admin": .string(change.admin),
                "at": .string(UTCTime.format(change.at)), "batch": change.batch.map { .int($0) } ?? .null,
            ])
        }
    }

    func hotfixPage(_ request: Request, _ visitor: Visitor, status: Status, message: String?) throws -> Response {
        let localizer = pages.localizer
        let t = localizer.strings(for: visitor.language)
        let query = (request.query["q"] ?? request.form?["key"] ?? "").lowercased()
        // A query longer than every key matches none, so the search never grows with it.
        let searchable = query.utf8.count <= FieldLimits.site.limit(for: "q")
        let all = localizer.overlay.values(for: StringOverlay.allLanguages)
        let hotfixed = Set(
            ([StringOverlay.allLanguages] + localizer.languages).flatMap { localizer.overlay.values(for: $0).keys })
        let keys = (localizer.table(localizer.base).keys.sorted() + localizer.pluralFormKeys)
            .filter { query.isEmpty ? hotfixed.contains($0) : (searchable && $0.lowercased().contains(query)) }
        let shown = 20
        let rows: [TemplateValue] = keys.prefix(shown).map { key in
            let base =
                localizer.ownString(key, language: localizer.base) ?? localizer.shippedForm(
                    key, language: localizer.base) ?? ""
            let languages: [TemplateValue] = localizer.languages.map { language in
                let own =
                    localizer.ownString(key, language: language)
                    ?? (key.contains("#") ? localizer.shippedForm(key, language: language) : nil)
                let hotfix = localizer.overlay.values(for: language)[key]
                return .object([
                    "language": .string(language), "shipped": .string(own ?? base), "fallback": .bool(own == nil),
                    "hotfix": hotfix.map { .string($0) } ?? .null, "fromAll": all[key].map { .string($0) } ?? .null,
                    "value": .string(hotfix ?? all[key] ?? own ?? base),
                ])
            }
            let history = key == query ? historyContext(key) : []
            return .object([
                "key": .string(key), "base": .string(base), "languages": .list(languages),
                "all": all[key].map { .string($0) } ?? .null,
                "history": .list(history), "hasHistory": .bool(!history.isEmpty),
            ])
        }
        let constantRows = query.isEmpty || !searchable ? [] : constantRows(matching: query)
        let found = query.isEmpty ? "" : t.string("admin.hotfix.found", [.int(keys.count + constantRows.count)])
        return pages.render(
            "admin-hotfixes", status: status, title: t.string("admin.hotfix.title"),
            for: visitor, path: "/admin/hotfixes", section: "admin",
            data: [
                "rows": .list(rows), "query": .string(query), "searched": .bool(!query.isEmpty),
                "found": .string(found), "constants": .list(constantRows),
                "nothing": .bool(!query.isEmpty && rows.isEmpty && constantRows.isEmpty),
                "message": message.map { .string($0) } ?? .null, "more": .bool(keys.count > shown),
            ])
    }

    /// The site constants whose keys contain `query`, each with its type, shipped value, hotfix and history.
    private func constantRows(matching query: String) -> [TemplateValue] {
        let constants = hotfixes.constants
        return constants.base.keys.sorted().filter { $0.lowercased().contains(query) }.compactMap { key in
            guard let base = constants.base[key] else { return nil }
            let current = constants.hotfixValues.first { $0.0 == key }.map { AdminHotfixes.text($0.1) }
            let history = key.lowercased() == query ? historyContext(key) : []
            return .object([
                "key": .string(key), "type": .string(base.typeName), "base": .string(AdminHotfixes.text(base)),
                "current": current.map { .string($0) } ?? .null, "history": .list(history),
                "hasHistory": .bool(!history.isEmpty),
            ])
        }
    }

    /// "Set for every language?": what each language shows now and what it will show (a language with its own hotfix
    /// keeps it), and the same form again with `confirm`.
    func allLanguagesConfirmation(_ visitor: Visitor, key: String, value: String?, form: FormFields) -> Response {
        let localizer = pages.localizer
        let t = localizer.strings(for: visitor.language)
        let items: [TemplateValue] = localizer.languages.map { language in
            let own = localizer.overlay.values(for: language)[key]
            let now =
                localizer.rawString(key, language: language) ?? localizer.shippedForm(key, language: language) ?? ""
            let after =
                own ?? value ?? localizer.ownString(key, language: language) ?? localizer.ownString(
                    key, language: localizer.base) ?? now
            return .object([
                "language": .string(language), "before": .string(now), "after": .string(after),
                "keeps": .bool(own != nil),
            ])
        }
        let fields: [TemplateValue] = form.pairs.filter { $0.0 != "csrf" && $0.0 != "confirm" }.map { name, value in
            .object(["name": .string(name), "value": .string(value)])
        }
        return pages.render(
            "admin-confirm", title: t.string("admin.confirm.title"), for: visitor, path: "/admin/hotfixes",
            section: "admin",
            data: [
                "action": "/admin/hotfixes", "back": .string("/admin/hotfixes?q=" + URI.encode(key)),
                "fields": .list(fields), "items": .list(items), "hasItems": true,
                "question": .string(
                    t.string(
                        value == nil ? "admin.hotfix.all.confirm.remove" : "admin.hotfix.all.confirm",
                        [.string(key)])),
                "confirm": .string(t.string("admin.hotfix.all.set")),
            ])
    }

    func describe(_ refusal: AdminHotfixes.Refusal, _ language: String) -> String {
        AdminHotfixes.describe(refusal, pages.localizer.strings(for: language))
    }
}
