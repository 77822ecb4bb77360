import HTTP
import Synchronization

/// Fair shares of the server's connections, across its loops, per client (`ClientAddress.limitKey`: an IPv6
/// client is its /64). Page connections and event streams have separate budgets: a tab holds its live-update stream
/// for as long as it is open, so an office of hundreds behind one NAT address holds hundreds of streams while it
/// browses on a few dozen page connections. A trusted proxy speaks for many, so it has no per-address cap.
/// - Every connection is a page connection from accept (nothing is known of it yet): `maxConnectionsPerAddress`.
/// - One that answers with an event stream moves to the stream budget, `maxStreamsPerAddress`, and frees its
///   page place; streams together take at most `maxStreamShare` of `maxConnections`.
final class ConnectionBudget: Sendable {
    let perAddress: Int
    let streamsPerAddress: Int
    let maxStreams: Int
    let trusted: TrustedProxies
    private struct Held {
        var pages = 0
        var streams = 0
    }
    private let counts = Mutex<[String: Held]>([:])
    private let streams = Atomic<Int>(0)

    init(_ configuration: ServerConfiguration) {
        perAddress = configuration.maxConnectionsPerAddress
        streamsPerAddress = configuration.maxStreamsPerAddress
        maxStreams = max(1, Int(Double(configuration.maxConnections) * configuration.maxStreamShare))
        trusted = configuration.trustedProxies
    }

    /// Counts a page connection from `key` (its `limitKey`); false (nothing counted) when it has its share.
    func open(_ key: String, peer: String) -> Bool {
        if trusted.isTrusted(peer) { return true }
        return counts.withLock { counts in
            let held = counts[key, default: Held()]
            guard held.pages < perAddress else { return false }
            counts[key, default: Held()].pages += 1
            return true
        }
    }

    /// Counts a page connection again that gave its place back too early (its last answer did not go out at once),
    /// even past the cap: it is open.
    func retake(_ key: String, peer: String) {
        if trusted.isTrusted(peer) { return }
        counts.withLock { $0[key, default: Held()].pages += 1 }
    }

    /// Moves one of `key`'s page connections to the stream budget; false (it stays a page connection) when streams,
    /// the client's or the site's, have their share.
    func becomeStream(_ key: String, peer: String) -> Bool {
        guard streams.wrappingAdd(1, ordering: .relaxed).newValue <= maxStreams else {
            streams.wrappingSubtract(1, ordering: .relaxed)
            return false
        }
        if trusted.isTrusted(peer) { return true }
        let moved = counts.withLock { counts in
            guard var held = counts[key], held.streams < streamsPerAddress else { return false }
            held.pages -= 1
            held.streams += 1
            counts[key] = held
            return true
        }
        if !moved { streams.wrappingSubtract(1, ordering: .relaxed) }
        return moved
    }

    /// Gives back a connection's place: a page connection's, or a stream's.
    func close(_ key: String, peer: String, stream: Bool) {
        if stream { streams.wrappingSubtract(1, ordering: .relaxed) }
        if trusted.isTrusted(peer) { return }
        counts.withLock { counts in
            guard var held = counts[key] else { return }
            if stream { held.streams -= 1 } else { held.pages -= 1 }
            counts[key] = held.pages > 0 || held.streams > 0 ? held : nil
        }
    }
}
