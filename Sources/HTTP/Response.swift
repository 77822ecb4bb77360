import HTMLEscaping

#if canImport(Glibc)
import Glibc
#endif

/// A response: status, headers and a body. The server adds `Date`,
/// `Content-Length`, `Connection` and `Server`; handlers set the rest.
public struct Response: Sendable {
    public enum Body: Sendable {
        case empty
        case bytes([UInt8])
        /// A byte range of an open file, sent with sendfile(2).
        case file(OpenFile, offset: Int, count: Int)
        /// An open event stream: `initial` now, then what is published to `channel` (see `EventChannels`).
        case events(channel: String, initial: [UInt8])

        public var count: Int {
            switch self {
            case .empty, .events: 0
            case .bytes(let b): b.count
            case .file(_, _, let count): count
            }
        }
    }

    public var status: Status
    public var headers: HTTPHeaders
    public var body: Body

    public init(status: Status = .ok, headers: HTTPHeaders = HTTPHeaders(), body: Body = .empty) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    public init(status: Status = .ok, contentType: String, body: [UInt8]) {
        self.status = status
        self.headers = HTTPHeaders([("Content-Type", contentType)])
        self.body = .bytes(body)
    }

    /// A plain-text response.
    public static func text(_ text: String, status: Status = .ok) -> Response {
        Response(status: status, contentType: "text/plain; charset=utf-8", body: Array(text.utf8))
    }

    /// An HTML response.
    public static func html(_ html: String, status: Status = .ok) -> Response {
        Response(status: status, contentType: "text/html; charset=utf-8", body: Array(html.utf8))
    }

    /// `303 See Other`: after a form post, the browser GETs `location`.
    public static func redirect(to location: String, status: Status = .seeOther) -> Response {
        var response = Response(status: status)
        response.headers.append("Location", location)
        return response
    }

    /// A small HTML error page that names the status; the reason is escaped.
    public static func error(_ status: Status, detail: String? = nil) -> Response {
        let title = "\(status.code) \(HTMLEscaper.escape(status.reason))"
        let para = detail.map { "<p>\(HTMLEscaper.escape($0))</p>" } ?? ""
        var response = Response.html(
            "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>\(title)</title></head>"
                + "<body><h1>\(title)</h1>\(para)</body></html>\n",
            status: status)
        response.headers.append("Cache-Control", "no-store")
        return response
    }

    /// `text/event-stream` on a channel; the connection stays open until the client or the server ends it.
    public static func eventStream(channel: String, initial: [UInt8]) -> Response {
        var response = Response(
            status: .ok,
            headers: HTTPHeaders([
                ("Content-Type", "text/event-stream; charset=utf-8"),
                ("Cache-Control", "no-store"),
                ("X-Accel-Buffering", "no"),
            ]),
            body: .events(channel: channel, initial: initial))
        response.headers.append("X-Content-Type-Options", "nosniff")
        return response
    }

    public mutating func setCookie(_ cookie: SetCookie) { headers.append("Set-Cookie", cookie.headerValue) }
}

/// An open file descriptor, closed when the last reference goes away.
public final class OpenFile: Sendable {
    public let descriptor: Int32

    public init(descriptor: Int32) { self.descriptor = descriptor }

    deinit { close(descriptor) }
}
