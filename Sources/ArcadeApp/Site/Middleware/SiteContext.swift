import HTTP
import Interceptions

/// What the site's middleware learn about a request before its handler runs.
struct SiteContext: Sendable {
    /// Set by `VisitorCookies`.
    var visitor: Visitor?
    /// The update rule this browser breaks, if any; set by `UpdateNotice`.
    var notice: Violation?

    init(_ request: Request) {}

    /// The visitor, for handlers in a group with `VisitorCookies`.
    func requireVisitor() throws -> Visitor {
        guard let visitor else { throw HTTPError(.internalServerError, "route declared without VisitorCookies") }
        return visitor
    }
}
