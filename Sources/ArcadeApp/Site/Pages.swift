import HTTP
import Localization
import Synchronization
import Templates

/// Renders pages inside the shared layout, in the visitor's language, with
/// the headers every HTML response carries.
struct Pages: Sendable {
    let templates: TemplateStore
    let localizer: Localizer
    let version: @Sendable () -> String
    /// Hotfix versions that invalidate cached chrome (strings, constants).
    let versions: @Sendable () -> Int
    /// The language menu for each current language, built once.
    let menus: [String: TemplateValue]
    let chrome = ChromeCache()

    /// The site's header and footer depend only on the language, the section
    /// and the hotfixes, so each is rendered once and reused (never in --dev).
    final class ChromeCache: Sendable {
        let storage = Mutex<[String: (version: Int, html: String)]>([:])
        /// The theme chooser, cut where the CSRF token and the path go.
        let chooser = Mutex<[String: (version: Int, parts: [String])]>([:])
    }

    init(templates: TemplateStore, localizer: Localizer, version: @escaping @Sendable () -> String,
         versions: @escaping @Sendable () -> Int) {
        self.templates = templates
        self.localizer = localizer
        self.version = version
        self.versions = versions
        var menus: [String: TemplateValue] = [:]
        for current in localizer.languages { menus[current] = Pages.languageMenu(localizer, current: current) }
        self.menus = menus
    }

    static let contentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        + "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

    /// `t.some.key` in a template: the localized string, formatted with the tag's arguments.
    func strings(_ language: String) -> TemplateValue {
        let strings = localizer.strings(for: language)
        return .function(TemplateFunction { key, arguments in
            .string(strings.string(key, arguments.isEmpty ? [] : arguments.map(Pages.formatArgument)))
        })
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
        .list(localizer.languages.map { code in
            .object(["code": .string(code), "name": .string(localizer.string("language.name.\(code)", language: code)),
                     "href": .string("?lang=" + URI.encode(code)), "current": .bool(code == current)])
        })
    }

    /// A chrome partial (`site-header`, `site-footer`) for a language and section.
    func chromeHTML(_ partial: String, language: String, section: String, library: TemplateLibrary) -> String {
        let key = partial + "|" + language + "|" + section, version = versions()
        if !templates.dev, let cached = chrome.storage.withLock({ $0[key] }), cached.version == version { return cached.html }
        var out: [UInt8] = []
        library.render(partial, .object(["t": strings(language), "languages": menus[language] ?? .list([]),
                                         "version": .string(self.version()), "section": .object([section: true])]), into: &out)
        let html = String(decoding: out, as: UTF8.self)
        chrome.storage.withLock { $0[key] = (version, html) }
        return html
    }

    /// The theme chooser on every page: rendered once per language, theme and retro flag, then only the CSRF token
    /// and the page's path go in (it is on every page, so it must cost no template work).
    func themeChooser(language: String, look: PageLook, csrf: String, back: String) -> String {
        let retro = look.retroUnlocked || look.theme == "crt"
        let key = "theme-chooser|" + language + "|" + look.theme + (retro ? "|retro" : "")
        let version = versions()
        var parts: [String]
        if !templates.dev, let cached = chrome.chooser.withLock({ $0[key] }), cached.version == version {
            parts = cached.parts
        } else {
            let offered = [""] + PageLook.choices + (retro ? ["crt"] : [])
            let themes: [TemplateValue] = offered.map { name in
                .object(["value": .string(name), "selected": .bool(name == look.theme),
                         "label": .string(localizer.string("theme.\(name.isEmpty ? "system" : name)", language: language))])
            }
            let html = String(decoding: partial("theme-chooser", language: language, csrf: "\u{1}",
                                                data: ["themes": .list(themes), "back": .string("\u{1}")]), as: UTF8.self)
            parts = html.split(separator: "\u{1}", omittingEmptySubsequences: false).map(String.init)
            chrome.chooser.withLock { [parts] in $0[key] = (version, parts) }
        }
        guard parts.count == 3 else { return "" }
        return parts[0] + HTMLEscaper.escape(csrf) + parts[1] + HTMLEscaper.escape(back) + parts[2]
    }

