import HTTP

/// On state-changing routes: a body that claims to be a form but does not parse is a 400, a field longer than the
/// site allows a 422 naming it, and a missing or wrong CSRF token a 403, before the handler runs.
struct CSRFCheck<Context: VisitorContext>: Middleware {
    let identity: Identity

    func handle(_ request: Request, context: Context, next: Next<Context>) throws -> Response {
        let isForm =
            request.headers["Content-Type"]?.lowercased().hasPrefix("application/x-www-form-urlencoded") == true
        if isForm && request.form == nil { throw PageError(.badRequest) }
        if let over = request.form.flatMap({ FieldLimits.site.firstViolation(in: $0) }) {
            throw PageError(.unprocessableContent, "error.field.long", [.string(over.name), .int(over.limit)])
        }
        guard identity.passesCSRF(request, token: context.formToken) else { throw PageError(.forbidden) }
        return try next(request, context)
    }
}
