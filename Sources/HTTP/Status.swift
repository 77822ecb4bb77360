/// A response status code with its reason phrase.
public struct Status: Sendable, Equatable, Hashable, CustomStringConvertible {
    public let code: Int
    public let reason: String

    public init(code: Int, reason: String? = nil) {
        self.code = code
        self.reason = reason ?? Status.reasons[code] ?? "Status \(code)"
    }

    public static func == (a: Status, b: Status) -> Bool { a.code == b.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
    public var description: String { "\(code) \(reason)" }

    /// Whether a response with this status may carry a body (RFC 9110 §6.4.1).
    public var allowsBody: Bool { !(100..<200).contains(code) && code != 204 && code != 304 }

    public static let `continue` = Status(code: 100)
    public static let ok = Status(code: 200)
    public static let created = Status(code: 201)
    public static let noContent = Status(code: 204)
    public static let movedPermanently = Status(code: 301)
    public static let found = Status(code: 302)
    public static let seeOther = Status(code: 303)
    public static let notModified = Status(code: 304)
    public static let badRequest = Status(code: 400)
    public static let unauthorized = Status(code: 401)
    public static let forbidden = Status(code: 403)
    public static let notFound = Status(code: 404)
    public static let methodNotAllowed = Status(code: 405)
    public static let conflict = Status(code: 409)
    public static let requestTimeout = Status(code: 408)
    public static let contentTooLarge = Status(code: 413)
    public static let uriTooLong = Status(code: 414)
    public static let unsupportedMediaType = Status(code: 415)
    public static let expectationFailed = Status(code: 417)
    public static let unprocessableContent = Status(code: 422)
    public static let tooManyRequests = Status(code: 429)
    public static let headerFieldsTooLarge = Status(code: 431)
    public static let internalServerError = Status(code: 500)
    public static let notImplemented = Status(code: 501)
    public static let serviceUnavailable = Status(code: 503)
    public static let httpVersionNotSupported = Status(code: 505)

    static let reasons: [Int: String] = [
        100: "Continue", 200: "OK", 201: "Created", 204: "No Content",
        301: "Moved Permanently", 302: "Found", 303: "See Other", 304: "Not Modified",
        307: "Temporary Redirect", 308: "Permanent Redirect",
        400: "Bad Request", 401: "Unauthorized", 403: "Forbidden", 404: "Not Found",
        405: "Method Not Allowed", 406: "Not Acceptable", 408: "Request Timeout", 409: "Conflict",
        410: "Gone", 411: "Length Required", 412: "Precondition Failed", 413: "Content Too Large",
        414: "URI Too Long", 415: "Unsupported Media Type", 416: "Range Not Satisfiable",
        417: "Expectation Failed", 422: "Unprocessable Content", 429: "Too Many Requests",
        431: "Request Header Fields Too Large", 500: "Internal Server Error",
        501: "Not Implemented", 502: "Bad Gateway", 503: "Service Unavailable",
        504: "Gateway Timeout", 505: "HTTP Version Not Supported",
    ]
}

/// Why a request was refused: the status to answer with and a short reason
/// for the log and the error page.
public struct HTTPError: Error, Sendable, Equatable, CustomStringConvertible {
    public let status: Status
    public let reason: String

    public init(_ status: Status, _ reason: String) {
        self.status = status
        self.reason = reason
    }

    public var description: String { "\(status.code) \(reason)" }
}
