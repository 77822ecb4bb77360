import HTTP
import Interceptions

/// What the site's middleware learn about a request before its handler runs.
struct SiteContext: Sendable {
    /// Set by `VisitorCookies`.
    var visitor: Visitor?
    /// The update rule this browser breaks, if any; set by `UpdateNotice`.
    var notice: Violation?
    /// The signed-in admin; set by `AdminSession`.
    var admin: AdminStore.Admin?
    /// A multipart form's parts; set by `MultipartForm`.
    var upload: Upload?

    init(_ request: Request) {}

    /// The visitor, for handlers in a group with `VisitorCookies`.
    func requireVisitor() throws -> Visitor {
        guard let visitor else { throw HTTPError(.internalServerError, "route declared without VisitorCookies") }
        return visitor
    }

    /// Runs `body` with the visitor.
    func visitor<T>(_ body: (Visitor) throws -> T) throws -> T { try body(requireVisitor()) }

    /// Runs `body` with the visitor and the signed-in admin, for handlers in a group with `AdminSession`.
    func admin<T>(_ body: (Visitor, AdminStore.Admin) throws -> T) throws -> T {
        guard let admin else { throw HTTPError(.internalServerError, "route declared without AdminSession") }
        return try body(requireVisitor(), admin)
    }
}
