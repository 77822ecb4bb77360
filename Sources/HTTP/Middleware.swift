/// A concern that every route of a group shares (maintenance, the visitor's cookies, CSRF, security headers):
/// it sees the request and the context first, may answer itself, and may change the answer `next` gives.
/// Errors thrown by a handler pass through it, so one middleware can turn them all into error pages.
public protocol Middleware<Context>: Sendable {
    associatedtype Context: Sendable
    func handle(_ request: Request, context: Context, next: Next<Context>) throws -> Response
}

/// A middleware that learns something about the request (the visitor, the signed-in admin, an upload's parts) and
/// hands the rest of the chain a richer context holding it: the routes after it need not check that it was done.
public protocol ContextMiddleware<Parent, Child>: Sendable {
    associatedtype Parent: Sendable
    associatedtype Child: Sendable
    func handle(_ request: Request, context: Parent, next: Next<Child>) throws -> Response
}

/// The rest of the chain, from a middleware's point of view.
public struct Next<Context: Sendable> {
    let call: (Request, Context) throws -> Response

    public func callAsFunction(_ request: Request, _ context: Context) throws -> Response { try call(request, context) }
}

/// An error that says how to answer: thrown from a handler, it becomes a page with this status (a missing record
/// is a 404, a malformed form a 400); any other error is a 500.
public protocol HTTPResponseError: Error {
    var status: Status { get }
    /// Shown to the visitor; empty for the status's own words.
    var message: String { get }
}

extension HTTPError: HTTPResponseError {
    public var message: String { reason }
}
