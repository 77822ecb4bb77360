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
        /// Each value with the generation it was read in: one read before a write committed is not used after it.
        package let web = Mutex<(Maintenance, generation: Int)?>(nil)
        package let rules = Mutex<([UpdateRule], generation: Int)?>(nil)
        /// Counts the writes, so watchers (the live-push stream) notice a change without reading the tables.
        package let generation = Atomic<Int>(0)
    }

    /// Writes bump the generation after they committed, which makes what was read before stale; so does another
    /// instance's write, through the change feed.
    package func changed() {
        switches.generation.wrappingAdd(1, ordering: .releasing)
    }

    /// The rules, from memory (every page asks); writes below refresh them.
    package func cachedRules() throws -> [UpdateRule] { try cached(switches.rules) { try rules() } }

    /// The web's maintenance switch, from memory.
    package func webMaintenance() throws -> Maintenance { try cached(switches.web) { try maintenance("web") } }

    /// The value read in this generation, else read now. The generation is taken before reading: a write committing
    /// during the reading has bumped it, so what was read is returned to this caller but kept for nobody.
    private func cached<Value: Sendable>(
        _ slot: borrowing Mutex<(Value, generation: Int)?>, _ read: () throws -> Value
    ) throws -> Value {
        let generation = switches.generation.load(ordering: .acquiring)
        if let known = slot.withLock({ $0 }), known.generation == generation { return known.0 }
        let value = try read()
        slot.withLock { kept in
            if generation >= kept?.generation ?? .min { kept = (value, generation) }
        }
        return value
    }

    package func rules(in db: Database? = nil) throws -> [UpdateRule] {
        try (db ?? pool.connection()).fetchAll(
            RuleRow.self, "SELECT \(RuleRow.selection) FROM update_rules ORDER BY id"
        )
        .map(\.rule)
    }

    package func rule(_ id: Int, in db: Database? = nil) throws -> UpdateRule? {
        try (db ?? pool.connection()).fetchOne(
            RuleRow.self, "SELECT \(RuleRow.selection) FROM update_rules WHERE id = ?",
            [SQLValue(id)])?.rule
    }

    /// An `update_rules` row.
    package struct RuleRow: FetchableRecord, TableRecord {
        package static let table = "update_rules"
        package enum Columns: String, ColumnName {
            case id, platform, restriction, active, minAppVersion = "min_app_version"
            case minAppMessages = "min_app_messages", minOSVersion = "min_os_version"
            case minOSMessages = "min_os_messages", os
        }
        package let rule: UpdateRule

        package init(row: Row) throws(DatabaseError) {
            let level: Int = try row.decode(Columns.restriction)
            guard let restriction = Restriction(rawValue: level) else {
                throw DatabaseError("update_rules: restriction \(level)")
            }
            let app = requirement(
                try row.decodeIfPresent(Columns.minAppVersion), try row.decode(Columns.minAppMessages))
            let system = requirement(
                try row.decodeIfPresent(Columns.minOSVersion), try row.decode(Columns.minOSMessages))
            rule = UpdateRule(
                id: try row.decode(Columns.id), platform: try row.decode(Columns.platform), restriction: restriction,
                active: try row.decode(Columns.active), minimumApp: app, minimumOS: system,
                os: try row.decodeIfPresent(Columns.os))
        }

        /// Every column but `id`.
        static func encode(_ rule: UpdateRule, to row: inout ColumnValues<Columns>) {
            row[.platform] = rule.platform
            row[.restriction] = rule.restriction.rawValue
            row[.active] = rule.active
            row[.minAppVersion] = rule.minimumApp?.version.text
            row[.minAppMessages] = json(rule.minimumApp?.messages ?? [:])
            row[.minOSVersion] = rule.minimumOS?.version.text
            row[.minOSMessages] = json(rule.minimumOS?.messages ?? [:])
            row[.os] = rule.os
        }
    }

    /// A `maintenance` row.
    package struct MaintenanceRow: FetchableRecord, TableRecord {
        package static let table = "maintenance"
        package enum Columns: String, ColumnName {
            case platform, active, messages, endsAt = "ends_at", pollInterval = "poll_interval"
        }
        package let platform: String
        package let maintenance: Maintenance

        package init(row: Row) throws(DatabaseError) {
            platform = try row.decode(Columns.platform)
            maintenance = Maintenance(
                active: try row.decode(Columns.active),
                messages: messages(try row.decode(Columns.messages, as: String.self)),
                endsAt: try row.decodeIfPresent(Columns.endsAt), pollInterval: try row.decode(Columns.pollInterval))
        }
    }

    /// A `change_history` row.
    package struct ChangeRow: FetchableRecord, TableRecord {
        package static let table = "change_history"
        package enum Columns: String, ColumnName { case id, kind, target, before, after, admin, at }
        package let change: Change

        package init(row: Row) throws(DatabaseError) {
            let name: String = try row.decode(Columns.kind)
            guard let kind = Kind(rawValue: name) else { throw DatabaseError("change_history: kind \(name)") }
            change = Change(
                id: try row.decode(Columns.id), kind: kind, target: try row.decode(Columns.target),
                before: try row.decodeIfPresent(Columns.before), after: try row.decodeIfPresent(Columns.after),
                admin: try row.decode(Columns.admin), at: try row.decode(Columns.at))
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
        if rule.id == 0 { return Int(try db.insert(RuleRow.insert { RuleRow.encode(rule, to: &$0) })) }
        // With its id, so a reverted deletion brings the same rule back.
        try db.execute(
            RuleRow.upsert(on: .id) { row in
                row[.id] = rule.id
                RuleRow.encode(rule, to: &row)
            })
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
            MaintenanceRow.self, "SELECT \(MaintenanceRow.selection) FROM maintenance WHERE platform = ?",
            [.text(platform)])?.maintenance ?? Maintenance()
    }

    package func setMaintenance(_ platform: String, _ value: Maintenance, by admin: String = "system") throws {
        defer { changed() }
        try pool.write { db in
            let before = try maintenance(platform, in: db)
            guard before != value else { return }
            try db.execute(
                MaintenanceRow.upsert(on: .platform) { row in
                    row[.platform] = platform
                    row[.active] = value.active
                    row[.messages] = Self.json(value.messages)
                    row[.endsAt] = value.endsAt
                    row[.pollInterval] = value.pollInterval
                })
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
            ChangeRow.insert { row in
                row[.kind] = kind.rawValue
                row[.target] = target
                row[.before] = before
                row[.after] = after
                row[.admin] = admin
                row[.at] = at
            })
        try AdminStore.audit(
            db, at: at, admin, action: action, target: target, before: summary.before, after: summary.after)
    }

    /// The newest changes first: of one item, or of every one of a kind.
    package func history(_ kind: Kind, target: String? = nil, limit: Int = 50) throws -> [Change] {
        let select = "SELECT \(ChangeRow.selection) FROM change_history"
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
        let select = "SELECT \(ChangeRow.selection) FROM change_history WHERE id = ?"
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
