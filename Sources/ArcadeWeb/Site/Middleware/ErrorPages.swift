import HTTP
import HTTPServer
import Localization
import Logger
import Storage

/// An answer a handler cannot give, thrown: its status, and what the page says (a string key in the visitor's
/// language; none for the status's own words).
struct PageError: HTTPResponseError {
    let status: Status
    let key: String?
    let arguments: [FormatArgument]
    /// Seconds for `Retry-After` (a 429 or 503 that will pass later).
    var retryAfter: Int?

    init(_ status: Status, _ key: String? = nil, _ arguments: [FormatArgument] = [], retryAfter: Int? = nil) {
        self.status = status
        self.key = key
        self.arguments = arguments
        self.retryAfter = retryAfter
    }

    var message: String { key ?? "" }
}

/// The one error path: an error a handler or middleware throws becomes the localized error page (for the API, a JSON
/// object), with the status it carries (an `HTTPResponseError`) or 500, which is logged; the visitor sees the words,
/// never the error. It sits in every group just inside `SecurityHeaders`; `VisitorCookies` calls it too, so an error
/// page sets that visitor's cookies. The router's own 404, 405 and 400 pages come from here as well.
struct ErrorPages: Middleware {
    enum Format: Sendable { case page, json }

    let pages: Pages
    let identity: Identity
    var format = Format.page

    func handle(_ request: Request, context: RequestContext, next: Next<RequestContext>) throws -> Response {
        do {
            return try next(request, context)
        } catch {
            return answer(for: error, request)
        }
    }

    /// `visitor`: known when the error comes from inside `VisitorCookies`, which then sets its cookies on the page.
    func answer(for error: any Error, _ request: Request, visitor: Visitor? = nil) -> Response {
        // A full write queue is the site's own refusal, not a failure: 503 at once, to try again in a moment. So is
        // a write that lost its race with another instance more often than the writer retries.
        if let error = error as? DatabaseError, error.isBusy || error.isContention {
            return answer(for: PageError(.serviceUnavailable, "error.busy", retryAfter: 1), request, visitor: visitor)
        }
        // The database is away (a broken connection, a full disk): 503, logged once a minute, not once a request.
        // A write whose connection broke after its COMMIT was sent may have been saved: the page says so.
        if let error = error as? DatabaseError, error.unavailable {
            Outage.note(error, request)
            let key = error.outcomeUnknown ? "error.unconfirmed" : "error.unavailable"
            return answer(for: PageError(.serviceUnavailable, key, retryAfter: 2), request, visitor: visitor)
        }
        var response = respond(to: error, request, visitor: visitor)
        if let seconds = (error as? PageError)?.retryAfter { response.headers.set("Retry-After", String(seconds)) }
        return response
    }

    private func respond(to error: any Error, _ request: Request, visitor: Visitor?) -> Response {
        let status = (error as? any HTTPResponseError)?.status ?? .internalServerError
        // A 503 of our own (the database away: logged once a minute) is a refusal, not a failure to log.
        let refusal = (error as? PageError)?.status == .serviceUnavailable
        if status.code >= 500 && !refusal {
            Log.error(
                "\(error)",
                ["method": .string(request.method.description), "path": .string(AccessLog.path(request.target))],
                requestID: request.requestID)
        }
        let message: String
        switch error {
        case let error as PageError:
            message = error.key.map { pages.localizer.string($0, language: language(request), error.arguments) } ?? ""
        case let error as any HTTPResponseError where status.code < 500: message = error.message
        default: message = ""
        }
        guard format == .page else {
            return JSONAnswer.error(message.isEmpty ? status.reason : message, status: status)
        }
        return page(status, request, visitor: visitor, message: message)
    }

    /// The localized error page, in the visitor's theme, with the security headers.
    func page(
        _ status: Status, _ request: Request, visitor known: Visitor? = nil, message: String = "",
        retry: String? = nil
    ) -> Response {
        let visitor = known ?? (try? identity.visitor(for: request))
        // The visitor's theme, without the banner or flash a page of theirs would carry (an error page has none).
        let look =
            visitor.map {
                PageLook(
                    theme: $0.look.theme, retroUnlocked: $0.look.retroUnlocked,
                    shortcutsOff: $0.look.shortcutsOff)
            } ?? PageLook()
        return SecurityHeaders<RequestContext>.apply(
            pages.error(
                status, language: visitor?.language ?? language(request), csrf: visitor?.csrfToken ?? "",
                look: look, path: "/", cookies: known == nil ? visitor?.cookies ?? [] : [], message: message,
                retry: retry))
    }

    private func language(_ request: Request) -> String { identity.language(for: request).0 }
}

/// The log of a database outage: its first refusal, then at most one line a minute, with how many were left out
/// (`repeated`), each with the request id of the refusal it names.
enum Outage {
    static func note(_ error: DatabaseError, _ request: Request) {
        Log.error(
            "database unavailable: \(error)", ["answer": 503], requestID: request.requestID,
            every: "database unavailable")
    }
}
