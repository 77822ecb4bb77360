import HTTP

/// The headers every answer carries: a strict Content-Security-Policy (no inline script), no sniffing, no framing,
/// no referrer beyond the site, and no shared caching of pages made for one visitor.
struct SecurityHeaders<Context: Sendable>: Middleware {
    static var fields: [(String, String)] { securityFields }

    func handle(_ request: Request, context: Context, next: Next<Context>) throws -> Response {
        Self.apply(try next(request, context))
    }

    /// Adds what the answer does not set itself (a handler may ask for `no-store`). Consuming: a borrowed answer
    /// was still the caller's, so adding to its head copied the head first.
    static func apply(_ answer: consuming Response) -> Response {
        var response = consume answer
        if !response.headers.sharesName(with: securityBlock) {
            response.headers.append(contentsOf: securityBlock)  // the usual case: one copy
        } else {
            for (name, value) in securityFields where !response.headers.contains(name) {
                response.headers.append(name, value)
            }
        }
        return response
    }
}

// Built once (a generic type cannot hold static constants).
private let securityFields = [
    ("Content-Security-Policy", Pages.contentSecurityPolicy), ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "same-origin"), ("X-Frame-Options", "DENY"),
    ("Vary", "Accept-Language, Cookie"), ("Cache-Control", "private, no-cache"),
]
private let securityBlock = HTTPHeaders(securityFields)
