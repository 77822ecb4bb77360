import Files
import Logger
import Storage
import Synchronization
import Threads

#if canImport(Glibc)
import Glibc
#endif

/// Work one instance does now and then, on a thread of its own (a backup may take minutes; the site ticker must
/// not wait for it): scheduled backups into `--backup-dir`, the newest `--backup-keep` kept, and once a day the
/// players inactive for `--forget-after` days who never finished anything are deleted, in small batches that each
/// hold the writer briefly; and each closed day of the admin's insights is summed once. On PostgreSQL only the
/// leading instance does any of these. Every instance sums today's hours of the insights for its own page.
package final class Housekeeping: Sendable {
    /// The last scheduled backup, for the admin dashboard: kept in the database, so every instance shows the one
    /// the leader took.
    package struct Outcome: Sendable, FetchableRecord, TableRecord {
        package static let table = "backup_status"
        /// `id` is 1, the table's one row.
        package enum Columns: String, ColumnName { case id, at, path, bytes, rows = "row_count", error }
        package let at: Int
        package let path: String
        package let bytes: Int
        package let rows: Int
        package let error: String?

        package init(at: Int, path: String, bytes: Int, rows: Int, error: String?) {
            (self.at, self.path, self.bytes, self.rows, self.error) = (at, path, bytes, rows, error)
        }

        package init(row: Row) throws(DatabaseError) {
            at = try row.decode(Columns.at)
            path = try row.decode(Columns.path)
            bytes = try row.decode(Columns.bytes)
            rows = try row.decode(Columns.rows)
            error = try row.decodeIfPresent(Columns.error)
        }
    }

    package let folder: String?
    private let pool: DatabasePool
    private let thread = Mutex<PeriodicThread?>(nil)
    private let settings: Settings
    private let leadership: Leadership
    private let insights: InsightsStore

    /// What the thread does and how often, as the command line sets it.
    package struct Settings: Sendable {
        /// Scheduled backups go there; none without.
        package var backups: String?
        package var database: DatabaseLocation
        package var photos: String
        package var backupHours: Double
        package var backupKeep: Int
        /// Days after which a player who never finished anything and stopped coming is deleted (0: never).
        package var forgetAfter: Int
        package var clock: @Sendable () -> Double

        package init(
            backups: String? = nil, database: DatabaseLocation, photos: String, backupHours: Double, backupKeep: Int,
            forgetAfter: Int, clock: @escaping @Sendable () -> Double
        ) {
            self.backups = backups
            self.database = database
            self.photos = photos
            self.backupHours = backupHours
            self.backupKeep = backupKeep
            self.forgetAfter = forgetAfter
            self.clock = clock
        }
    }

    package init(_ settings: Settings, pool: DatabasePool, leadership: Leadership, insights: InsightsStore) {
        folder = settings.backups
        self.pool = pool
        self.settings = settings
        self.leadership = leadership
        self.insights = insights
    }

    /// Starts the thread, once: from `Services.startBackground`, after every step of the start that may fail (started
    /// in `init`, it outlived a start that failed later; the newcomer's review).
    package func start() {
        thread.withLock { running in
            if running == nil { running = PeriodicThread(idle: 0.1, turn()) }
        }
    }

    /// One turn of the thread: what is due now.
    private func turn() -> @Sendable () -> Bool {
        let (settings, leadership, insights, pool) = (settings, leadership, insights, pool)
        let backup = Backup(source: settings.database, photos: settings.photos)
        let every = Int(settings.backupHours * 3600)
        let keep = settings.backupKeep
        let clock = settings.clock
        let forgetAfter = settings.forgetAfter
        // After a restart the schedule continues from the newest backup there is.
        let newest = folder.flatMap { Self.backups(in: $0).last.map { Self.modified(folder! + "/" + $0) } } ?? 0
        let nextBackup = Mutex(newest == 0 ? Int(clock()) : newest + every)
        let nextPrune = Mutex(Int(clock()))
        let nextRollup = Mutex(Int.min)
        let nextHour = Mutex(Int.min)
        return { [self, folder] in
            let now = Int(clock())
            var worked = false
            if let folder, now >= nextBackup.withLock({ $0 }) && leadership.held() {
                nextBackup.withLock { $0 = now + every }
                run(backup, folder: folder, keep: keep, at: now)
            }
            // One closed day of the insights a turn; once none is left, look again in a minute.
            if now >= nextRollup.withLock({ $0 }) && leadership.held() {
                if insights.rollUpNextDay(now: now) { worked = true } else { nextRollup.withLock { $0 = now + 60 } }
            }
            // Every instance sums today's hours for itself, one a turn, so its page sums only the last one live.
            if now >= nextHour.withLock({ $0 }) {
                if insights.sumNextHour(now: now) { worked = true } else { nextHour.withLock { $0 = now + 30 } }
            }
            if forgetAfter > 0, now >= nextPrune.withLock({ $0 }) && leadership.held() {
                nextPrune.withLock { $0 = now + 86_400 }
                prune(pool, before: now - forgetAfter * 86_400)
            }
            // A backlog goes on at once (each step is short and off the loops); an idle turn waits.
            return worked
        }
    }

    /// The last scheduled backup any instance took, if one has.
    package func lastBackup() throws -> Outcome? {
        try pool.connection().fetchOne(
            Outcome.self, "SELECT \(Outcome.selection) FROM backup_status WHERE id = 1")
    }

    private func record(_ outcome: Outcome) {
        do {
            _ = try pool.write { db in
                try db.execute(
                    Outcome.upsert(on: .id) { row in
                        row[.id] = 1
                        row[.at] = outcome.at
                        row[.path] = outcome.path
                        row[.bytes] = outcome.bytes
                        row[.rows] = outcome.rows
                        row[.error] = outcome.error
                    })
            }
        } catch {
            Log.error("backup: could not record the outcome: \(error)")
        }
    }

    private func run(_ backup: Backup, folder: String, keep: Int, at now: Int) {
        let path = folder + "/" + Self.name(at: now)
        do {
            let report = try backup.write(to: path)
            record(Outcome(at: now, path: path, bytes: report.bytes, rows: report.rows, error: nil))
            Log.info("backup: \(report.rows) rows, \(report.bytes) bytes to \(path)")
            for old in Self.backups(in: folder).dropLast(keep) { Files.remove(folder + "/" + old) }
        } catch {
            record(Outcome(at: now, path: path, bytes: 0, rows: 0, error: "\(error)"))
            Log.error("backup to \(path) failed: \(error)")
        }
    }

    private func prune(_ pool: DatabasePool, before cutoff: Int) {
        do {
            let removed = try PlayerData.prune(
                before: cutoff, dryRun: false, read: { try pool.connection() }, write: { try pool.write($0) })
            if removed > 0 { Log.info("retention: forgot \(removed) inactive players without results") }
        } catch {
            Log.error("retention: \(error)")
        }
    }

    package func stop() { thread.withLock { $0 }?.stop() }

    /// `arcade-20261123-220100.sqlite`: names sort by time.
    package static func name(at seconds: Int) -> String {
        var t = time_t(seconds)
        var parts = tm()
        gmtime_r(&t, &parts)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "arcade-\(parts.tm_year + 1900)\(two(parts.tm_mon + 1))\(two(parts.tm_mday))-"
            + "\(two(parts.tm_hour))\(two(parts.tm_min))\(two(parts.tm_sec)).sqlite"
    }

    /// The scheduled backups in a folder, oldest first (other files are left alone).
    package static func backups(in folder: String) -> [String] {
        (Files.list(folder) ?? []).filter { $0.hasPrefix("arcade-") && $0.hasSuffix(".sqlite") && $0.count == 29 }
            .sorted()
    }

    private static func modified(_ path: String) -> Int {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_mtim.tv_sec) : 0
    }
}
