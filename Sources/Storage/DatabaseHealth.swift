import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Whether the database answers, as every connection of one site sees it (the pool's, the writer's, the leader's,
/// the change feed's): a connection that breaks says so here, and one that opens says it is back. Reconnecting waits
/// out a bounded, jittered backoff shared by them all, so an outage costs each request a quick refusal (503), not a
/// connection attempt, and the server is not met by every thread at once when it returns.
public final class DatabaseHealth: Sendable {
    private struct Backoff {
        var failures = 0
        var next = 0.0
    }

    private let isReachable = Atomic<Bool>(true)
    /// Outages so far: a connection opened before the latest one may be broken without knowing it (libpq learns
    /// only when it next talks), so each is dropped and opened again at its next use (`DatabasePool.connection()`).
    let outages = Atomic<Int>(0)
    /// Connections opened again after an outage or a broken connection (`arcade_db_reconnects_total`).
    public let reconnects = Atomic<Int>(0)
    private let backoff = Mutex(Backoff())
    /// The longest pause between attempts: short enough that readiness passes within a second of recovery.
    static let longestPause = 0.5

    public init() {}

    /// True unless the latest attempt to reach the database failed and none has succeeded since.
    public var reachable: Bool { isReachable.load(ordering: .relaxed) }

    /// A connection broke or could not be opened.
    func lost() {
        if isReachable.exchange(false, ordering: .relaxed) { outages.wrappingAdd(1, ordering: .relaxed) }
    }

    /// A connection opened; `again` when it replaces one that broke (or one opened before an outage).
    func connected(again: Bool) {
        if again { reconnects.wrappingAdd(1, ordering: .relaxed) }
        isReachable.store(true, ordering: .relaxed)
        backoff.withLock { $0 = Backoff() }
    }

    /// Opens a connection unless the backoff says to wait (then refuses at once, as unavailable); a failure to
    /// connect lengthens the wait: 25 ms doubling up to `longestPause`, each with up to half again of jitter.
    func open<T>(again: Bool, _ make: () throws(DatabaseError) -> T) throws(DatabaseError) -> T {
        let now = Self.now()
        let wait = backoff.withLock { $0.next - now }
        guard wait <= 0 else {
            throw DatabaseError(
                "the database is unreachable (trying again in \(Int(wait * 1000)) ms)", sqlState: "08001")
        }
        do {
            let made = try make()
            connected(again: again)
            return made
        } catch {
            lost()
            backoff.withLock { state in
                state.failures += 1
                let pause = min(Self.longestPause, 0.025 * Double(1 << min(state.failures, 10)))
                state.next = Self.now() + pause * Double.random(in: 0.5...1)
            }
            throw error
        }
    }

    static func now() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}
