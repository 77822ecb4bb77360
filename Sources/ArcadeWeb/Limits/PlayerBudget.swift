import HTTP

/// Actions that make rows (a new Mastermind game, a hint that starts one, a Name Game round or review session): a
/// token bucket per player, so one cookie cannot grow the database faster than a person plays. A burst of
/// `burst` at once, then one every `refill` seconds (timed Name Game rounds come about that fast); beyond, 429 with
/// `Retry-After`, before anything is read or written. Per instance, as the cheat-action limiter.
struct PlayerBudget<Context: VisitorContext>: Middleware {
    static var burst: Int { 60 }
    static var refill: Double { 1 }
    let buckets: TokenBuckets

    func handle(_ request: Request, context: Context, next: Next<Context>) throws -> Response {
        if let seconds = buckets.take(context.visitor.playerID) {
            SiteMetrics.refusals.add(["actions_rate_limited"])
            throw PageError(.tooManyRequests, "error.actions.tooMany", retryAfter: seconds)
        }
        return try next(request, context)
    }
}
