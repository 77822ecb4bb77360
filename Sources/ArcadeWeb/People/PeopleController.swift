import ArcadeStore
import Files
import HTTP
import HTTPServer
import Localization
import NameGame
import Templates

/// Admin → People (`/admin/people`): list and search, add, edit, retire and delete people, photos uploaded with them;
/// import a WillowTree JSON file or a CSV with its photos, previewed before anything changes. And `/photos/NAME`, where
/// uploaded photos are served to players.
struct PeopleController: Sendable {
    let store: PeopleStore
    let pages: Pages

    func addRoutes(to routes: AdminRoutes) {
        routes.pages.get("/admin/people", use: list)
        routes.uploads.post("/admin/people", use: add)
        routes.uploads.post("/admin/people/import", use: importFile)
        routes.actions.post("/admin/people/import/confirm", use: confirmImport)
        routes.actions.post("/admin/people/import/cancel", use: cancelImport)
        routes.actions.post("/admin/people/demo/remove", use: removeDemo)
        routes.pages.get("/admin/people/:id", use: person)
        routes.uploads.post("/admin/people/:id", use: update)
        routes.actions.post("/admin/people/:id/retire", use: retire)
        routes.actions.post("/admin/people/:id/delete", use: delete)
    }

    func addPhotoRoute(to files: RouterGroup<RequestContext>) {
        files.get("/photos/:name", use: photo)
    }

    func photo(_ request: Request, _ context: RequestContext) throws -> Response {
        guard let photo = store.photos.photo(try request.parameter("name")) else { throw HTTPError(.notFound, "") }
        var response = Response(contentType: photo.type.mediaType, body: photo.bytes)
        response.headers.set("Cache-Control", "public, max-age=31536000, immutable")
        response.headers.set("X-Content-Type-Options", "nosniff")
        // An SVG headshot opened on its own runs nothing and reaches nothing.
        response.headers.set("Content-Security-Policy", StaticFiles.sandbox)
        return response
    }

    func list(_ request: Request, _ context: AdminContext) throws -> Response {
        listPage(request, context.visitor, status: .ok, message: nil)
    }

    func add(_ request: Request, _ context: UploadContext) throws -> Response {
        let visitor = context.visitor
        let admin = context.admin
        let upload = context.upload
        guard
            let fields = PeopleStore.Fields(
                first: upload["first"] ?? "", last: upload["last"] ?? "",
                title: upload["title"], appearance: upload["appearance"])
        else {
            return listPage(request, visitor, status: .unprocessableContent, message: "people.error.name")
        }
        guard let file = upload.files("photo").first else {
            return listPage(request, visitor, status: .unprocessableContent, message: "people.error.nophoto")
        }
        switch store.photos.save(file.body) {
        case .success(let photo):
            let person = try store.add(fields, photo: photo, by: admin.name)
            return .redirect(to: "/admin/people?added=\(URI.encode(person.id))")
        case .failure(let refusal):
            return listPage(request, visitor, status: .unprocessableContent, message: Self.key(refusal))
        }
    }

    func importFile(_ request: Request, _ context: UploadContext) throws -> Response {
        let visitor = context.visitor
        let admin = context.admin
        let upload = context.upload
        guard let file = upload.files("file").first, !file.body.isEmpty else {
            return listPage(request, visitor, status: .unprocessableContent, message: "people.import.error.nofile")
        }
        do {
            let plan = try ImportPlan.make(
                file: file, photos: upload.files("photos"), existing: store.directory,
                library: store.photos)
            let id = try store.stage(plan, by: admin.name)
            return previewPage(plan, id: id, visitor)
        } catch let refusal as ImportPlan.Refusal {
            let t = pages.localizer.strings(for: visitor.language)
            return listPage(
                request, visitor, status: .unprocessableContent,
                message: nil, text: t.string(refusal.key, [.string(refusal.argument)]))
        }
    }

    func confirmImport(_ request: Request, _ context: AdminContext) throws -> Response {
        let visitor = context.visitor
        let admin = context.admin
        guard let id = request.form?["import"], let plan = try store.confirm(id, by: admin.name) else {
            return listPage(request, visitor, status: .unprocessableContent, message: "people.import.error.gone")
        }
        return .redirect(to: "/admin/people?imported=\(plan.count(.add) + plan.count(.change))")
    }

    func cancelImport(_ request: Request, _ context: AdminContext) throws -> Response {
        if let id = request.form?["import"] { try store.cancel(id) }
        return .redirect(to: "/admin/people")
    }

    /// The bundled fictional people, gone in one confirmed step (a company starts its own directory).
    func removeDemo(_ request: Request, _ context: AdminContext) throws -> Response {
        guard request.form?["confirm"] == "on" else {
            return listPage(request, context.visitor, status: .unprocessableContent, message: "people.error.confirm")
        }
        _ = try store.deleteDemo(by: context.admin.name)
        return .redirect(to: "/admin/people?demoremoved=1")
    }

    func person(_ request: Request, _ context: AdminContext) throws -> Response {
        let visitor = context.visitor
        guard let person = store.directory.person(try request.parameter("id")) else {
            throw PageError(.notFound)
        }
        return personPage(person, visitor, status: .ok, message: nil)
    }

    func update(_ request: Request, _ context: UploadContext) throws -> Response {
        let visitor = context.visitor
        let admin = context.admin
        let upload = context.upload
        guard let person = store.directory.person(try request.parameter("id")) else {
            throw PageError(.notFound)
        }
        guard
            let fields = PeopleStore.Fields(
                first: upload["first"] ?? "", last: upload["last"] ?? "",
                title: upload["title"], appearance: upload["appearance"])
        else {
            return personPage(person, visitor, status: .unprocessableContent, message: "people.error.name")
        }
        var photo: String?
        if let file = upload.files("photo").first {
            switch store.photos.save(file.body) {
            case .success(let path): photo = path
            case .failure(let refusal):
                return personPage(person, visitor, status: .unprocessableContent, message: Self.key(refusal))
            }
        }
        _ = try store.update(person.id, fields, photo: photo, by: admin.name)
        return .redirect(to: "/admin/people/\(URI.encode(person.id))?saved=1")
    }

