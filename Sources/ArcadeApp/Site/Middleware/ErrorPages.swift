import HTTP

/// The outermost middleware: an error a handler throws becomes the localized error page, with the status it carries
/// (an `HTTPResponseError`) or 500, logged; the visitor sees the words, never the error.
struct ErrorPages: Middleware {
    let pages: Pages
    let identity: Identity

    func handle(_ request: Request, context: SiteContext, next: Next<SiteContext>) throws -> Response {
        do {
            return try next(request, context)
        } catch {
            return page(for: error, request)
        }
    }

    func page(for error: any Error, _ request: Request) -> Response {
        let language = identity.language(for: request).0
        if let error = error as? any HTTPResponseError, error.status.code < 500 {
            return pages.error(error.status, language: language, csrf: "", path: "/", message: error.message)
        }
        Log.error("\(request.method) \(request.target): \(error)")
        return pages.error(.internalServerError, language: language, csrf: "", path: "/")
    }
}
