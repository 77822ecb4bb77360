import ArcadeStore
import HTTP
import Localization
import Templates

/// Admin → Strings (`/admin/strings`): the translators' round trip (export each language, import a file with a
/// preview, recent imports with revert) and the missing-translation report.
struct StringsController: Sendable {
    let exchange: StringsExchange
    let pages: Pages

    var localizer: Localizer { pages.localizer }

    func addRoutes(to routes: AdminRoutes) {
        routes.pages.get("/admin/strings", use: stringsList)
        routes.pages.get("/admin/strings/:file", use: download)
        routes.uploads.post("/admin/strings/import", use: importFile)
        routes.actions.post("/admin/strings/import/apply", use: applyImport)
        routes.actions.post("/admin/strings/import/revert", use: revertImport)
    }

    func stringsList(_ request: Request, _ context: AdminContext) throws -> Response {
        try stringsPage(context.visitor, status: .ok, message: nil)
    }

    /// `de.strings`, `de.stringsdict`: a download.
    func download(_ request: Request, _ context: AdminContext) throws -> Response {
        let name = try request.parameter("file")
        guard let dot = name.lastIndex(of: "."),
            let format = StringsExchange.Format(rawValue: String(name[name.index(after: dot)...])),
            let text = exchange.export(String(name[..<dot]), format)
        else {
            throw PageError(.notFound)
        }
        var response = Response(
            status: .ok,
            contentType: format == .strings
                ? "text/plain; charset=utf-8"
                : "application/xml; charset=utf-8",
            body: Array(text.utf8))
        response.headers.set("Content-Disposition", "attachment; filename=\"\(name)\"")
        return response
    }

    func importFile(_ request: Request, _ context: UploadContext) throws -> Response {
        let visitor = context.visitor
        let admin = context.admin
        let upload = context.upload
        let t = localizer.strings(for: visitor.language)
        let language = upload["language"] ?? ""
        guard localizer.languages.contains(language) else {
            return try stringsPage(
                visitor, status: .unprocessableContent, message: t.string("admin.hotfix.language.unknown"))
        }
        guard let file = upload.files("file").first, !file.body.isEmpty else {
            return try stringsPage(
                visitor, status: .unprocessableContent, message: t.string("admin.strings.import.nofile"))
        }
        guard file.body.count <= StringsExchange.maxFileBytes else {
            return try stringsPage(
                visitor, status: .contentTooLarge, message: t.string("admin.strings.import.toolarge"))
        }
        let name = file.filename ?? ""
        let format = StringsExchange.Format(file: name, bytes: file.body)
        do {
            let entries = try exchange.preview(file.body, language: language, format: format, file: name)
            let id = try exchange.stage(file.body, language: language, format: format, file: name, by: admin.name)
            return previewPage(entries, id: id, file: name, language: language, visitor)
        } catch let unreadable as StringsExchange.Unreadable {
            return try stringsPage(
                visitor, status: .unprocessableContent,
                message: t.string("admin.strings.import.unreadable", [.string(unreadable.message)]))
        }
    }

    func applyImport(_ request: Request, _ context: AdminContext) throws -> Response {
        let visitor = context.visitor
        let admin = context.admin
        let t = localizer.strings(for: visitor.language)
        switch try exchange.apply(request.form?["import"].flatMap { Int($0) } ?? 0, by: admin.name) {
        case .applied(let count):
            return Flash.redirect("/admin/strings", t.string("admin.strings.import.applied", [.int(count)]))
        case .alreadyApplied:
            return try stringsPage(visitor, status: .conflict, message: t.string("admin.strings.import.done"))
        case .unknown:
            return try stringsPage(visitor, status: .unprocessableContent, message: t.string("admin.hotfix.unknown"))
        }
    }

    func revertImport(_ request: Request, _ context: AdminContext) throws -> Response {
        let visitor = context.visitor
        let admin = context.admin
        let t = localizer.strings(for: visitor.language)
        guard
            let (reverted, skipped) = try exchange.revert(
                request.form?["import"].flatMap { Int($0) } ?? 0, by: admin.name)
        else {
            return try stringsPage(visitor, status: .unprocessableContent, message: t.string("admin.hotfix.unknown"))
        }
        return Flash.redirect(
            "/admin/strings", t.string("admin.strings.imports.undone", [.int(reverted), .int(skipped)]))
    }

