import CSystem

/// What the calling thread is for. An event loop must never wait (for a
/// disk flush, a lock held across I/O, the network): code that would can
/// ask, and refuses (the database's writer does, in every build).
public enum ThreadRole {
    /// Marks the calling thread as an event loop, for its whole life.
    public static func markEventLoop() { csys_set_thread_role(1) }

    public static var isEventLoop: Bool { csys_thread_role() == 1 }
}

/// Wake-ups of event loops held back while the calling thread answers many requests at once (the database writer,
/// a group's callers): each loop is woken once, after the last answer, not once per answer or mid-way.
public enum WakeBatch {
    public static func run<T>(_ body: () throws -> T) rethrows -> T {
        csys_wake_batch_begin()
        defer { csys_wake_batch_end() }
        return try body()
    }
}
