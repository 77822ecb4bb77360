import HTTP

/// With `--secure-cookies`, every cookie the site sets is `Secure`, whichever handler set it (flash messages and
/// the look cookies too), so none can travel in clear text.
struct SecureCookies<Context: Sendable>: Middleware {
    func handle(_ request: Request, context: Context, next: Next<Context>) throws -> Response {
        Self.apply(try next(request, context))
    }

    static func apply(_ response: Response) -> Response {
        guard response.headers.contains("Set-Cookie") else { return response }
        var response = response
        var headers = HTTPHeaders()
        for (name, value) in response.headers {
            let secure = name.lowercased() != "set-cookie" || value.lowercased().contains("; secure")
            headers.append(name, secure ? value : value + "; Secure")
        }
        response.headers = headers
        return response
    }
}
