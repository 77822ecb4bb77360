import Interceptions
import JSON
import Storage
import Synchronization

/// Update rules and maintenance switches in SQLite.
struct InterceptionsStore: Sendable {
    static let platforms = ["ios", "android", "web"]
    /// The systems a browser rule may be limited to (those `ClientOS` reads).
    static let systems = ["ios", "android", "macos", "windows"]
    let pool: DatabasePool
    /// The maintenance switches, read once and kept current by `setMaintenance`,
    /// since every page asks.
    let switches = Switches()

    final class Switches: Sendable {
        let web = Mutex<Maintenance?>(nil)
        let rules = Mutex<[UpdateRule]?>(nil)
    }

    /// The rules, from memory (every page asks); writes below refresh them.
    func cachedRules() throws -> [UpdateRule] {
        if let known = switches.rules.withLock({ $0 }) { return known }
        let loaded = try rules()
        switches.rules.withLock { $0 = loaded }
        return loaded
    }

    /// The web's maintenance switch, from memory.
    func webMaintenance() throws -> Maintenance {
        if let known = switches.web.withLock({ $0 }) { return known }
        let value = try maintenance("web")
        switches.web.withLock { $0 = value }
        return value
    }

    func rules() throws -> [UpdateRule] {
        try pool.connection().query("SELECT * FROM update_rules ORDER BY id").compactMap { row in
            guard let id = row.int("id"), let platform = row.string("platform"),
                  let restriction = row.int("restriction").flatMap(Restriction.init) else { return nil }
            return UpdateRule(id: id, platform: platform, restriction: restriction, active: row.int("active") == 1,
                              minimumApp: requirement(row.string("min_app_version"), row.string("min_app_messages")),
                              minimumOS: requirement(row.string("min_os_version"), row.string("min_os_messages")), os: row.string("os"))
        }
    }

    @discardableResult
    func addRule(platform: String, restriction: Restriction, active: Bool, minimumApp: (String, [String: String])?,
                 minimumOS: (String, [String: String])?, os: String? = nil) throws -> Int {
        let id = try pool.write { db in
            try db.execute("""
                INSERT INTO update_rules (platform, restriction, active, min_app_version, min_app_messages, min_os_version, min_os_messages, os)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """, [.text(platform), SQLValue(restriction.rawValue), SQLValue(active ? 1 : 0), SQLValue(minimumApp?.0),
                      .text(Self.json(minimumApp?.1 ?? [:])), SQLValue(minimumOS?.0), .text(Self.json(minimumOS?.1 ?? [:])), SQLValue(os)])
            return Int(db.lastInsertID)
        }
        switches.rules.withLock { $0 = nil }
        return id
    }

    /// Replaces a rule's fields; false if there is no such rule.
    func updateRule(_ id: Int, platform: String, restriction: Restriction, active: Bool, minimumApp: (String, [String: String])?,
                    minimumOS: (String, [String: String])?, os: String? = nil) throws -> Bool {
        let changed = try pool.write { db in
            try db.execute("""
                UPDATE update_rules SET platform = ?, restriction = ?, active = ?, min_app_version = ?, min_app_messages = ?,
                    min_os_version = ?, min_os_messages = ?, os = ? WHERE id = ?
                """, [.text(platform), SQLValue(restriction.rawValue), SQLValue(active ? 1 : 0), SQLValue(minimumApp?.0),
                      .text(Self.json(minimumApp?.1 ?? [:])), SQLValue(minimumOS?.0), .text(Self.json(minimumOS?.1 ?? [:])),
                      SQLValue(os), SQLValue(id)]) == 1
        }
        switches.rules.withLock { $0 = nil }
        return changed
    }

    func deleteRule(_ id: Int) throws -> Bool {
        defer { switches.rules.withLock { $0 = nil } }
        return try pool.write { try $0.execute("DELETE FROM update_rules WHERE id = ?", [SQLValue(id)]) == 1 }
    }

    struct Maintenance: Sendable {
        var active = false
        var messages: [String: String] = [:]
        var endsAt: Int?
        var pollInterval = 30
    }

    func maintenance(_ platform: String) throws -> Maintenance {
        guard let row = try pool.connection().first("SELECT * FROM maintenance WHERE platform = ?", [.text(platform)]) else {
            return Maintenance()
        }
        return Maintenance(active: row.int("active") == 1, messages: Self.messages(row.string("messages")),
                           endsAt: row.int("ends_at"), pollInterval: row.int("poll_interval") ?? 30)
    }

    func setMaintenance(_ platform: String, _ value: Maintenance) throws {
        defer { if platform == "web" { switches.web.withLock { $0 = value } } }
        try pool.write { db in
            try db.execute("INSERT OR REPLACE INTO maintenance VALUES (?, ?, ?, ?, ?)", [
                .text(platform), SQLValue(value.active ? 1 : 0), .text(Self.json(value.messages)),
                value.endsAt.map { SQLValue($0) } ?? .null, SQLValue(value.pollInterval)])
        }
    }

    private func requirement(_ version: String?, _ messages: String?) -> Requirement? {
        guard let version, let parsed = Version(version) else { return nil }
        return Requirement(version: parsed, messages: Self.messages(messages))
    }

    static func messages(_ text: String?) -> [String: String] {
        guard let text, let members = (try? JSONParser.parse(text))?.members else { return [:] }
        return Dictionary(members.compactMap { key, value in value.string.map { (key, $0) } }, uniquingKeysWith: { $1 })
    }

    static func json(_ messages: [String: String]) -> String {
        JSONWriter(sortedKeys: true).string(.object(messages.map { ($0.key, .string($0.value)) }))
    }
}
