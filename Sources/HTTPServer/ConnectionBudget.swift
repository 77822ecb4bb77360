import Synchronization

/// Fair shares of the server's connections, across its loops: no client address holds more than
/// `maxConnectionsPerAddress` (a trusted proxy speaks for many, so it has no cap), and event streams, which stay
/// open, take at most `maxStreamShare` of `maxConnections`, so a few clients cannot fill the site with them.
final class ConnectionBudget: Sendable {
    let perAddress: Int
    let maxStreams: Int
    let trusted: TrustedProxies
    private let counts = Mutex<[String: Int]>([:])
    private let streams = Atomic<Int>(0)

    init(_ configuration: ServerConfiguration) {
        perAddress = configuration.maxConnectionsPerAddress
        maxStreams = max(1, Int(Double(configuration.maxConnections) * configuration.maxStreamShare))
        trusted = configuration.trustedProxies
    }

    /// Counts a connection from `address`; false (nothing counted) when the address has its share.
    func open(_ address: String) -> Bool {
        if trusted.isTrusted(address) { return true }
        return counts.withLock { counts in
            let open = counts[address, default: 0]
            guard open < perAddress else { return false }
            counts[address] = open + 1
            return true
        }
    }

    func close(_ address: String) {
        if trusted.isTrusted(address) { return }
        counts.withLock { counts in
            let open = counts[address, default: 0] - 1
            counts[address] = open > 0 ? open : nil
        }
    }

    /// Counts a stream; false (nothing counted) when streams have their share.
    func openStream() -> Bool {
        if streams.wrappingAdd(1, ordering: .relaxed).newValue <= maxStreams { return true }
        streams.wrappingSubtract(1, ordering: .relaxed)
        return false
    }

    func closeStream() { streams.wrappingSubtract(1, ordering: .relaxed) }
}
