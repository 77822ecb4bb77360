import HTTP
import Synchronization

/// An action that would make a new player (its row): a modest number per client (a token bucket; an IPv6 client by
/// its /64), so dropping cookies neither escapes the per-player limits nor grows the players table without bound.
/// Page views make no player (nothing is written for a visitor who only looks), but they hand out player cookies: a
/// cookie a page minted is charged at its first action, when its row is made (an attacker's page view then post made
/// 3,000 players from one address in 20 s while only cookie-less posts were counted).
struct NewPlayerLimit<Context: VisitorContext>: Middleware {
    let buckets: TokenBuckets
    /// Whether the player has a row (read once a player, then remembered).
    let hasRow: @Sendable (String) throws -> Bool
    let known = KnownPlayers()

    func handle(_ request: Request, context: Context, next: Next<Context>) throws -> Response {
        let id = context.visitor.playerID
        // Read before the bucket is charged, so a failed read charges nothing.
        let made = try !context.visitor.isNew && (known.contains(id) || hasRow(id))
        if !made, let seconds = buckets.take(ClientAddress.limitKey(request.remoteAddress)) {
            throw PageError(.tooManyRequests, "error.players.tooMany", retryAfter: seconds)
        }
        known.insert(id)
        return try next(request, context)
    }
}

/// Players known to have a row, so an action reads it once: at most `capacity`, then forgotten all at once (a
/// forgotten player's next action reads it again).
final class KnownPlayers: Sendable {
    static let capacity = 20_000
    private let ids = Mutex(Set<String>())

    func contains(_ id: String) -> Bool { ids.withLock { $0.contains(id) } }

    func insert(_ id: String) {
        ids.withLock { ids in
            if ids.count >= Self.capacity { ids.removeAll(keepingCapacity: true) }
            ids.insert(id)
        }
    }
}
