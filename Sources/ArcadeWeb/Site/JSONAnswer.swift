import HTTP
import JSON

/// The API's answers: JSON, never cached without asking, never sniffed.
enum JSONAnswer {
    static func make(_ value: JSONValue, status: Status = .ok) -> Response {
        var response = Response(
            status: status, contentType: "application/json",
            body: JSONWriter(sortedKeys: true).bytes(value))
        response.headers.append("Cache-Control", "no-cache")
        response.headers.append("X-Content-Type-Options", "nosniff")
        return response
    }

    /// `{"error": message}`.
    static func error(_ message: String, status: Status) -> Response {
        make(.object([("error", .string(message))]), status: status)
    }
}
