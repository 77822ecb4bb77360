import ArcadeStore
import HTTP
import Localization
import Logger
import Synchronization
import Templates

/// Renders pages inside the shared layout, in the visitor's language, with
/// the headers every HTML response carries.
struct Pages: Sendable {
    let templates: TemplateFolder
    let localizer: Localizer
    let version: @Sendable () -> String
    /// Hotfix versions that invalidate cached chrome (strings, constants).
    let versions: @Sendable () -> Int
    /// The language menu for each current language, built once.
    let menus: [String: TemplateValue]
    /// What the footer tells the cheat capture: the actions that start a code, and its longest pause.
    let cheats: (starts: String, pause: Int)
    let compiled = CompiledLibraries()

    final class CompiledLibraries: Sendable {
        let libraries = Mutex<[String: (source: TemplateLibrary, version: Int, library: TemplateLibrary)]>([:])
        let prepared = Mutex<[PreparedKey: (library: TemplateLibrary, layout: PreparedTemplate)]>([:])
    }

    /// What a prepared layout depends on besides the language's library.
    struct PreparedKey: Hashable {
        let language, page, section, theme, title: String
        let retro, shortcutsOff, soundOff: Bool
    }

    init(
        templates: TemplateFolder, localizer: Localizer, version: @escaping @Sendable () -> String,
        versions: @escaping @Sendable () -> Int, cheats: (starts: String, pause: Int)
    ) {
        self.cheats = cheats
        self.templates = templates
        self.localizer = localizer
        self.version = version
        self.versions = versions
        var menus: [String: TemplateValue] = [:]
        for current in localizer.languages { menus[current] = Pages.languageMenu(localizer, current: current) }
        self.menus = menus
    }

    static let contentSecurityPolicy =
        "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        + "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

    /// `t.some.key` in a template: the localized string, formatted with the tag's arguments.
    func strings(_ language: String) -> TemplateValue {
        let strings = localizer.strings(for: language)
        return .function(
            TemplateFunction(
                { key, arguments in
                    .string(strings.string(key, arguments.isEmpty ? [] : arguments.map(Pages.formatArgument)))
                },
                bind: { key in
                    let bound = strings.bound(key)
                    return { arguments in .string(bound(arguments.map(Pages.formatArgument))) }
                }))
    }

    /// `num.count x`, `num.percent x`, `num.decimal x` in a template: a bare figure written as the language writes
    /// numbers (grouping, decimal comma, the space before `%`), so no template glues a `%` or a `.` of its own.
    static func numbers(_ language: String) -> TemplateValue {
        let format = NumberFormat.of(language)
        @Sendable func write(_ kind: String, _ value: TemplateValue) -> TemplateValue {
            let number: Double? =
                switch value {
                case .int(let i): Double(i)
                case .double(let d): d
                case .string(let s): Double(s)
                default: nil
                }
            guard let number else { return value }  // "–" and the like pass through
            switch kind {
            case "percent": return .string(format.percent(Int(number.rounded())))
            case "decimal": return .string(format.decimal(number))
            default: return .string(format.integer(Int(number.rounded())))
            }
        }
        return .function(
            TemplateFunction(
                { kind, arguments in arguments.first.map { write(kind, $0) } ?? .null },
                bind: { kind in { arguments in arguments.first.map { write(kind, $0) } ?? .null } }))
    }

    /// The templates compiled for one language (its strings, menu and the site version folded in), rebuilt when the
    /// templates (in --dev) or a hotfix change.
    func library(_ language: String) throws -> TemplateLibrary {
        let source = try templates.library()
        let version = versions()
        if let hit = compiled.libraries.withLock({ $0[language] }), hit.source === source, hit.version == version {
            return hit.library
        }
        let library = source.compiled(constants: [
            "t": strings(language), "num": Pages.numbers(language), "lang": .string(language),
            // Between two sentences a template joins: a space, none in Japanese (a Japanese reader saw "不正解。 選んだ").
            "gap": .string(language == "ja" ? "" : " "),
            "languageMenu": menus[language] ?? menus[localizer.base] ?? .list([]),
            "siteVersion": .string(self.version()), "cheatStarts": .string(cheats.starts),
            "cheatPause": .int(cheats.pause),
        ])
        compiled.libraries.withLock { $0[language] = (source, version, library) }
        return library
    }

    static func formatArgument(_ value: TemplateValue) -> FormatArgument {
        switch value {
        case .int(let i): .int(i)
        case .double(let d): .double(d)
        case .bool(let b): .int(b ? 1 : 0)
        case .string(let s): .string(s)
        case .list(let l): .int(l.count)
        default: .string("")
        }
    }

