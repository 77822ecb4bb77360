import Interceptions
import JSON
import Storage
import Synchronization

/// Update rules and maintenance switches in SQLite.
package struct InterceptionsStore: Sendable {
    package static let platforms = ["ios", "android", "web"]
    /// The systems a browser rule may be limited to (those `ClientOS` reads).
    package static let systems = ["ios", "android", "macos", "windows"]
    package let pool: DatabasePool
    /// The site's one clock, for the history's times.
    package var clock: @Sendable () -> Double = WallClock.system
    /// The maintenance switches, read once and kept current by `setMaintenance`,
    /// since every page asks.
    package let switches = Switches()

    package final class Switches: Sendable {
        package let web = Mutex<Maintenance?>(nil)
        package let rules = Mutex<[UpdateRule]?>(nil)
        /// Counts the writes, so watchers (the live-push stream) notice a change without reading the tables.
        package let generation = Atomic<Int>(0)
    }

    /// Writes bump the generation (after they committed) and drop the cached values; so does another instance's
    /// write, through the change feed.
    package func changed() {
        switches.rules.withLock { $0 = nil }
        switches.web.withLock { $0 = nil }
        switches.generation.wrappingAdd(1, ordering: .releasing)
    }

    /// The rules, from memory (every page asks); writes below refresh them.
    package func cachedRules() throws -> [UpdateRule] {
        if let known = switches.rules.withLock({ $0 }) { return known }
        let loaded = try rules()
        switches.rules.withLock { $0 = loaded }
        return loaded
    }

    /// The web's maintenance switch, from memory.
    package func webMaintenance() throws -> Maintenance {
        if let known = switches.web.withLock({ $0 }) { return known }
        let value = try maintenance("web")
        switches.web.withLock { $0 = value }
        return value
    }

    package func rules(in db: Database? = nil) throws -> [UpdateRule] {
        try (db ?? pool.connection()).fetchAll(RuleRow.self, "SELECT \(RuleRow.columns) FROM update_rules ORDER BY id")
            .map(\.rule)
    }

    package func rule(_ id: Int, in db: Database? = nil) throws -> UpdateRule? {
        try (db ?? pool.connection()).fetchOne(
            RuleRow.self, "SELECT \(RuleRow.columns) FROM update_rules WHERE id = ?",
            [SQLValue(id)])?.rule
    }

    /// An `update_rules` row.
    package struct RuleRow: FetchableRecord {
        package static let columns = """
            id, platform, restriction, active, min_app_version, min_app_messages, min_os_version, min_os_messages, os
            """
        package let rule: UpdateRule

        package init(row: Row) throws(DatabaseError) {
            let level: Int = try row.decode("restriction")
            guard let restriction = Restriction(rawValue: level) else {
                throw DatabaseError("update_rules: restriction \(level)")
            }
            let app = requirement(try row.decodeIfPresent("min_app_version"), try row.decode("min_app_messages"))
            let system = requirement(try row.decodeIfPresent("min_os_version"), try row.decode("min_os_messages"))
            rule = UpdateRule(
                id: try row.decode("id"), platform: try row.decode("platform"), restriction: restriction,
                active: try row.decode("active"), minimumApp: app, minimumOS: system,
                os: try row.decodeIfPresent("os"))
        }
    }

    /// A `maintenance` row.
    package struct MaintenanceRow: FetchableRecord {
        package static let columns = "platform, active, messages, ends_at, poll_interval"
        package let platform: String
        package let maintenance: Maintenance

        package init(row: Row) throws(DatabaseError) {
            platform = try row.decode("platform")
            maintenance = Maintenance(
                active: try row.decode("active"), messages: messages(try row.decode("messages", as: String.self)),
                endsAt: try row.decodeIfPresent("ends_at"), pollInterval: try row.decode("poll_interval"))
        }
    }

    /// A `change_history` row.
    package struct ChangeRow: FetchableRecord {
        package static let columns = "id, kind, target, before, after, admin, at"
        package let change: Change

        package init(row: Row) throws(DatabaseError) {
            let name: String = try row.decode("kind")
            guard let kind = Kind(rawValue: name) else { throw DatabaseError("change_history: kind \(name)") }
            change = Change(
                id: try row.decode("id"), kind: kind, target: try row.decode("target"),
                before: try row.decodeIfPresent("before"), after: try row.decodeIfPresent("after"),
                admin: try row.decode("admin"), at: try row.decode("at"))
        }
    }

    @discardableResult
    package func addRule(
        platform: String, restriction: Restriction, active: Bool, minimumApp: (String, [String: String])?,
        minimumOS: (String, [String: String])?, os: String? = nil, by admin: String = "system"
    ) throws -> Int {
        try save(
            UpdateRule(
                id: 0, platform: platform, restriction: restriction, active: active,
                minimumApp: Self.requirement(minimumApp), minimumOS: Self.requirement(minimumOS), os: os), by: admin)
    }

    /// Replaces a rule's fields; false if there is no such rule.
    package func updateRule(
        _ id: Int, platform: String, restriction: Restriction, active: Bool, minimumApp: (String, [String: String])?,
        minimumOS: (String, [String: String])?, os: String? = nil, by admin: String = "system"
    ) throws -> Bool {
        guard try rule(id) != nil else { return false }
        try save(
            UpdateRule(
                id: id, platform: platform, restriction: restriction, active: active,
                minimumApp: Self.requirement(minimumApp), minimumOS: Self.requirement(minimumOS), os: os), by: admin)
        return true
    }

    /// Adds (id 0) or replaces a rule, with its history entry and audit line in the same transaction; returns its id.
    @discardableResult
    package func save(_ rule: UpdateRule, by admin: String) throws -> Int {
        defer { changed() }
        return try pool.write { db in
            let before = try rule.id == 0 ? nil : self.rule(rule.id, in: db)
            let id = try Self.put(rule, in: db)
            let after = try self.rule(id, in: db)
            try record(
                db, .rule, "#\(id)", before: before.map(Self.json), after: after.map(Self.json), by: admin,
                action: before == nil ? "add rule" : "edit rule",
                summary: (before.map(Self.summary), after.map(Self.summary)))
            return id
        }
    }

    package func deleteRule(_ id: Int, by admin: String = "system") throws -> Bool {
        defer { changed() }
        return try pool.write { db in
            guard let before = try rule(id, in: db) else { return false }
            try db.execute("DELETE FROM update_rules WHERE id = ?", [SQLValue(id)])
            try record(
                db, .rule, "#\(id)", before: Self.json(before), after: nil, by: admin, action: "delete rule",
                summary: (Self.summary(before), nil))
            return true
        }
    }

    private static func put(_ rule: UpdateRule, in db: Database) throws -> Int {
        let values: [SQLValue] = [
            .text(rule.platform), SQLValue(rule.restriction.rawValue), SQLValue(rule.active ? 1 : 0),
            SQLValue(rule.minimumApp?.version.text), .text(json(rule.minimumApp?.messages ?? [:])),
            SQLValue(rule.minimumOS?.version.text), .text(json(rule.minimumOS?.messages ?? [:])),
            SQLValue(rule.os),
        ]
        if rule.id == 0 {
            return Int(
                try db.insert(
                    """
                    INSERT INTO update_rules (platform, restriction, active, min_app_version, min_app_messages, min_os_version,
                        min_os_messages, os) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                    """, values))
        }
        // With its id, so a reverted deletion brings the same rule back.
        try db.execute(
            """
            INSERT INTO update_rules (platform, restriction, active, min_app_version, min_app_messages,
                min_os_version, min_os_messages, os, id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (id) DO UPDATE SET platform = excluded.platform, restriction = excluded.restriction,
                active = excluded.active, min_app_version = excluded.min_app_version,
                min_app_messages = excluded.min_app_messages, min_os_version = excluded.min_os_version,
                min_os_messages = excluded.min_os_messages, os = excluded.os
            """, values + [SQLValue(rule.id)])
        return rule.id
    }

    package struct Maintenance: Sendable, Equatable {
        package var active = false
        package var messages: [String: String] = [:]
        package var endsAt: Int?
        package var pollInterval = 30

        package init(active: Bool = false, messages: [String: String] = [:], endsAt: Int? = nil, pollInterval: Int = 30)
        {
            self.active = active
            self.messages = messages
            self.endsAt = endsAt
            self.pollInterval = pollInterval
        }
    }

    package func maintenance(_ platform: String, in db: Database? = nil) throws -> Maintenance {
        try (db ?? pool.connection()).fetchOne(
            MaintenanceRow.self, "SELECT \(MaintenanceRow.columns) FROM maintenance WHERE platform = ?",
            [.text(platform)])?.maintenance ?? Maintenance()
    }

    package func setMaintenance(_ platform: String, _ value: Maintenance, by admin: String = "system") throws {
        defer { changed() }
        try pool.write { db in
            let before = try maintenance(platform, in: db)
            guard before != value else { return }
            try db.execute(
                """
                INSERT INTO maintenance (\(MaintenanceRow.columns)) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (platform) DO UPDATE SET active = excluded.active,
                    messages = excluded.messages, ends_at = excluded.ends_at, poll_interval = excluded.poll_interval
                """,
                [
                    .text(platform), SQLValue(value.active ? 1 : 0), .text(Self.json(value.messages)),
                    value.endsAt.map { SQLValue($0) } ?? .null, SQLValue(value.pollInterval),
                ])
            try record(
                db, .maintenance, platform, before: Self.json(before), after: Self.json(value), by: admin,
                action: "maintenance", summary: (before.active ? "on" : "off", value.active ? "on" : "off"))
        }
    }

    // MARK: history

    package enum Kind: String, Sendable { case rule, maintenance }

    package struct Change: Sendable {
        package let id: Int, kind: Kind, target: String, before: String?, after: String?, admin: String, at: Int
    }

    /// One history entry and its audit line, in the change's own transaction.
    private func record(
        _ db: Database, _ kind: Kind, _ target: String, before: String?, after: String?, by admin: String,
        action: String, summary: (before: String?, after: String?)
    ) throws {
        let at = Int(clock())
        try db.execute(
            "INSERT INTO change_history (kind, target, before, after, admin, at) VALUES (?, ?, ?, ?, ?, ?)",
            [.text(kind.rawValue), .text(target), SQLValue(before), SQLValue(after), .text(admin), SQLValue(at)])
        try AdminStore.audit(
            db, at: at, admin, action: action, target: target, before: summary.before, after: summary.after)
    }

    /// The newest changes first: of one item, or of every one of a kind.
    package func history(_ kind: Kind, target: String? = nil, limit: Int = 50) throws -> [Change] {
        let select = "SELECT \(ChangeRow.columns) FROM change_history"
        let rows =
            if let target {
                try pool.connection().fetchAll(
                    ChangeRow.self,
                    select + " WHERE kind = ? AND target = ? ORDER BY id DESC LIMIT ?",
                    [.text(kind.rawValue), .text(target), SQLValue(limit)])
            } else {
                try pool.connection().fetchAll(
                    ChangeRow.self, "\(select) WHERE kind = ? ORDER BY id DESC LIMIT ?",
                    [.text(kind.rawValue), SQLValue(limit)])
            }
        return rows.map(\.change)
    }

    /// Puts an item back as it was before a change (itself a change, audited); false if there is no such change.
    package func revert(_ id: Int, by admin: String) throws -> Bool {
        let select = "SELECT \(ChangeRow.columns) FROM change_history WHERE id = ?"
        guard let change = try pool.connection().fetchOne(ChangeRow.self, select, [SQLValue(id)])?.change else {
            return false
        }
        let before = change.before
        let target = change.target
        switch change.kind {
        case .maintenance:
            try setMaintenance(target, before.flatMap(Self.maintenance(json:)) ?? Maintenance(), by: admin)
        case .rule:
            guard let ruleID = Int(target.dropFirst()) else { return false }
            if let rule = before.flatMap(Self.rule(json:)) {
                try save(rule, by: admin)
            } else {
                _ = try deleteRule(ruleID, by: admin)
            }
        }
        return true
    }

    /// A rule in a few words, for the audit log: `web high, app ≥ 4.2, OS ≥ 15`.
    package static func summary(_ rule: UpdateRule) -> String {
        var parts = [
            "\(rule.platform)\(rule.os.map { " (\($0))" } ?? "") \(rule.restriction.name)\(rule.active ? "" : " (off)")"
        ]
        if let app = rule.minimumApp { parts.append("app ≥ \(app.version.text)") }
        if let os = rule.minimumOS { parts.append("OS ≥ \(os.version.text)") }
        return parts.joined(separator: ", ")
    }

    // MARK: JSON forms (history, scheduled changes)

    package static func json(_ rule: UpdateRule) -> String {
        func requirement(_ r: Requirement?) -> JSONValue {
            r.map { .object([("version", .string($0.version.text)), ("messages", messagesJSON($0.messages))]) } ?? .null
        }
        return JSONWriter(sortedKeys: true).string(
            .object([
                ("id", .integer(Int64(rule.id))), ("platform", .string(rule.platform)),
                ("restriction", .integer(Int64(rule.restriction.rawValue))), ("active", .bool(rule.active)),
                ("app", requirement(rule.minimumApp)), ("os", requirement(rule.minimumOS)),
                ("system", rule.os.map { .string($0) } ?? .null),
            ]))
    }

    package static func rule(json text: String) -> UpdateRule? {
        guard let value = try? JSONParser.parse(text), let id = value["id"]?.int,
            let platform = value["platform"]?.string,
            let restriction = value["restriction"]?.int.flatMap(Restriction.init)
        else { return nil }
        func requirement(_ v: JSONValue?) -> Requirement? {
            guard let v, let version = v["version"]?.string.flatMap(Version.init) else { return nil }
            return Requirement(version: version, messages: messages(v["messages"]))
        }
        return UpdateRule(
            id: id, platform: platform, restriction: restriction, active: value["active"]?.bool ?? false,
            minimumApp: requirement(value["app"]), minimumOS: requirement(value["os"]), os: value["system"]?.string)
    }

    package static func json(_ m: Maintenance) -> String {
        JSONWriter(sortedKeys: true).string(
            .object([
                ("active", .bool(m.active)), ("messages", messagesJSON(m.messages)),
                ("ends_at", m.endsAt.map { .integer(Int64($0)) } ?? .null),
                ("poll_interval", .integer(Int64(m.pollInterval))),
            ]))
    }

    package static func maintenance(json text: String) -> Maintenance? {
        guard let value = try? JSONParser.parse(text), let active = value["active"]?.bool else { return nil }
        return Maintenance(
            active: active, messages: messages(value["messages"]), endsAt: value["ends_at"]?.int,
            pollInterval: value["poll_interval"]?.int ?? 30)
    }

    private static func messagesJSON(_ messages: [String: String]) -> JSONValue {
        .object(messages.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) })
    }

    private static func messages(_ value: JSONValue?) -> [String: String] {
        Dictionary(
            (value?.members ?? []).compactMap { key, value in value.string.map { (key, $0) } }, uniquingKeysWith: { $1 }
        )
    }

    private static func requirement(_ fields: (String, [String: String])?) -> Requirement? {
        fields.flatMap { version, messages in Version(version).map { Requirement(version: $0, messages: messages) } }
    }

    fileprivate static func requirement(_ version: String?, _ messages: String?) -> Requirement? {
        guard let version, let parsed = Version(version) else { return nil }
        return Requirement(version: parsed, messages: Self.messages(messages))
    }

    package static func messages(_ text: String?) -> [String: String] {
        guard let text, let members = (try? JSONParser.parse(text))?.members else { return [:] }
        return Dictionary(members.compactMap { key, value in value.string.map { (key, $0) } }, uniquingKeysWith: { $1 })
    }

    package static func json(_ messages: [String: String]) -> String {
        JSONWriter(sortedKeys: true).string(.object(messages.map { ($0.key, .string($0.value)) }))
    }

    package init(pool: DatabasePool, clock: @escaping @Sendable () -> Double = WallClock.system) {
        self.pool = pool
        self.clock = clock
    }
}
