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
}

extension Database {
    /// Applies the migrations above the current version, in order.
    public func migrate(_ migrations: [Migration]) throws(DatabaseError) {
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
            for migration in pending {
                do throws(DatabaseError) { try executeScript(migration.sql(for: dialect)) } catch {
                    throw DatabaseError("migration \(migration.version) failed: \(error.message)")
                }
            }
            if let last = pending.last { try setSchemaVersion(last.version) }
            try executeScript("COMMIT")
        } catch {
            if inTransaction { _ = try? executeScript("ROLLBACK") }
            throw DatabaseError("\(path): \(error.message); the database is unchanged")
        }
    }
}