    func retire(_ request: Request, _ context: AdminContext) throws -> Response {
        let admin = context.admin
        let id = try request.parameter("id")
        guard try store.setRetired(id, request.form?["retired"] == "1", by: admin.name) else {
            throw PageError(.notFound)
        }
        return .redirect(to: "/admin/people/\(URI.encode(id))?saved=1")
    }

    func delete(_ request: Request, _ context: AdminContext) throws -> Response {
        let visitor = context.visitor
        let admin = context.admin
        guard let person = store.directory.person(try request.parameter("id")) else {
            throw PageError(.notFound)
        }
        guard request.form?["confirm"] == "on" else {
            return personPage(person, visitor, status: .unprocessableContent, message: "people.error.confirm")
        }
        _ = try store.delete(person.id, by: admin.name)
        return .redirect(to: "/admin/people?deleted=1")
    }

    static func key(_ refusal: PhotoLibrary.Refusal) -> String {
        switch refusal {
        case .empty: "people.error.nophoto"
        case .tooLarge: "people.error.toolarge"
        case .notAnImage: "people.error.notimage"
        case .unsaved: "people.error.unsaved"
        }
    }

    static func row(_ person: Person, _ t: LanguageStrings) -> TemplateValue {
        .object([
            "id": .string(person.id), "name": .string(person.fullName), "first": .string(person.firstName),
            "last": .string(person.lastName), "title": .string(person.jobTitle ?? ""),
            "photo": .string(person.headshotURL), "appearance": .string(person.appearance ?? ""),
            "retired": .bool(person.retired), "href": .string("/admin/people/\(URI.encode(person.id))"),
            "alt": .string(t.string("people.photo.alt", [.string(person.fullName)])),
        ])
    }

    private func listPage(
        _ request: Request, _ visitor: Visitor, status: Status, message: String?,
        text: String? = nil
    ) -> Response {
        let t = pages.localizer.strings(for: visitor.language)
        let query = (request.query["q"] ?? "").trimmingSpaces
        let needle = query.lowercased()
        let everyone = store.directory.people
        // A query longer than any name matches none: the search never grows with it.
        let matches =
            needle.isEmpty
            ? everyone
            : needle.count > 200
                ? []
                : everyone.filter {
                    $0.fullName.lowercased().contains(needle) || ($0.jobTitle ?? "").lowercased().contains(needle)
                }
        var notice: String?
        if let count = request.query["imported"].flatMap({ Int($0) }) {
            notice = t.string("people.imported", [.int(count)])
        }
        if request.query["added"] != nil { notice = t.string("people.added") }
        if request.query["deleted"] != nil { notice = t.string("people.deleted") }
        if request.query["demoremoved"] != nil { notice = t.string("people.demo.removed") }
        return pages.render(
            "admin-people", status: status, title: t.string("people.title"), for: visitor, path: "/admin/people",
            section: "admin",
            data: [
                "people": .list(matches.prefix(500).map { Self.row($0, t) }), "query": .string(query),
                "count": .string(t.string("people.count", [.int(matches.count), .int(everyone.count)])),
                "none": .bool(matches.isEmpty), "notice": notice.map { .string($0) } ?? .null,
                "message": (text ?? message.map { t.string($0) }).map { .string($0) } ?? .null,
                "maxPhoto": .string(t.string("people.photo.help")),
                "demo": .bool(everyone.contains(where: PeopleStore.isDemo)),
            ])
    }

    private func personPage(_ person: Person, _ visitor: Visitor, status: Status, message: String?) -> Response {
        let t = pages.localizer.strings(for: visitor.language)
        return pages.render(
            "admin-person", status: status, title: person.fullName, for: visitor, path: "/admin/people",
            section: "admin",
            data: [
                "person": Self.row(person, t), "message": message.map { .string(t.string($0)) } ?? .null,
                "maxPhoto": .string(t.string("people.photo.help")),
            ])
    }

    private func previewPage(_ plan: ImportPlan, id: String, _ visitor: Visitor) -> Response {
        let t = pages.localizer.strings(for: visitor.language)
        func rows(_ action: ImportPlan.Action) -> TemplateValue {
            .list(
                plan.entries.filter { $0.action == action }.map { entry in
                    var row = Self.row(entry.person, t)
                    if case .object(var fields) = row {
                        fields["reason"] =
                            entry.reason.map { .string(t.string($0.key, [.string($0.argument)])) } ?? .null
                        row = .object(fields)
                    }
                    return row
                })
        }
        return pages.render(
            "admin-people-import", title: t.string("people.import.title"), for: visitor, path: "/admin/people",
            section: "admin",
            data: [
                "import": .string(id), "added": rows(.add), "changed": rows(.change), "skipped": rows(.skip),
                "hasAdded": .bool(plan.count(.add) > 0), "hasChanged": .bool(plan.count(.change) > 0),
                "hasSkipped": .bool(plan.count(.skip) > 0),
                "summary": .string(
                    t.string(
                        "people.import.summary",
                        [
                            .int(plan.count(.add)),
                            .int(plan.count(.change)),
                            .int(plan.count(.skip)),
                        ])),
                "nothing": .bool(plan.count(.add) + plan.count(.change) == 0),
            ])
    }
}