    func render(_ page: String, status: Status = .ok, title: String, language: String, csrf: String, path: String,
                section: String = "", data: [String: TemplateValue] = [:], cookies: [SetCookie] = []) -> Response {
        var context: [String: TemplateValue] = [
            "page": .string(page), "title": .string(title), "lang": .string(language), "csrf": .string(csrf),
            "t": strings(language),
        ]
        for (key, value) in data { context[key] = value }
        let look = PageLook.current
        if !look.theme.isEmpty { context["theme"] = .string(look.theme) }
        context["themeChooser"] = .string(themeChooser(language: language, look: look, csrf: csrf, back: path))
        if status == .ok, let banner = look.banner { context["updateBanner"] = banner }
        var body: [UInt8] = []
        body.reserveCapacity(8192)
        do {
            let library = try templates.library()
            context["chrome"] = .object(["header": .string(chromeHTML("site-header", language: language, section: section, library: library)),
                                         "footer": .string(chromeHTML("site-footer", language: language, section: section, library: library))])
            library.render("layout", .object(context), into: &body)
        } catch {
            // Only in --dev: show the template error rather than a blank page.
            Log.error("\(error)")
            return Pages.secure(Response.text("Template error: \(error)\n", status: .internalServerError), language: language)
        }
        var response = Response(status: status, contentType: "text/html; charset=utf-8", body: body)
        for cookie in cookies { response.setCookie(cookie) }
        return Pages.secure(response, language: language)
    }

    /// A partial's bytes, with the language's strings (for a part placed into a page).
    func partial(_ name: String, language: String, csrf: String, data: [String: TemplateValue]) -> [UInt8] {
        var context: [String: TemplateValue] = ["t": strings(language), "lang": .string(language), "csrf": .string(csrf)]
        for (key, value) in data { context[key] = value }
        var out: [UInt8] = []
        (try? templates.library())?.render(name, .object(context), into: &out)
        return out
    }

    /// A part of a page (for a script that updates the page in place).
    func fragment(_ name: String, status: Status = .ok, language: String, csrf: String,
                  data: [String: TemplateValue]) -> Response {
        var context: [String: TemplateValue] = ["t": strings(language), "lang": .string(language), "csrf": .string(csrf)]
        for (key, value) in data { context[key] = value }
        var body: [UInt8] = []
        do {
            try templates.library().render(name, .object(context), into: &body)
        } catch {
            Log.error("\(error)")
            return Pages.secure(Response.text("Template error: \(error)\n", status: .internalServerError), language: language)
        }
        return Pages.secure(Response(status: status, contentType: "text/html; charset=utf-8", body: body), language: language)
    }

    /// The headers every HTML response carries.
    static func secure(_ response: Response, language: String) -> Response {
        var response = response
        for (name, value) in [("Content-Security-Policy", contentSecurityPolicy), ("X-Content-Type-Options", "nosniff"),
                              ("Referrer-Policy", "same-origin"), ("X-Frame-Options", "DENY"), ("Content-Language", language),
                              ("Vary", "Accept-Language, Cookie"), ("Cache-Control", "private, no-cache")] {
            // Appending is enough on a fresh page; replace only what a handler set.
            if response.headers.contains(name) { response.headers.set(name, value) } else { response.headers.append(name, value) }
        }
        return response
    }

    /// A localized error page in the layout.
    /// A localized 422 naming the first form field longer than the site allows, or nil.
    func fieldTooLong(_ request: Request, _ visitor: Visitor) -> Response? {
        guard let form = request.form, let over = FieldLimits.site.firstViolation(in: form) else { return nil }
        return error(.unprocessableContent, language: visitor.language, csrf: visitor.csrfToken, path: "/",
                     message: localizer.string("error.field.long", language: visitor.language, [.string(over.name), .int(over.limit)]))
    }

    func error(_ status: Status, language: String, csrf: String, path: String, cookies: [SetCookie] = [],
               message: String = "") -> Response {
        let family = localizer.rawString("error.\(status.code).name", language: language) != nil ? status.code
            : (status.code >= 500 ? 500 : 400)
        let name = localizer.string("error.\(family).name", language: language)
        return render("error", status: status, title: localizer.string("error.title", language: language, [.int(status.code), .string(name)]),
                      language: language, csrf: csrf, path: path,
                      data: ["status": .int(status.code), "name": .string(name),
                             "message": .string(message.isEmpty ? localizer.string("error.\(family).message", language: language) : message)],
                      cookies: cookies)
    }
}