    /// The language menu: each language in its own name. The links are
    /// relative (`?lang=fr`), so they switch the language of the page at hand.
    static func languageMenu(_ localizer: Localizer, current: String) -> TemplateValue {
        .list(
            localizer.languages.map { code in
                .object([
                    "code": .string(code), "name": .string(localizer.string("language.name.\(code)", language: code)),
                    "href": .string("?lang=" + URI.encode(code)), "current": .bool(code == current),
                ])
            })
    }

    /// The theme chooser's options for a language, the visitor's theme and whether retro is unlocked (built when a
    /// layout is prepared, which every page's is once).
    func themes(language: String, look: PageLook) -> TemplateValue {
        let retro = look.retroUnlocked || look.theme == "crt"
        let t = localizer.strings(for: language)
        return .list(
            ([""] + PageLook.choices + (retro ? ["crt"] : [])).map { name in
                [
                    "value": .string(name), "selected": .bool(name == look.theme),
                    "label": .string(t.string("theme.\(name.isEmpty ? "system" : name)")),
                ]
            })
    }

    /// A page in the layout. What every request for this page shares (its title, section, theme and `shared` data,
    /// which must depend only on the page and the language) is compiled into the layout once; each request renders
    /// only its own part (`data`, the CSRF token, the path, the update banner).
    func render(
        _ page: String, status: Status = .ok, title: String, language: String, csrf: String,
        look: PageLook = PageLook(), path: String, section: String = "",
        shared: @autoclosure () -> TemplateFields = [:], data: consuming TemplateFields = [:],
        cookies: [SetCookie] = []
    ) -> Response {
        // The page's own fields win over these (as a merge into them would have it); taken over, not copied.
        var context = consume data
        context.reserveCapacity(context.count + Pages.chromeFields)
        context.add("csrf", ifAbsent: .string(csrf))
        context.add("path", ifAbsent: .string(path))
        if status == .ok, let banner = look.banner { context["updateBanner"] = banner }
        if status == .ok, let flash = look.flash { context["flash"] = .string(flash) }
        var body: [UInt8] = []
        body.reserveCapacity(8192)
        do {
            try prepared(page, title: title, language: language, section: section, look: look, shared: shared)
                .render(.object(context), into: &body)
        } catch {
            // Only in --dev: show the template error rather than a blank page.
            Log.error("\(error)")
            return Pages.withLanguage(
                Response.text("Template error: \(error)\n", status: .internalServerError), language: language)
        }
        var headers = HTTPHeaders()
        // Room for what the site adds on the way out (the security headers' block), so the head grows once.
        headers.reserveCapacity(bytes: 1024, fields: 16)
        headers.append("Content-Type", "text/html; charset=utf-8")
        headers.append("Content-Language", language)
        var response = Response(status: status, headers: headers, body: .bytes(body))
        for cookie in cookies { response.setCookie(cookie) }
        return response
    }

    /// A page for `visitor`: in their language, with their CSRF token.
    func render(
        _ page: String, status: Status = .ok, title: String, for visitor: Visitor, path: String,
        section: String = "", shared: @autoclosure () -> TemplateFields = [:], data: consuming TemplateFields = [:]
    ) -> Response {
        render(
            page, status: status, title: title, language: visitor.language, csrf: visitor.csrfToken,
            look: visitor.look, path: path, section: section, shared: shared(), data: consume data)
    }

    /// A part of a page for `visitor` (for a script that updates the page in place).
    func fragment(_ name: String, status: Status = .ok, for visitor: Visitor, data: TemplateFields) -> Response {
        fragment(name, status: status, language: visitor.language, csrf: visitor.csrfToken, data: data)
    }

    /// The layout prepared for one page, title, section and look in one language; rebuilt with the language's library.
    private func prepared(
        _ page: String, title: String, language: String, section: String, look: PageLook,
        shared: () -> TemplateFields
    ) throws -> PreparedTemplate {
        let library = try library(language)
        let key = PreparedKey(
            language: language, page: page, section: section, theme: look.theme, title: title,
            retro: look.retroUnlocked, shortcutsOff: look.shortcutsOff, soundOff: look.soundOff)
        if let hit = compiled.prepared.withLock({ $0[key] }), hit.library === library { return hit.layout }
        var known: TemplateFields = [
            "page": .string(page), "title": .string(title), "section": .object([section: true]),
            "themes": themes(language: language, look: look), "theme": .string(look.theme),
            "shortcutsOff": .bool(look.shortcutsOff), "soundOff": .bool(look.soundOff),
        ]
        known.merge(navigation(language: language, section: section))
        known.merge(shared())
        guard let layout = library.prepared("layout", shared: known) else {
            throw StartupError.missing(file: "layout.mustache")
        }
        compiled.prepared.withLock { cache in
            // Titles are few (each page's, each error's); the bound only guards against a page that puts data in one.
            if cache.count >= Pages.preparedLimit { cache.removeAll() }
            cache[key] = (library, layout)
        }
        return layout
    }

