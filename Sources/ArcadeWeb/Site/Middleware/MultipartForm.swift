import HTTP

/// Routes that take uploads: the body must be `multipart/form-data`; its parts are read before the handler runs (and
/// before `CSRFCheck`, which finds the token among them). A malformed body gets its error page and changes nothing.
struct MultipartForm: ContextMiddleware {
    var limits = MultipartLimits(maxParts: 1000, maxHeaderBytes: 4096, maxPartBytes: 32 << 20)

    func handle(_ request: Request, context: AdminContext, next: Next<UploadContext>) throws -> Response {
        // The parser's reason is for logs, not a localized page: the status's own words are shown.
        let parts: [MultipartPart]
        do {
            parts = try MultipartParser.parse(
                request.body, contentType: request.headers["Content-Type"] ?? "", limits: limits)
        } catch {
            throw PageError(error.status)
        }
        return try next(
            request,
            UploadContext(
                visitor: context.visitor, log: context.log, admin: context.admin, upload: Upload(parts: parts)))
    }
}

/// The parts of a multipart form.
struct Upload: Sendable {
    let parts: [MultipartPart]

    /// A text field's value (the first part of that name without a file name).
    subscript(_ name: String) -> String? {
        parts.first { $0.name == name && $0.filename == nil }?.text
    }

    /// The files sent under `name` (empty file inputs, which browsers send with no file name and no bytes, left out).
    func files(_ name: String) -> [MultipartPart] {
        parts.filter { part in part.name == name && part.filename.map { !$0.isEmpty || !part.body.isEmpty } == true }
    }
}
