#if canImport(Glibc)
import Glibc
#endif

/// A complete HTTP request: head and body, as the parser hands it over, and what the server and the router learn of it
/// (the client's address, the access log's id, the route and its parameters). Immutable outside this file: each of
/// those comes as a new value (`from`, `routed`), so no handler or middleware can change what another sees.
public struct Request: Sendable {
    public let method: Method
    public let version: HTTPVersion
    /// The request target in origin form (`/path?query`), still percent-encoded.
    public private(set) var target: String
    public let headers: HTTPHeaders
    public let body: [UInt8]
    /// Path parameters of the route that took it (`/games/:id` → `id`).
    public private(set) var parameters: [String: String]
    /// The client's address as the server saw it ("127.0.0.1"), or "" if unknown.
    public private(set) var remoteAddress: String
    /// The pattern of the route that took it (`/games/:id`), given by the router; nil when none did.
    public private(set) var route: String?
    /// The id the access log gives it (JSON logs only; "" otherwise): the site's log lines about it carry it too.
    public private(set) var requestID: String
    /// The segments, once the router has decoded them (handlers and static files need not do it again).
    private(set) var decodedPath: [String]?
    /// The body as an urlencoded form; nil unless the Content-Type is
    /// `application/x-www-form-urlencoded` and the body is valid UTF-8 with
    /// well-formed escapes. Its size is bounded by the parser's body limit.
    /// Parsed once, with the cookies, when the request is made: both are read several times a request (checks, then
    /// the handler).
    public let form: FormFields?
    /// Cookies from every `Cookie` header.
    public let cookies: Cookies

    public init(
        method: Method, target: String, version: HTTPVersion = .http11,
        headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []
    ) {
        self.method = method
        self.target = target
        self.version = version
        self.headers = headers
        self.body = body
        remoteAddress = ""
        requestID = ""
        parameters = [:]
        route = nil
        decodedPath = nil
        cookies = Cookies.parse(headers)
        form =
            headers.firstValue("Content-Type", hasMainValue: "application/x-www-form-urlencoded")
            ? FormFields(body: body) : nil
    }

    /// A copy with `change` applied (the form and cookies stay: head and body do not change).
    private func with(_ change: (inout Request) -> Void) -> Request {
        var copy = self
        change(&copy)
        return copy
    }

    /// The request as the server received it from a client: its address and the access log's id.
    public func from(_ remoteAddress: String, requestID: String = "") -> Request {
        with {
            $0.remoteAddress = remoteAddress
            $0.requestID = requestID
        }
    }

    /// The request as a route took it: its decoded path, the route's pattern and parameters.
    func routed(path: [String], pattern: String? = nil, parameters: [String: String] = [:]) -> Request {
        with {
            $0.decodedPath = path
            $0.route = pattern
            $0.parameters = parameters
        }
    }

    /// The same request for another target (a redirector serving a path under its own folder).
    public func retargeted(_ target: String) -> Request {
        with {
            $0.target = target
            $0.decodedPath = nil
        }
    }

    /// A path parameter the route's pattern names; a name it does not is the route's bug, so a 500 that says which.
    public func parameter(_ name: String) throws(HTTPError) -> String {
        guard let value = parameters[name] else { throw HTTPError(.internalServerError, "no path parameter :\(name)") }
        return value
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

    /// The query parameters, decoded.
    public var query: FormFields {
        guard let rawQuery else { return FormFields() }  // most requests have none: nothing to parse
        return FormFields(urlencoded: rawQuery) ?? FormFields()
    }

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
