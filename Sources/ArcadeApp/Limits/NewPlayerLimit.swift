import HTTP

/// A visitor without a player cookie whose action would make a new player: a modest number per client (a token
/// bucket; an IPv6 client by its /64), so dropping cookies neither escapes the per-player limits nor grows the
/// players table without bound. Page views make no player (nothing is written for a visitor who only looks).
struct NewPlayerLimit<Context: VisitorContext>: Middleware {
    let buckets: TokenBuckets

    func handle(_ request: Request, context: Context, next: Next<Context>) throws -> Response {
        if context.visitor.isNew, let seconds = buckets.take(ClientAddress.limitKey(request.remoteAddress)) {
            throw PageError(.tooManyRequests, "error.players.tooMany", retryAfter: seconds)
        }
        return try next(request, context)
    }
}
