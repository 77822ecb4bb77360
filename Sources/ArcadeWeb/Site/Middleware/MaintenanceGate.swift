import ArcadeStore
import HTTP
import Interceptions

/// During maintenance every player page answers 503 with the operator's message and a Retry-After (static files,
/// /healthz and the APIs keep working: they are not in this group).
struct MaintenanceGate: Middleware {
    let interceptions: InterceptionsStore
    let identity: Identity
    let errors: ErrorPages
    let clock: @Sendable () -> Double

    func handle(_ request: Request, context: RequestContext, next: Next<RequestContext>) throws -> Response {
        guard let maintenance = try? interceptions.webMaintenance(), maintenance.active else {
            return try next(request, context)
        }
        let language = identity.language(for: request).0
        // Every other page is closed too, so the page offers only to try this one again.
        var response = errors.page(
            .serviceUnavailable, request,
            message: Requirement(version: Version("0")!, messages: maintenance.messages)
                .message(for: language, base: "en"),
            retry: OnceController.localPath(request.target))
        let now = Int(clock())
        response.headers.set("Retry-After", String(max(60, min(86_400, (maintenance.endsAt ?? now + 300) - now))))
        return response
    }
}
