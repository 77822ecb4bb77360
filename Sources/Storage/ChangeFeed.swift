import Synchronization
import Threads

#if canImport(Glibc)
import Glibc
#endif

/// What other instances changed in the data this one caches, for a database several instances share (PostgreSQL):
/// triggers bump a version per cached kind (`cache_versions`) and notify `arcade_SCHEMA` with `kind` or `kind:key`
/// when the change commits; a thread of its own listens, and every few seconds compares the versions too, so a
/// notification lost (a dropped connection) still heals. On SQLite there is one instance and nothing to watch.
public final class ChangeFeed: Sendable {
    /// A kind of cached data changed (for one key, when the notification names it); `everything` after a reconnect.
    public typealias Handler = @Sendable (_ kind: String, _ key: String?) -> Void
    public static let everything = "*"

    private let stopping = Atomic<Bool>(false)
    private let thread = Mutex<OSThread?>(nil)

    /// Starts watching, or returns nil for an engine with one instance.
    public static func start(
        _ location: DatabaseLocation, health: DatabaseHealth = DatabaseHealth(), every seconds: Double = 2,
        _ handler: @escaping Handler
    ) -> ChangeFeed? {
        guard case .postgresql(let url) = location else { return nil }
        return ChangeFeed(url: url, health: health, every: seconds, handler)
    }

    /// Also the site's probe: its connection is the first to see the server go (its socket is watched) and, while
    /// the database is unreachable, it tries again as the backoff allows, so readiness returns within a second.
    private let health: DatabaseHealth

    private init(url: String, health: DatabaseHealth, every seconds: Double, _ handler: @escaping Handler) {
        self.health = health
        let started = OSThread { [self] in run(url: url, every: seconds, handler) }
        thread.withLock { $0 = started }
    }

    public func stop() {
        stopping.store(true, ordering: .releasing)
        thread.withLock { started in
            started?.join()
            started = nil
        }
    }

    private static func seconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    private func run(url: String, every interval: Double, _ handler: Handler) {
        var connection: PostgresConnection?
        var versions: [String: Int64]?
        var connectedBefore = false
        var lastCheck = -Double.infinity
        while !stopping.load(ordering: .acquiring) {
            guard let live = connection else {
                do {
                    let fresh = try health.open(again: connectedBefore) { () throws(DatabaseError) in
                        try PostgresConnection(url: url, role: .reader)
                    }
                    // The site's own channel: sites (or tests) in other schemas of the database are not heard.
                    guard let schema = try fresh.query("SELECT current_schema() AS s", []).first?.string("s") else {
                        throw DatabaseError("no current schema")
                    }
                    try fresh.executeScript("LISTEN \"arcade_\(schema.replacing("\"", with: "\"\""))\"")
                    connection = fresh
                    // What changed while nobody listened is unknown: after a reconnect, everything is read again.
                    if connectedBefore { handler(Self.everything, nil) }
                    connectedBefore = true
                    versions = nil
                    lastCheck = -Double.infinity
                } catch {
                    usleep(50_000)  // the backoff refuses at once until its pause is over
                }
                continue
            }
            var waiting = pollfd(fd: live.socket, events: Int16(POLLIN), revents: 0)
            _ = poll(&waiting, 1, 250)
            guard live.consumeInput() else {
                health.lost()
                connection = nil
                continue
            }
            // Each once: a burst of changes elsewhere costs one reading of each kind, not one per change.
            var heard = Set<String>()
            while let payload = live.nextNotification() { heard.insert(payload) }
            for payload in heard {
                if let colon = payload.firstIndex(of: ":") {
                    handler(String(payload[..<colon]), String(payload[payload.index(after: colon)...]))
                } else {
                    handler(payload, nil)
                }
            }
            let now = Self.seconds()
            // Another connection broke: the database answers again once this one does.
            if !health.reachable { lastCheck = -Double.infinity }
            guard now - lastCheck >= interval else { continue }
            lastCheck = now
            do throws(DatabaseError) {
                var current: [String: Int64] = [:]
                for row in try live.query("SELECT name, version FROM cache_versions", []) {
                    if let name = row.string("name"), case .integer(let version) = row["version"] {
                        current[name] = version
                    }
                }
                if let known = versions {
                    for (name, version) in current where known[name] != version { handler(name, nil) }
                }
                versions = current
                if !health.reachable { health.connected(again: false) }
            } catch {
                if error.connectionLost { health.lost() }
                connection = nil
            }
        }
    }
}