    static let preparedLimit = 1_000
    /// How many fields `render` may add to a page's own (csrf, path, the update banner, a flash).
    static let chromeFields = 4

    /// The chrome's links (the header's `nav`, the footer's `footerNav`), each marked current in its own section, for
    /// the `nav-link` partial.
    func navigation(language: String, section: String) -> TemplateFields {
        func links(_ items: [(section: String, href: String, label: String)]) -> TemplateValue {
            .list(
                items.map { item in
                    [
                        "href": .string(item.href), "current": .bool(item.section == section),
                        "label": .string(localizer.string(item.label, language: language)),
                    ]
                })
        }
        return [
            "nav": links([
                ("home", "/", "nav.home"), ("mastermind", "/mastermind", "mastermind.title"),
                ("namegame", "/namegame", "namegame.title"), ("progress", "/progress", "progress.title"),
            ]),
            "footerNav": links([("cheats", "/cheats", "cheats.title")]),
        ]
    }

    /// A partial's bytes, with the language's strings (for a part placed into a page).
    func partial(_ name: String, language: String, csrf: String, data: TemplateFields) -> [UInt8] {
        var context: TemplateFields = ["csrf": .string(csrf)]
        context.merge(data)
        var out: [UInt8] = []
        (try? library(language))?.render(name, .object(context), into: &out)
        return out
    }

    /// A part of a page (for a script that updates the page in place).
    /// A part rendered ahead, for data that changes far less often than it is shown (the home page's panels): a
    /// page puts it in with a triple mustache, as it was escaped here.
    func html(_ name: String, language: String, data: TemplateFields) throws -> String {
        var body: [UInt8] = []
        guard try library(language).render(name, .object(data), into: &body) else {
            throw StartupError.missing(file: name + ".mustache")
        }
        return String(decoding: body, as: UTF8.self)
    }

    func fragment(
        _ name: String, status: Status = .ok, language: String, csrf: String,
        data: TemplateFields
    ) -> Response {
        var context: TemplateFields = ["csrf": .string(csrf)]
        context.merge(data)
        var body: [UInt8] = []
        do {
            try library(language).render(name, .object(context), into: &body)
        } catch {
            Log.error("\(error)")
            return Pages.withLanguage(
                Response.text("Template error: \(error)\n", status: .internalServerError), language: language)
        }
        return Pages.withLanguage(
            Response(status: status, contentType: "text/html; charset=utf-8", body: body), language: language)
    }

    /// A page's own headers: its language (the security headers come from `SecurityHeaders`).
    static func withLanguage(_ response: Response, language: String) -> Response {
        var response = response
        response.headers.set("Content-Language", language)
        return response
    }

    /// A localized error page in the layout.
    /// `retry`: the page is closed for now (maintenance), so it offers to try this path again instead of links that
    /// would meet the same closed door.
    /// `everyLanguage`: a request refused before its headers were read has no language; the page then says it in
    /// each shipped one too (native readers met a German-less 400).
    func error(
        _ status: Status, language: String, csrf: String, look: PageLook = PageLook(), path: String,
        cookies: [SetCookie] = [], message: String = "", retry: String? = nil, everyLanguage: Bool = false
    ) -> Response {
        let family =
            localizer.rawString("error.\(status.code).name", language: language) != nil
            ? status.code
            : (status.code >= 500 ? 500 : 400)
        let name = localizer.string("error.\(family).name", language: language)
        let others: [TemplateValue] =
            everyLanguage
            ? localizer.languages.filter { $0 != language }.map { other in
                [
                    "language": .string(other),
                    "name": .string(localizer.string("error.\(family).name", language: other)),
                    "message": .string(localizer.string("error.\(family).message", language: other)),
                ]
            } : []
        return render(
            "error", status: status,
            title: localizer.string("error.title", language: language, [.int(status.code), .string(name)]),
            language: language, csrf: csrf, look: look, path: path, section: retry == nil ? "" : "closed",
            data: [
                "status": .int(status.code), "name": .string(name), "retry": retry.map { .string($0) } ?? .null,
                "others": .list(others), "hasOthers": .bool(!others.isEmpty),
                "message": .string(
                    message.isEmpty ? localizer.string("error.\(family).message", language: language) : message),
            ],
            cookies: cookies)
    }
}
