#if canImport(Glibc)
import Glibc
#endif

/// A complete HTTP request: head and body, as the parser hands it over.
public struct Request: Sendable {
    public var method: Method
    public var version: HTTPVersion
    /// The request target in origin form (`/path?query`), still percent-encoded.
    public var target: String { didSet { decodedPath = nil } }
    public var headers: HTTPHeaders { didSet { parse() } }
    public var body: [UInt8] { didSet { parse() } }
    /// Path parameters filled in by the router (`/games/:id` → `id`).
    public var parameters: [String: String] = [:]

    /// A path parameter the route's pattern names; a name it does not is the route's bug, so a 500 that says which.
    public func parameter(_ name: String) throws(HTTPError) -> String {
        guard let value = parameters[name] else { throw HTTPError(.internalServerError, "no path parameter :\(name)") }
        return value
    }
    /// The client's address as the server saw it ("127.0.0.1"), or "" if unknown.
    public var remoteAddress = ""
    /// The pattern of the route that took it (`/games/:id`), set by the router; nil when none did.
    public var route: String?
    /// The id the access log gives it (JSON logs only; "" otherwise): the site's log lines about it carry it too.
    public var requestID = ""

    public init(
        method: Method, target: String, version: HTTPVersion = .http11,
        headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []
    ) {
        self.method = method
        self.target = target
        self.version = version
        self.headers = headers
        self.body = body
        parse()
    }

    /// The form and the cookies are read several times a request (checks, then the handler): parsed once,
    /// when the head and body are set.
    private mutating func parse() {
        cookies = Cookies.parse(headers)
        guard headers.firstValue("Content-Type", hasMainValue: "application/x-www-form-urlencoded") else {
            form = nil
            return
        }
        form = FormFields(body: body)
    }

    /// The path part of the target, still percent-encoded.
    public var rawPath: Substring {
        guard let q = queryMark else { return target[...] }
        return target[..<q]
    }

    /// The query string after `?`, still encoded, or nil.
    public var rawQuery: Substring? {
        guard let q = queryMark else { return nil }
        return target[target.utf8.index(after: q)...]
    }

    /// Where the `?` is, found with memchr (a walk of the UTF-8 view cost ten times as much on every request).
    private var queryMark: String.Index? {
        // In place: `withUTF8` needs a copy of the string to mutate (a retain and a release).
        guard let offset = target.utf8.withContiguousStorageIfAvailable({ firstIndex(of: 0x3F, in: $0) }) else {
            return target.utf8.firstIndex(of: 0x3F)
        }
        return offset.map { target.utf8.index(target.utf8.startIndex, offsetBy: $0) }
    }

    /// The path's segments, each percent-decoded; an encoded `/` stays inside
    /// its segment. Nil when an escape is malformed or decodes to bad UTF-8.
    public var pathSegments: [String]? { decodedPath ?? URI.decodeSegments(rawPath) }

    /// The segments, once the router has decoded them (handlers and static files need not do it again).
    var decodedPath: [String]?

    /// The query parameters, decoded.
    public var query: FormFields {
        guard let rawQuery else { return FormFields() }  // most requests have none: nothing to parse
        return FormFields(urlencoded: rawQuery) ?? FormFields()
    }

    /// The body as an urlencoded form; nil unless the Content-Type is
    /// `application/x-www-form-urlencoded` and the body is valid UTF-8 with
    /// well-formed escapes. Its size is bounded by the parser's body limit.
    public private(set) var form: FormFields?

    /// Cookies from every `Cookie` header.
    public private(set) var cookies = Cookies()

    /// Whether the client lets the connection stay open after this request.
    public var wantsKeepAlive: Bool {
        switch version {
        case .http11: !headers.hasToken("close", in: "Connection")
        case .http10: headers.hasToken("keep-alive", in: "Connection")
        }
    }
}

/// Where `byte` first is in `bytes[from..<to]` (all of them by default), found with memchr: a walk byte by byte cost
/// several times as much on every request (the query mark, the cookies' separators).
func firstIndex(of byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from: Int = 0, to: Int? = nil) -> Int? {
    let end = to ?? bytes.count
    guard from < end, let base = bytes.baseAddress, let found = memchr(base + from, Int32(byte), end - from) else {
        return nil
    }
    return UnsafeRawPointer(found) - UnsafeRawPointer(base)
}
