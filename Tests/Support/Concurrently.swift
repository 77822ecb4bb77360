import CSystem

/// Runs `body(i)` for i in 0..<count on that many OS threads at once, and
/// waits for all of them (tests of concurrent clients).
public func concurrently(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    final class Box {
        let run: () -> Void
        init(_ run: @escaping () -> Void) { self.run = run }
    }
    var handles: [UInt64] = []
    for i in 0..<count {
        let context = Unmanaged.passRetained(Box { body(i) }).toOpaque()
        var handle: UInt64 = 0
        let rc = csys_thread_start(
            { context in
                let box = Unmanaged<Box>.fromOpaque(context!).takeRetainedValue()
                box.run()
            }, context, &handle)
        precondition(rc == 0)
        handles.append(handle)
    }
    for handle in handles { _ = csys_thread_join(handle) }
}
