#if canImport(Glibc)
import Glibc
#endif

/// Versioned schema changes. The engine records how many have run (SQLite's `user_version`, PostgreSQL's
/// `arcade_schema` table); the pending ones run in a single write transaction, so a failure leaves the database
/// as it was, and two instances starting at once take turns.
public struct Migration: Sendable {
    public let version: Int
    /// In SQLite's words; translated for PostgreSQL unless `postgresql` says otherwise.
    public let sql: String
    public let postgresql: String?

    public init(_ version: Int, _ sql: String, postgresql: String? = nil) {
        self.version = version
        self.sql = sql
        self.postgresql = postgresql
    }

    public func sql(for dialect: SQLDialect) -> String {
        dialect == .postgresql ? dialect.schema(postgresql ?? sql) : sql
    }

    /// The monotonic clock, to time a migration.
    static func seconds() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }
}

extension Database {
    /// Applies the migrations above the current version, in order. `applied` hears of each once all are committed:
    /// its version and the seconds it took (an operator sees what an upgrade did and how long it held the lock).
    public func migrate(
        _ migrations: [Migration], applied: (_ version: Int, _ seconds: Double) -> Void = { _, _ in }
    ) throws(DatabaseError) {
        let sorted = migrations.sorted { $0.version < $1.version }
        do throws(DatabaseError) {
            try beginWrite()
            if dialect == .postgresql {
                try executeScript(
                    "SELECT pg_advisory_xact_lock(\(PostgresConnection.lock(PostgresConnection.migrationLock)))")
            }
            let current = try schemaVersion
            if let newest = sorted.last?.version, current > newest {
                throw DatabaseError("schema version \(current) is newer than this build knows (\(newest))")
            }
            let pending = sorted.filter { $0.version > current }
            var took: [Double] = []
            for migration in pending {
                let started = Migration.seconds()
                do throws(DatabaseError) { try executeScript(migration.sql(for: dialect)) } catch {
                    throw DatabaseError("migration \(migration.version) failed: \(error.message)")
                }
                took.append(Migration.seconds() - started)
            }
            if let last = pending.last { try setSchemaVersion(last.version) }
            try executeScript("COMMIT")
            for (migration, seconds) in zip(pending, took) { applied(migration.version, seconds) }
        } catch {
            if inTransaction { _ = try? executeScript("ROLLBACK") }
            throw DatabaseError("\(path): \(error.message); the database is unchanged")
        }
    }
}
