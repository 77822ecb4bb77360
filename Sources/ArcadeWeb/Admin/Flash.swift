import HTTP

/// The outcome of an admin change, told on the page the change redirects to: a cookie that lives a minute, for the
/// admin pages only, read and cleared by `AdminSession`.
enum Flash {
    static let cookie = "arcade_flash"
    static let clear = SetCookie(name: cookie, value: "", path: "/admin", maxAge: 0, sameSite: .strict)

    /// `303` to `location`, saying `message` there.
    static func redirect(_ location: String, _ message: String) -> Response {
        var response = Response.redirect(to: location)
        response.setCookie(
            SetCookie(name: cookie, value: URI.encode(message), path: "/admin", maxAge: 60, sameSite: .strict))
        return response
    }
}
