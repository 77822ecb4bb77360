import Interceptions
import JSON
import Localization
import Storage

/// Changes that start, and may end, at a given time: a maintenance window, a rule switched on for a while, a hotfix
/// for an event. Kept in the database (a restart keeps them) and applied by the site's ticker from the site's one
/// clock, whatever the requests, through the same editors an admin uses, so each start and end is in the history and
/// the audit log. A maintenance switched on with an end time ends by the same tick.
package struct ChangeSchedule: Sendable {
    package let pool: DatabasePool
    package let interceptions: InterceptionsStore
    package let hotfixes: AdminHotfixes
    package let clock: @Sendable () -> Double

    package enum Kind: String, Sendable, CaseIterable { case maintenance, rule, hotfix }

    package struct Change: Sendable {
        package let id: Int, kind: Kind, target: String, payload: JSONValue, startsAt: Int, endsAt: Int?, state: String
        package let admin: String
    }

    /// A `scheduled_changes` row (its `undo` aside); a payload that no longer parses is no change.
    package struct ChangeRow: FetchableRecord, TableRecord {
        package static let table = "scheduled_changes"
        package enum Columns: String, ColumnName {
            case id, kind, target, payload, startsAt = "starts_at", endsAt = "ends_at", state, admin, created
        }
        package let change: Change?

        package init(row: Row) throws(DatabaseError) {
            let name: String = try row.decode(Columns.kind)
            guard let kind = Kind(rawValue: name) else { throw DatabaseError("scheduled_changes: kind \(name)") }
            guard let payload = try? JSONParser.parse(try row.decode(Columns.payload, as: String.self)) else {
                change = nil
                return
            }
            change = Change(
                id: try row.decode(Columns.id), kind: kind, target: try row.decode(Columns.target), payload: payload,
                startsAt: try row.decode(Columns.startsAt), endsAt: try row.decodeIfPresent(Columns.endsAt),
                state: try row.decode(Columns.state), admin: try row.decode(Columns.admin))
        }
    }

    /// A maintenance window for a platform, with its message per language.
    package func maintenance(
        _ platform: String, messages: [String: String], from start: Int, until end: Int?, by admin: String
    ) throws -> Int {
        try add(
            .maintenance, platform, .object(messages.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) }),
            from: start, until: end, by: admin)
    }

    /// A rule switched on at the start (and back as it was at the end).
    package func rule(_ id: Int, from start: Int, until end: Int?, by admin: String) throws -> Int {
        try add(.rule, "#\(id)", .object([]), from: start, until: end, by: admin)
    }

    /// A hotfix set at the start (and the key put back as it was at the end).
    package func hotfix(
        _ key: String, language: String, value: String, from start: Int, until end: Int?, by admin: String
    ) throws -> Int {
        try add(
            .hotfix, key, .object([("language", .string(language)), ("value", .string(value))]), from: start,
            until: end, by: admin)
    }

    private func add(
        _ kind: Kind, _ target: String, _ payload: JSONValue, from start: Int, until end: Int?, by admin: String
    ) throws -> Int {
        try pool.write { db in
            let id = Int(
                try db.insert(
                    ChangeRow.insert { row in
                        row[.kind] = kind.rawValue
                        row[.target] = target
                        row[.payload] = JSONWriter().string(payload)
                        row[.startsAt] = start
                        row[.endsAt] = end
                        row[.admin] = admin
                        row[.created] = Int(clock())
                    }))
            try AdminStore.audit(
                db, at: Int(clock()), admin, action: "schedule \(kind.rawValue)", target: target,
                before: nil, after: UTCTime.format(start) + (end.map { " → " + UTCTime.format($0) } ?? ""))
            return id
        }
    }

    /// Drops a change not yet started; one already started ends now (its end applied at the next tick).
    package func cancel(_ id: Int, by admin: String) throws -> Bool {
        let now = Int(clock())
        return try pool.write { db in
            guard let row = try db.first("SELECT target, state FROM scheduled_changes WHERE id = ?", [SQLValue(id)])
            else {
                return false
            }
            let state: String = try row.decode(ChangeRow.Columns.state)
            guard state == "pending" || state == "started" else { return false }
            if state == "pending" {
                try db.execute("UPDATE scheduled_changes SET state = 'cancelled' WHERE id = ?", [SQLValue(id)])
            } else {
                try db.execute("UPDATE scheduled_changes SET ends_at = ? WHERE id = ?", [SQLValue(now), SQLValue(id)])
            }
            try AdminStore.audit(
                db, at: now, admin, action: "cancel scheduled change", target: "#\(id)",
                before: try row.decode(ChangeRow.Columns.target, as: String.self), after: nil)
            return true
        }
    }

    /// What is still to start or to end, soonest first.
    package func upcoming() throws -> [Change] {
        try pool.connection().fetchAll(
            ChangeRow.self,
            """
            SELECT \(ChangeRow.selection) FROM scheduled_changes WHERE state IN ('pending', 'started')
            ORDER BY CASE state WHEN 'started' THEN ends_at ELSE starts_at END LIMIT 100
            """
        ).compactMap(\.change)
    }

    /// Starts and ends what is due; called by the ticker (never on an event loop: it writes).
    package func applyDue() throws {
        let now = Int(clock())
        let due = try pool.connection().fetchAll(
            ChangeRow.self,
            """
            SELECT \(ChangeRow.selection) FROM scheduled_changes WHERE (state = 'pending' AND starts_at <= ?)
                OR (state = 'started' AND ends_at IS NOT NULL AND ends_at <= ?) ORDER BY id
            """, [SQLValue(now), SQLValue(now)]
        ).compactMap(\.change)
        for change in due {
            // A window already over when first seen (the site was down) still leaves its trace, started and ended.
            if change.state == "pending" {
                let undo = try start(change)
                _ = try pool.write { db in
                    try db.execute(
                        "UPDATE scheduled_changes SET state = 'started', undo = ? WHERE id = ?",
                        [SQLValue(undo), SQLValue(change.id)])
                }
                if let end = change.endsAt, end > now { continue }
            }
            try finish(change)
            _ = try pool.write { db in
                try db.execute("UPDATE scheduled_changes SET state = 'done' WHERE id = ?", [SQLValue(change.id)])
            }
        }
        // A maintenance switched on with an end time ends at it.
        for platform in InterceptionsStore.platforms {
            var m = try interceptions.maintenance(platform)
            if m.active, let end = m.endsAt, end <= now {
                m.active = false
                m.endsAt = nil
                try interceptions.setMaintenance(platform, m, by: "scheduler")
            }
        }
    }

    private func by(_ change: Change) -> String { "\(change.admin) (scheduled #\(change.id))" }

    /// Applies the start; returns what puts things back at the end.
    private func start(_ change: Change) throws -> String? {
        switch change.kind {
        case .maintenance:
            var m = try interceptions.maintenance(change.target)
            let undo = InterceptionsStore.json(m)
            m.active = true
            m.endsAt = change.endsAt
            m.messages = Dictionary(
                (change.payload.members ?? []).compactMap { k, v in v.string.map { (k, $0) } },
                uniquingKeysWith: { $1 })
            try interceptions.setMaintenance(change.target, m, by: by(change))
            return undo
        case .rule:
            guard let id = Int(change.target.dropFirst()), let rule = try interceptions.rule(id) else { return nil }
            try interceptions.save(rule.with(active: true), by: by(change))
            return InterceptionsStore.json(rule)
        case .hotfix:
            guard let language = change.payload["language"]?.string, let value = change.payload["value"]?.string else {
                return nil
            }
            let before = hotfixes.localizer.overlay.values(for: language)[change.target]
            _ = try hotfixes.set(change.target, language: language, to: value, by: by(change))
            return JSONWriter().string(
                .object([("language", .string(language)), ("value", before.map { .string($0) } ?? .null)]))
        }
    }

    /// Applies the end: what the start replaced comes back.
    private func finish(_ change: Change) throws {
        guard change.endsAt != nil else { return }
        let undo = try pool.connection().value(
            String.self, "SELECT undo FROM scheduled_changes WHERE id = ?", [SQLValue(change.id)])
        switch change.kind {
        case .maintenance:
            var m = undo.flatMap(InterceptionsStore.maintenance(json:)) ?? .init()
            // The window ends: if maintenance was off before it, it is off now.
            m.endsAt = nil
            try interceptions.setMaintenance(change.target, m, by: by(change))
        case .rule:
            guard let rule = undo.flatMap(InterceptionsStore.rule(json:)), try interceptions.rule(rule.id) != nil else {
                return
            }
            try interceptions.save(rule, by: by(change))
        case .hotfix:
            guard let undo, let json = try? JSONParser.parse(undo), let language = json["language"]?.string else {
                return
            }
            _ = try hotfixes.set(change.target, language: language, to: json["value"]?.string, by: by(change))
        }
    }

    package init(
        pool: DatabasePool, interceptions: InterceptionsStore, hotfixes: AdminHotfixes,
        clock: @escaping @Sendable () -> Double
    ) {
        self.pool = pool
        self.interceptions = interceptions
        self.hotfixes = hotfixes
        self.clock = clock
    }
}

extension UpdateRule {
    fileprivate func with(active: Bool) -> UpdateRule {
        UpdateRule(
            id: id, platform: platform, restriction: restriction, active: active, minimumApp: minimumApp,
            minimumOS: minimumOS, os: os)
    }
}