    /// Export links, the import form, recent imports, then per language the keys that fall back to the base language.
    private func stringsPage(_ visitor: Visitor, status: Status, message: String?) throws -> Response {
        let t = localizer.strings(for: visitor.language)
        let keys = localizer.baseKeys
        let everywhere = localizer.overlay.values(for: StringOverlay.allLanguages)
        let missing: [TemplateValue] = localizer.languages.filter { $0 != localizer.base }.map { language in
            let own = localizer.table(language)
            let plurals = localizer.pluralTable(language)
            let hotfixes = localizer.overlay.values(for: language)
            let missing = keys.filter { own[$0] == nil && plurals[$0] == nil }
            return .object([
                "language": .string(language), "count": .int(missing.count),
                "summary": .string(
                    missing.isEmpty
                        ? t.string("admin.strings.complete")
                        : t.string("admin.strings.missing", [.int(missing.count), .int(keys.count)])),
                "keys": .list(
                    missing.map { key in
                        .object([
                            "key": .string(key), "hotfixed": .bool(hotfixes[key] != nil || everywhere[key] != nil),
                        ])
                    }), "hasMissing": .bool(!missing.isEmpty),
            ])
        }
        let languages: [TemplateValue] = localizer.languages.map { language in
            .object([
                "code": .string(language),
                "name": .string(localizer.string("language.name.\(language)", language: language)),
                "selected": .bool(language == visitor.language),
            ])
        }
        let imports: [TemplateValue] = try exchange.recent().map { record in
            .object([
                "id": .int(record.id), "language": .string(record.language), "file": .string(record.file),
                "admin": .string(record.admin), "at": .string(UTCTime.format(record.appliedAt ?? 0)),
                "changes": .int(record.changes ?? 0), "reverted": .bool(record.revertedAt != nil),
            ])
        }
        return pages.render(
            "admin-strings", status: status, title: t.string("admin.strings.title"),
            for: visitor, path: "/admin/strings", section: "admin",
            data: [
                "missingLanguages": .list(missing), "base": .string(localizer.base),
                "languages": .list(languages), "imports": .list(imports),
                "hasImports": .bool(!imports.isEmpty), "message": message.map { .string($0) } ?? .null,
            ])
    }

    /// What the file would change, entry by entry; the unchanged ones only counted.
    private func previewPage(
        _ entries: [StringsExchange.Entry], id: Int, file: String, language: String,
        _ visitor: Visitor
    ) -> Response {
        let t = localizer.strings(for: visitor.language)
        func count(_ status: StringsExchange.Status) -> Int { entries.count { $0.status == status } }
        let rows: [TemplateValue] = entries.filter { $0.status != .unchanged }.map { entry in
            .object([
                "key": .string(entry.key), "status": .string(entry.status.rawValue),
                "statusText": .string(t.string("admin.strings.status.\(entry.status.rawValue)")),
                "current": .string(entry.current ?? "–"), "imported": .string(entry.imported),
                "reason": .string(entry.refusal.map { describe($0, t) } ?? ""),
            ])
        }
        let applicable = count(.new) + count(.changed)
        return pages.render(
            "admin-strings-import", title: t.string("admin.strings.import.title"), for: visitor, path: "/admin/strings",
            section: "admin",
            data: [
                "import": .int(id), "rows": .list(rows), "hasRows": .bool(!rows.isEmpty),
                "heading": .string(t.string("admin.strings.import.heading", [.string(file), .string(language)])),
                "summary": .string(
                    t.string(
                        "admin.strings.import.summary",
                        [
                            .int(count(.new)), .int(count(.changed)),
                            .int(count(.unchanged)),
                            .int(count(.refused)),
                        ])),
                "new": .int(count(.new)), "changed": .int(count(.changed)),
                "unchanged": .int(count(.unchanged)), "refused": .int(count(.refused)),
                "hasRefused": .bool(count(.refused) > 0),
                "apply": .string(t.string("admin.strings.import.apply", [.int(applicable)])),
                "nothing": .bool(applicable == 0),
            ])
    }

    private func describe(_ refusal: StringsExchange.Refusal, _ t: LanguageStrings) -> String {
        switch refusal {
        case .hotfix(let refusal): AdminHotfixes.describe(refusal, t)
        case .formatDiffers: t.string("admin.strings.refused.format")
        case .unknownVariable(let name): t.string("admin.strings.refused.variable", [.string(name)])
        }
    }
}
