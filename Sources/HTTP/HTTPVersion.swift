/// The HTTP versions this server speaks; any other is answered 505.
public enum HTTPVersion: Sendable, CustomStringConvertible {
    case http10, http11

    public var description: String { self == .http10 ? "HTTP/1.0" : "HTTP/1.1" }
}
