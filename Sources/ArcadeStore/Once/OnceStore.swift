import Constants
import Crypto
import Logger
import Once
import Storage
import Synchronization

/// The once-store on SQLite: loads a player's record and scope anchors,
/// runs `Once` on them, and writes the effects it returns in the same
/// transaction, before the response goes out.
package struct OnceStore: Sendable {
    package let pool: DatabasePool
    package var clock: @Sendable () -> Double = WallClock.system
    package let constants: Constants

    package var siteVersion: String { constants.string("site.version", default: Build.version) }

    /// A class: a page passes it to its banners and checks, and a struct's copy retained the whole record.
    package final class Snapshot {
        package let once: Once
        /// The player saw another site version before this one.
        package let sawEarlierVersion: Bool

        package init(once: Once, sawEarlierVersion: Bool) {
            self.once = once
            self.sawEarlierVersion = sawEarlierVersion
        }
    }

    /// Anchors and records read from SQLite, kept for the next request. The
    /// anchors never change once made; a record is dropped on every write.
    package final class Cache: Sendable {
        package let anchors = BoundedCache<AnchorKey, AnchorEntry>(limit: 20_000)
        package let records = BoundedCache<PlayerKey, Once.Record>(limit: 20_000)
        /// Players with a change queued and not committed yet, and how many: their cached record is the only copy of
        /// it, so news of another write (the change feed, often of this instance's own earlier one) must not drop it.
        /// The writer drops it once committed, and the next read then sees both.
        private let queued = Mutex<[PlayerKey: Int]>([:])

        package func queue(_ key: PlayerKey, _ record: Once.Record) {
            queued.withLock { $0[key, default: 0] += 1 }
            records[key] = record
        }

        package func committed(_ key: PlayerKey, _ record: Once.Record) {
            queued.withLock { $0[key] = $0[key].flatMap { $0 > 1 ? $0 - 1 : nil } }
            records.remove(key, ifStill: record)
        }

        /// Another write reached the database: the player's record (every record, for nil) is read again, except
        /// where a queued change still lives only here.
        package func forget(_ key: PlayerKey?) {
            queued.withLock { queued in
                if let key {
                    if queued[key] == nil { records[key] = nil }
                } else if queued.isEmpty {
                    records.removeAll()
                } else {
                    records.removeAll { queued[$0] == nil }
                }
            }
        }
    }

    package struct AnchorEntry: Sendable {
        package let anchors: Once.Anchors
        package let sawEarlierVersion: Bool
    }

    package let cache = Cache()

    /// Whether the player has a row (has made a first write).
    package func hasRow(_ player: String) throws -> Bool { try Player.hasRow(player, pool.connection()) }

    /// Runs `body` on the visitor's once-record. A body that changes nothing
    /// is answered from memory; one that does runs again inside a
    /// transaction on the record as stored, and its effects are committed
    /// before this returns (bodies are pure, so running twice is safe).
    /// With `wait: false` (bookkeeping a page view does on an event loop) the
    /// effects are queued for the writer and the answer is the record as it
    /// will be. `in db`: inside the caller's write, committed with it (a game's end and its marks, one transaction).
    @discardableResult
    package func perform(
        _ visitor: some PlayerSession, wait: Bool = true, in db: Database? = nil,
        _ body: @escaping @Sendable (inout Once) -> [Once.Effect] = { _ in [] }
    ) throws -> Snapshot {
        // The version is read once: a hotfix may change it before the writer runs this.
        let version = siteVersion
        let anchor = try anchors(visitor, version: version)
        let record: Once.Record
        if visitor.isNew {
            record = Once.Record()
        } else if let cached = cache.records[PlayerKey(visitor.playerID)] {
            record = cached
        } else {
            record = try load(visitor.playerID, try pool.connection())
            cache.records[PlayerKey(visitor.playerID)] = record
        }
        // One instant for the request: a body the writer runs later still marks the moment the player acted
        // (a late mark could land after the next version's anchor and look done there).
        let now = clock()
        let clock: @Sendable () -> Double = { now }
        var once = Once(record: record, anchors: anchor.anchors, clock: clock)
        if body(&once).isEmpty { return Snapshot(once: once, sawEarlierVersion: anchor.sawEarlierVersion) }
        let anchors = anchor.anchors
        let change = { @Sendable [self] (db: Database) throws -> Once in
            try ensureRows(visitor, anchors, version: version, db)
            var fresh = Once(record: try load(visitor.playerID, db), anchors: anchors, clock: clock)
            for effect in body(&fresh) { try write(effect, player: visitor.playerID, db) }
            return fresh
        }
        guard wait else {
            // Until the writer commits it, the cached record already holds the change.
            let pending = once.record
            cache.queue(PlayerKey(visitor.playerID), pending)
            pool.writeLater({ db in _ = try change(db) }) { [cache] error in
                // Dropped only once committed (a reader before then would miss the change), and only if no
                // later page view has queued another change on top of it since.
                cache.committed(PlayerKey(visitor.playerID), pending)
                if let error { Log.error("once-store: \(error)", every: "once-store") }
            }
            return Snapshot(once: once, sawEarlierVersion: anchor.sawEarlierVersion)
        }
        cache.records[PlayerKey(visitor.playerID)] = nil
        let written = try db.map(change) ?? pool.write { try change($0) }
        return Snapshot(once: written, sawEarlierVersion: anchor.sawEarlierVersion)
    }

    /// When the player arrived, first saw this version, and began this session: read on the
    /// calling thread; an anchor not stored yet is queued for the writer (never waited for),
    /// and a player without a row (who has only looked) gets anchors at once and no write.
    package struct AnchorKey: Hashable, Sendable {
        package let player, session, version: String

        /// Every page view looks its visitor up: the ids' tails (see `tailFingerprint`); a version is short.
        package func hash(into hasher: inout Hasher) {
            hasher.combine(player.tailFingerprint)
            hasher.combine(session.tailFingerprint)
            hasher.combine(version)
        }
    }

    private func anchors(_ visitor: some PlayerSession, version siteVersion: String) throws -> AnchorEntry {
        if visitor.isNew {
            let at = clock()
            return AnchorEntry(
                anchors: Once.Anchors(install: Double(visitor.player.firstSeen), version: at, session: at),
                sawEarlierVersion: false)
        }
        let key = AnchorKey(player: visitor.playerID, session: visitor.sessionID, version: siteVersion)
        if let known = cache.anchors[key] { return known }
        let db = try pool.connection()
        let now = WallClock.milliseconds(clock)
        let player = SQLValue.text(visitor.playerID)
        let version = SQLValue.text(siteVersion)
        let session = SQLValue.text(visitor.sessionID)
        let entry: AnchorEntry
        if let install = try db.value(Int.self, "SELECT first_seen FROM players WHERE id = ?", [player]) {
            let seen = try db.value(
                Int.self, "SELECT first_seen_ms FROM once_versions WHERE player = ? AND version = ?",
                [player, version])
            let started = try db.value(
                Int.self, "SELECT started_ms FROM once_sessions WHERE player = ? AND session = ?",
                [player, session])
            let earlier = try db.scalar(
                Int.self, "SELECT COUNT(*) AS n FROM once_versions WHERE player = ? AND version != ?",
                [player, version])
            entry = AnchorEntry(
                anchors: Once.Anchors(
                    install: Double(install), version: Double(seen ?? Int(now)) / 1000,
                    session: Double(started ?? Int(now)) / 1000),
                sawEarlierVersion: earlier > 0)
            // A new version is stored when first seen (a few rows a player, ever); a new session only with the
            // player's next write, so page views without the session cookie never add a row each.
            if seen == nil {
                let anchors = entry.anchors
                pool.writeLater({ [self] db in
                    try ensureRows(visitor, anchors, version: siteVersion, session: false, db)
                }) { error in
                    if let error { Log.error("once-store anchors: \(error)", every: "once-store anchors") }
                }
            }
        } else {
            let at = Double(now) / 1000
            entry = AnchorEntry(
                anchors: Once.Anchors(install: Double(visitor.player.firstSeen), version: at, session: at),
                sawEarlierVersion: false)
        }
        cache.anchors[key] = entry
        return entry
    }

    /// The player's row and the anchors in use, made by their first write (inside its transaction).
    /// `session: false` (a page view) leaves the session's row to the player's next write.
    private func ensureRows(
        _ visitor: some PlayerSession, _ anchors: Once.Anchors, version: String, session: Bool = true, _ db: Database
    ) throws {
        try visitor.player.ensureRow(db)
        try db.send(
            Versions.insert("ON CONFLICT DO NOTHING") { row in
                row[.player] = visitor.playerID
                row[.version] = version
                row[.firstSeen] = Int64((anchors.version * 1000).rounded())
            })
        guard session else { return }
        try db.send(
            Sessions.insert("ON CONFLICT DO NOTHING") { row in
                row[.player] = visitor.playerID
                row[.session] = visitor.sessionID
                row[.started] = Int64((anchors.session * 1000).rounded())
            })
    }

    /// `once_versions`: when a player first ran each version of the site.
    package enum Versions: TableRecord {
        package static let table = "once_versions"
        package enum Columns: String, ColumnName { case player, version, firstSeen = "first_seen_ms" }
    }

    /// `once_sessions`: when each of a player's sessions started.
    package enum Sessions: TableRecord {
        package static let table = "once_sessions"
        package enum Columns: String, ColumnName { case player, session, started = "started_ms" }
    }

    private func load(_ player: String, _ db: Database) throws -> Once.Record {
        var record = Once.Record()
        for mark in try db.fetchAll(
            Mark.self, "SELECT \(Mark.selection) FROM once_marks WHERE player = ?", [.text(player)])
        {
            record.done[mark.task, default: [:]][Double(mark.atMilliseconds) / 1000, default: 0] += mark.times
        }
        for todo in try db.fetchAll(
            ToDoRow.self, "SELECT \(ToDoRow.selection) FROM once_todos WHERE player = ?", [.text(player)])
        {
            record.toDos[todo.task] = todo.toDo
        }
        return record
    }

    /// A `once_marks` row.
    package struct Mark: FetchableRecord, TableRecord {
        package static let table = "once_marks"
        package enum Columns: String, ColumnName { case player, task, at = "at_ms", times }
        package let task: String, atMilliseconds: Int64, times: Int

        package init(row: Row) throws(DatabaseError) {
            task = try row.decode(Columns.task)
            atMilliseconds = try row.decode(Columns.at)
            times = try row.decode(Columns.times)
        }
    }

    /// A `once_todos` row.
    package struct ToDoRow: FetchableRecord, TableRecord {
        package static let table = "once_todos"
        package enum Columns: String, ColumnName {
            case player, task, created = "created_ms", expires = "expires_ms", info
        }
        package let task: String, toDo: Once.ToDo

        package init(row: Row) throws(DatabaseError) {
            task = try row.decode(Columns.task)
            toDo = Once.ToDo(
                created: Double(try row.decode(Columns.created, as: Int64.self)) / 1000,
                expires: try row.decodeIfPresent(Columns.expires, as: Int64.self).map { Double($0) / 1000 },
                info: try row.decodeIfPresent(Columns.info))
        }
    }

    private func write(_ effect: Once.Effect, player: String, _ db: Database) throws {
        let p = SQLValue.text(player)
        switch effect {
        case .mark(let task, let at):
            try db.send(
                Mark.insert("ON CONFLICT (player, task, at_ms) DO UPDATE SET times = once_marks.times + 1") { row in
                    row[.player] = player
                    row[.task] = task
                    row[.at] = Int64((at * 1000).rounded())
                })
        case .setToDo(let task, let item):
            try db.send(
                ToDoRow.upsert(on: .player, .task) { row in
                    row[.player] = player
                    row[.task] = task
                    row[.created] = Int64((item.created * 1000).rounded())
                    row[.expires] = item.expires.map { Int64(($0 * 1000).rounded()) }
                    row[.info] = item.info
                })
        case .removeToDo(let task):
            try db.send("DELETE FROM once_todos WHERE player = ? AND task = ?", [p, .text(task)])
        case .clearDone(let task):
            try db.send("DELETE FROM once_marks WHERE player = ? AND task = ?", [p, .text(task)])
        case .clearAll:
            try db.send("DELETE FROM once_marks WHERE player = ?", [p])
            try db.send("DELETE FROM once_todos WHERE player = ?", [p])
        }
    }

    package init(pool: DatabasePool, clock: @escaping @Sendable () -> Double = WallClock.system, constants: Constants) {
        self.pool = pool
        self.clock = clock
        self.constants = constants
    }
}

extension OnceStore {
    /// A Mastermind game's end marks it played (and won), and after a first win invites the player to the Name Game
    /// for three days, in the transaction that ends the game: a mark refused leaves the game in play.
    package func mastermindEnded(for visitor: some PlayerSession) -> MastermindStore.Ended {
        { [self] record, db in
            try perform(visitor, in: db) { o in
                var effects = o.markDone(SiteTasks.mastermindPlayed)
                if record.game.outcome == .won {
                    effects += o.markDone(SiteTasks.mastermindWon)
                    if o.count(SiteTasks.mastermindWon) == 1 && !o.beenDone(SiteTasks.nameGamePlayed) {
                        effects += o.toDo(SiteTasks.tryNameGame, scope: .until(3 * 86_400))
                    }
                }
                return effects
            }
        }
    }

    /// A finished Name Game round marks the game played (and the reminder to try it done), in the transaction that
    /// ends it: a mark refused leaves the round open, to be answered again.
    package func nameGameEnded(for visitor: some PlayerSession) -> NameGameStore.Ended {
        { [self] db in
            try perform(visitor, in: db) { $0.markDone(SiteTasks.nameGamePlayed) + $0.markDone(SiteTasks.tryNameGame) }
        }
    }
}
