import CSystem

/// A joinable OS thread running a closure; Foundation's Thread without Foundation.
public struct OSThread: Sendable {
    private let handle: UInt64

    public init(_ body: @escaping @Sendable () -> Void) {
        final class Box {
            let body: @Sendable () -> Void
            init(_ b: @escaping @Sendable () -> Void) { body = b }
        }
        let context = Unmanaged.passRetained(Box(body)).toOpaque()
        var handle: UInt64 = 0
        let rc = csys_thread_start(
            { context in
                let box = Unmanaged<AnyObject>.fromOpaque(context!).takeRetainedValue() as! Box
                box.body()
            }, context, &handle)
        precondition(rc == 0, "pthread_create failed: \(rc)")
        self.handle = handle
    }

    public func join() { _ = csys_thread_join(handle) }
}
