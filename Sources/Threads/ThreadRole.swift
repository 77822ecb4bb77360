import CSystem

/// What the calling thread is for. An event loop must never wait (for a
/// disk flush, a lock held across I/O, the network): code that would can
/// ask, and a debug build stops at the first such wait.
public enum ThreadRole {
    /// Marks the calling thread as an event loop, for its whole life.
    public static func markEventLoop() { csys_set_thread_role(1) }

    public static var isEventLoop: Bool { csys_thread_role() == 1 }

    /// Notes that work on this event loop needed something it may not wait for (a database across the network):
    /// the server runs the request again on a thread that may wait, whatever the work did with the refusal.
    public static func noteWouldWait() { csys_note_would_wait() }

    /// Notes that work on this event loop queued a write: running it again would write twice.
    public static func noteQueuedWrite() { csys_note_queued_write() }
    public static var queuedWrite: Bool { csys_queued_write() == 1 }

    /// Whether `noteWouldWait` was called since the last time this was asked (which forgets both notes).
    public static func takeWouldWait() -> Bool { csys_take_would_wait() == 1 }
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
