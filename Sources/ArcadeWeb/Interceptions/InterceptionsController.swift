import ArcadeStore
import Constants
import Crypto
import HTTP
import Interceptions
import JSON
import Localization
import PropertyList

/// The GTConstants-compatible API for native apps: `/api/interceptions`
/// (hotfixes, update rules, maintenance, with a strong ETag) and
/// `/api/update-check` (which rule, if any, a client version breaks).
struct InterceptionsController: Sendable {
    let store: InterceptionsStore
    let constants: Constants
    let overlay: StringOverlay
    let base: String
    /// The shipped languages, one event channel each.
    let languages: [String]

    /// Served from memory, on the loop; errors are JSON (`ErrorPages` in its JSON form).
    func addRoutes(to api: RouterGroup<RequestContext>) {
        api.get("/api/update-check", use: updateCheck)
        api.get("/api/interceptions", use: interceptions)
        // Live push: the document's ETag now, then each new one (the site's ticker publishes them on change).
        api.get("/api/interceptions/events", use: events)
    }

    static func badRequest(_ message: String) -> Response { JSONAnswer.error(message, status: .badRequest) }

    /// A language tag as a client may send it (`pt-BR`), or nil.
    static func languageTag(_ text: String?) -> String? {
        guard let text, !text.isEmpty, text.count <= 35,
            text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") })
        else { return nil }
        return text
    }

    func updateCheck(_ request: Request, _ context: RequestContext) throws -> Response {
        let query = request.query
        guard let platform = query["platform"], InterceptionsStore.platforms.contains(platform) else {
            return Self.badRequest("platform must be one of \(InterceptionsStore.platforms.joined(separator: ", "))")
        }
        guard let app = query["app_version"].flatMap(Version.init) else {
            return Self.badRequest("app_version must be a version such as 4.2")
        }
        guard let os = query["os_version"].flatMap(Version.init) else {
            return Self.badRequest("os_version must be a version such as 9")
        }
        let language: String
        if let asked = query["lang"] {
            guard let tag = Self.languageTag(asked) else {
                return Self.badRequest("lang must be a language tag such as pt-BR")
            }
            language = tag
        } else {
            language = base
        }
        guard
            let violation = UpdateCheck.evaluate(
                try store.rules(), platform: platform, app: app, os: os, language: language, base: base)
        else {
            return JSONAnswer.make(.object([("update_needed", .bool(false))]))
        }
        return JSONAnswer.make(
            .object([
                ("update_needed", .bool(true)), ("rule", .integer(Int64(violation.rule.id))),
                ("restriction", .integer(Int64(violation.rule.restriction.rawValue))),
                ("restriction_name", .string(violation.rule.restriction.name)),
                ("kind", .string(violation.kind.rawValue)),
                ("minimum_version", .string(violation.requirement.version.text)),
                ("message", .string(violation.message)),
            ]))
    }

    func events(_ request: Request, _ context: RequestContext) throws -> Response {
        let language = channelLanguage(request.query["lang"])
        let (_, etag) = try document(language: language)
        return .eventStream(
            channel: Self.channel(language),
            initial: Array("retry: 2000\n".utf8) + EventChannels.encode(event: "etag", data: etag))
    }

    /// Streams are per shipped language (the document differs by language); any other tag gets the base's.
    private func channelLanguage(_ tag: String?) -> String {
        guard let tag, languages.contains(tag) else { return base }
        return tag
    }

    static func channel(_ language: String) -> String { "interceptions/" + language }

    /// Each shipped language's current ETag on its channel: what the site's ticker calls when something changed.
    func publishETags(to channels: EventChannels) throws {
        for language in languages {
            channels.publish(Self.channel(language), event: "etag", data: try document(language: language).etag)
        }
    }

    func interceptions(_ request: Request, _ context: RequestContext) throws -> Response {
        let (response, etag) = try document(language: Self.languageTag(request.query["lang"]) ?? base)
        if let match = request.headers["If-None-Match"],
            match.split(separator: ",").contains(where: { $0.trimmingOWS == etag || $0.trimmingOWS == "*" })
        {
            var notModified = Response(status: .notModified)
            notModified.headers.append("ETag", etag)
            notModified.headers.append("Cache-Control", "no-cache")
            return notModified
        }
        return response
    }

    /// The interceptions document for a language, and its strong ETag.
    private func document(language: String) throws -> (Response, etag: String) {
        var hotfixes: [(String, JSONValue)] = []
        var strings = overlay.values(for: StringOverlay.allLanguages)
        for (key, value) in overlay.values(for: language) { strings[key] = value }
        for (key, value) in strings.sorted(by: { $0.key < $1.key }) { hotfixes.append((key, .string(value))) }
        // Only constants marked for apps: paths and URLs stay on the server.
        for (key, value) in constants.hotfixValues where constants.schema.rules[key]?.forApps == true {
            hotfixes.append((key, Self.json(value)))
        }
        let rules = try store.rules()
        var update: [(String, JSONValue)] = []
        var maintenance: [(String, JSONValue)] = []
        for platform in InterceptionsStore.platforms {
            update.append(
                (
                    platform,
                    .array(
                        rules.filter { $0.platform == platform }.map(Self.json))
                ))
            let m = try store.maintenance(platform)
            let message = Requirement(version: Version("0")!, messages: m.messages).message(for: language, base: base)
            maintenance.append(
                (
                    platform,
                    .object([
                        ("active", .bool(m.active)), ("message", .string(message)),
                        ("poll_interval", .integer(Int64(m.pollInterval))),
                    ])
                ))
        }
        var response = JSONAnswer.make(
            .object([
                ("hotfixes", .object(hotfixes)), ("update", .object(update)), ("maintenance", .object(maintenance)),
            ]))
        guard case .bytes(let body) = response.body else { return (response, "") }
        // A strong ETag over the exact bytes.
        let etag = "\"" + Base64URL.encode(Array(Crypto.sha256(body).prefix(18))) + "\""
        response.headers.append("ETag", etag)
        return (response, etag)
    }

    /// An update rule as GTConstants reads it.
    static func json(_ rule: UpdateRule) -> JSONValue {
        var members: [(String, JSONValue)] = [
            ("restriction", .integer(Int64(rule.restriction.rawValue))),
            ("active", .bool(rule.active)),
        ]
        // An Arcade extension, for browser rules.
        if let system = rule.os { members.append(("os", .string(system))) }
        // GTConstants drops a rule that lacks either minimum, and reads an empty version as "never older".
        for (key, requirement) in [
            ("min_app_version", rule.minimumApp), ("min_os_version", rule.minimumOS),
        ] {
            let messages = (requirement?.messages ?? [:]).sorted { $0.key < $1.key }.map {
                ($0.key, JSONValue.string($0.value))
            }
            members.append(
                (
                    key,
                    .object([
                        ("version", .string(requirement?.version.text ?? "")),
                        ("message", .object(messages)),
                    ])
                ))
        }
        return .object(members)
    }

    /// Property-list values as JSON: numbers stay numbers.
    static func json(_ value: PropertyListValue) -> JSONValue {
        switch value {
        case .string(let s), .date(let s), .data(let s): .string(s)
        case .integer(let i): .integer(Int64(i))
        case .real(let d): .double(d)
        case .bool(let b): .bool(b)
        case .array(let items): .array(items.map(json))
        case .dictionary(let members): .object(members.map { ($0.0, json($0.1)) })
        }
    }
}
