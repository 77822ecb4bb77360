import ArcadeStore
import HTTP
import Interceptions
import Logger

/// A request before the site knows anything of it: what the outermost middleware (security headers, error pages,
/// maintenance) see.
struct RequestContext: Sendable {
    init(_ request: Request) {}
}

/// What every context past `VisitorCookies` holds: who is asking, the log as this request writes to it, and where a
/// form's CSRF token is when it is not a url-encoded field (a multipart upload's part).
protocol VisitorContext: Sendable {
    var visitor: Visitor { get }
    var log: RequestLog { get }
    var formToken: String? { get }
}

extension VisitorContext {
    var formToken: String? { nil }
}

/// A player's request: built by `VisitorCookies`; `UpdateNotice` adds the update rule the browser breaks, if any.
struct PlayerContext: VisitorContext {
    var visitor: Visitor
    let log: RequestLog
    var notice: Violation? = nil
}

/// A signed-in admin's request: built by `AdminSession`.
struct AdminContext: VisitorContext {
    let visitor: Visitor
    let log: RequestLog
    let admin: AdminStore.Admin
}

/// A signed-in admin's upload, its parts read: built by `MultipartForm`.
struct UploadContext: VisitorContext {
    let visitor: Visitor
    let log: RequestLog
    let admin: AdminStore.Admin
    let upload: Upload

    var formToken: String? { upload["csrf"] }
}
