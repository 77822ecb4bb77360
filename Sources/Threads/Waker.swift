import CSystem

#if canImport(Glibc)
import Glibc
#endif

/// Where one thread sleeps until another has work for it: an eventfd, so a ring from inside a `WakeBatch` (an event
/// loop's turn, the writer answering a group) waits for the batch's end. A loop that woke the database writer or a
/// pool thread mid-turn gave it the CPU with the turn's answers still unsent, and the writer a group of one.
public final class Waker: Sendable {
    private let fd: Int32

    public init() {
        fd = csys_eventfd_blocking()
        precondition(fd >= 0, "eventfd failed")
    }

    deinit { close(fd) }

    /// Wakes the sleeper, or the next `sleep` at once. `atOnce` rings even inside a batch (for a caller about to
    /// wait for the sleeper).
    public func ring(atOnce: Bool = false) {
        _ = atOnce ? csys_eventfd_signal(fd) : csys_eventfd_signal_batched(fd)
    }

    /// Sleeps until rung (at once when a ring came since the last sleep).
    public func sleep() { while csys_eventfd_drain(fd) < 0 && errno == EINTR {} }
}
