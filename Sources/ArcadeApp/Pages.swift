import HTTP
import Localization
import Templates

/// Renders pages inside the shared layout, in the visitor's language, with
/// the headers every HTML response carries.
struct Pages: Sendable {
    let templates: TemplateStore
    let localizer: Localizer
    let version: @Sendable () -> String

    static let contentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
        + "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"

    /// `t.some.key` in a template: the localized string, formatted with the tag's arguments.
    func strings(_ language: String) -> TemplateValue {
        let localizer = self.localizer
        return .function(TemplateFunction { key, arguments in
            .string(localizer.string(key, language: language, arguments.map(Pages.formatArgument)))
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

    /// The language menu: each language in its own name, linking to this page.
    func languageMenu(current: String, path: String) -> TemplateValue {
        .list(localizer.languages.map { code in
            .object(["code": .string(code), "name": .string(localizer.string("language.name.\(code)", language: code)),
                     "href": .string(path + "?lang=" + URI.encode(code)), "current": .bool(code == current)])
        })
    }

    func render(_ page: String, status: Status = .ok, title: String, language: String, csrf: String, path: String,
                data: [String: TemplateValue] = [:], cookies: [SetCookie] = []) -> Response {
        var context: [String: TemplateValue] = [
            "page": .string(page), "title": .string(title), "lang": .string(language), "csrf": .string(csrf),
            "t": strings(language), "languages": languageMenu(current: language, path: path), "version": .string(version()),
        ]
        for (key, value) in data { context[key] = value }
        var body: [UInt8] = []
        body.reserveCapacity(8192)
        do {
            try templates.library().render("layout", .object(context), into: &body)
        } catch {
            // Only in --dev: show the template error rather than a blank page.
            Log.error("\(error)")
            return Pages.secure(Response.text("Template error: \(error)\n", status: .internalServerError), language: language)
        }
        var response = Response(status: status, contentType: "text/html; charset=utf-8", body: body)
        for cookie in cookies { response.setCookie(cookie) }
        return Pages.secure(response, language: language)
    }

    /// The headers every HTML response carries.
    static func secure(_ response: Response, language: String) -> Response {
        var response = response
        response.headers.set("Content-Security-Policy", contentSecurityPolicy)
        response.headers.set("X-Content-Type-Options", "nosniff")
        response.headers.set("Referrer-Policy", "same-origin")
        response.headers.set("X-Frame-Options", "DENY")
        response.headers.set("Content-Language", language)
        response.headers.set("Vary", "Accept-Language, Cookie")
        response.headers.set("Cache-Control", "private, no-cache")
        return response
    }

    /// A localized error page in the layout.
    func error(_ status: Status, language: String, csrf: String, path: String, cookies: [SetCookie] = []) -> Response {
        let family = localizer.rawString("error.\(status.code).name", language: language) != nil ? status.code
            : (status.code >= 500 ? 500 : 400)
        let name = localizer.string("error.\(family).name", language: language)
        return render("error", status: status, title: localizer.string("error.title", language: language, [.int(status.code), .string(name)]),
                      language: language, csrf: csrf, path: path,
                      data: ["status": .int(status.code), "name": .string(name),
                             "message": .string(localizer.string("error.\(family).message", language: language))],
                      cookies: cookies)
    }
}
