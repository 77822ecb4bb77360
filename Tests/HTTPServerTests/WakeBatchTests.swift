import CSystem
import Testing
import Threads

#if canImport(Glibc)
import Glibc
#endif

/// The database writer answers a group's callers inside a `WakeBatch`: an event loop's eventfd is signalled once,
/// after the last answer, however many answers it got (it was woken up to twice a group, mid-way).
@Suite("Wake batches")
struct WakeBatchTests {
    /// The eventfd's counter, read (and so reset); 0 when nothing signalled it.
    private func take(_ fd: Int32) -> UInt64 {
        var value: UInt64 = 0
        return read(fd, &value, MemoryLayout<UInt64>.size) == MemoryLayout<UInt64>.size ? value : 0
    }

    @Test func aBatchSignalsEachEventfdOnceAtItsEnd() throws {
        let first = csys_eventfd()
        let second = csys_eventfd()
        defer {
            close(first)
            close(second)
        }
        WakeBatch.run {
            for _ in 0..<3 { _ = csys_eventfd_signal_batched(first) }
            WakeBatch.run { _ = csys_eventfd_signal_batched(second) }
            // Nested: the inner end holds back too, until the outermost.
            #expect(take(first) == 0)
            #expect(take(second) == 0)
        }
        #expect(take(first) == 1)
        #expect(take(second) == 1)
    }

    @Test func outsideABatchASignalIsAtOnce() throws {
        let fd = csys_eventfd()
        defer { close(fd) }
        _ = csys_eventfd_signal_batched(fd)
        _ = csys_eventfd_signal_batched(fd)
        #expect(take(fd) == 2)
    }
}
