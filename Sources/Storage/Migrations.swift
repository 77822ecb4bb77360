/// Versioned schema changes. `PRAGMA user_version` records how many have
/// run; the pending ones run in a single transaction, so a failure leaves
/// the database as it was.
public struct Migration: Sendable {
    public let version: Int
    public let sql: String

    public init(_ version: Int, _ sql: String) {
        self.version = version
        self.sql = sql
    }
}

extension Database {
    /// Applies the migrations above the current version, in order.
    public func migrate(_ migrations: [Migration]) throws(DatabaseError) {
        let sorted = migrations.sorted { $0.version < $1.version }
        guard let current = try first("PRAGMA user_version")?.int("user_version") else {
            throw DatabaseError("\(path): cannot read the schema version")
        }
        if let newest = sorted.last?.version, current > newest {
            throw DatabaseError("\(path): schema version \(current) is newer than this build knows (\(newest))")
        }
        let pending = sorted.filter { $0.version > current }
        guard let last = pending.last else { return }
        do throws(DatabaseError) {
            try executeScript("BEGIN IMMEDIATE")
            for migration in pending {
                do throws(DatabaseError) { try executeScript(migration.sql) } catch {
                    throw DatabaseError("migration \(migration.version) failed: \(error.message)")
                }
            }
            try executeScript("PRAGMA user_version = \(last.version); COMMIT")
        } catch {
            _ = try? executeScript("ROLLBACK")
            throw DatabaseError("\(path): \(error.message); the database is unchanged")
        }
    }
}
