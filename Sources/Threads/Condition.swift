#if canImport(Glibc)
import Glibc
#endif

/// A mutex with a condition variable (pthread), for a thread that must sleep
/// until another hands it work or an answer.
public final class Condition: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    public init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    public func withLock<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// Sleeps until signalled; call while holding the lock, and re-check what you wait for.
    public func wait() { pthread_cond_wait(condition, mutex) }

    /// Sleeps until signalled or `seconds` have passed; call while holding the lock, and re-check what you wait for.
    public func wait(seconds: Double) {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let nanoseconds = Int(now.tv_nsec) + Int(seconds.truncatingRemainder(dividingBy: 1) * 1e9)
        var until = timespec(
            tv_sec: now.tv_sec + Int(seconds) + nanoseconds / 1_000_000_000, tv_nsec: nanoseconds % 1_000_000_000)
        _ = pthread_cond_timedwait(condition, mutex, &until)
    }

    public func broadcast() { pthread_cond_broadcast(condition) }
}
