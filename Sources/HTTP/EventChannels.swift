import Synchronization

/// Server-Sent Events (text/event-stream) by named channel. A handler answers with `Response.eventStream`; the
/// connection then stays open, idle, and every event published to its channel is written to it, from any thread.
/// The server attaches itself here: the site publishes without knowing about loops or connections.
public final class EventChannels: Sendable {
    public typealias Sink = @Sendable (_ channel: String, _ bytes: [UInt8]) -> Void
    private let sinks = Mutex<[(id: Int, sink: Sink)]>([])
    private let nextID = Atomic<Int>(0)

    public init() {}

    /// A server's way in; returns what `detach` takes when it stops.
    public func attach(_ sink: @escaping Sink) -> Int {
        let id = nextID.wrappingAdd(1, ordering: .relaxed).newValue
        sinks.withLock { $0.append((id, sink)) }
        return id
    }

    public func detach(_ id: Int) { sinks.withLock { $0.removeAll { $0.id == id } } }

    /// Sends one event (`event:` name, `data:` lines) to every stream open on the channel.
    public func publish(_ channel: String, event: String, data: String) {
        let bytes = Self.encode(event: event, data: data)
        for entry in sinks.withLock({ $0 }) { entry.sink(channel, bytes) }
    }

    /// An event in the wire format; a newline in the data starts another `data:` line, as the format requires.
    public static func encode(event: String, data: String) -> [UInt8] {
        var text = "event: " + event.filter { $0 != "\n" && $0 != "\r" } + "\n"
        for line in data.split(separator: "\n", omittingEmptySubsequences: false) { text += "data: " + line + "\n" }
        return Array((text + "\n").utf8)
    }

    /// A comment line: keeps proxies and the browser from timing the stream out.
    public static let heartbeat = Array(":\n\n".utf8)
}
