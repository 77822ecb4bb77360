
/// A value bound to, or read from, a SQL statement.
public enum SQLValue: Sendable, Equatable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])

    public init(stringLiteral value: String) { self = .text(value) }
    public init(integerLiteral value: Int64) { self = .integer(value) }
    public init(_ value: Int) { self = .integer(Int64(value)) }
    public init(_ value: String?) { self = value.map { .text($0) } ?? .null }
}

/// A result row with typed access by column name.
public struct Row: Sendable {
    public let columns: [String]
    public let values: [SQLValue]

    public subscript(_ name: String) -> SQLValue {
        guard let i = columns.firstIndex(of: name) else { return .null }
        return values[i]
    }

    public func int(_ name: String) -> Int? { if case .integer(let v) = self[name] { Int(v) } else { nil } }
    public func double(_ name: String) -> Double? {
        switch self[name] { case .real(let v): v; case .integer(let v): Double(v); default: nil }
    }
    public func string(_ name: String) -> String? { if case .text(let v) = self[name] { v } else { nil } }
    public func blob(_ name: String) -> [UInt8]? { if case .blob(let v) = self[name] { v } else { nil } }
}

public struct DatabaseError: Error, Sendable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// What an engine does, as one database connection: a statement cache, parameters as `?`.
protocol Connection: AnyObject {
    func execute(_ sql: String, _ values: [SQLValue]) throws(DatabaseError) -> Int
    func query(_ sql: String, _ values: [SQLValue]) throws(DatabaseError) -> [Row]
    /// Several statements (migrations), uncached.
    func executeScript(_ sql: String) throws(DatabaseError)
    /// Opens the one write transaction: SQLite's BEGIN IMMEDIATE, PostgreSQL's global advisory lock.
    func beginWrite() throws(DatabaseError)
    var inTransaction: Bool { get }
    var schemaVersion: Int { get throws(DatabaseError) }
    func setSchemaVersion(_ version: Int) throws(DatabaseError)
}

/// One connection to the database, SQLite or PostgreSQL: every store writes the same calls, with `?` for
/// parameters; `dialect` says which engine it is where the SQL must differ. Use it from one thread at a time;
/// `DatabasePool` gives each thread its own.
public final class Database {
    /// A reader serves requests from its thread; the writer is `DatabaseWriter`'s one connection.
    public enum Role: Sendable { case reader, writer }

    public let location: DatabaseLocation
    /// How messages name the database (a PostgreSQL URL without its password).
    public var path: String { location.description }
    public var dialect: SQLDialect { location.dialect }
    private let connection: any Connection

    public init(location: DatabaseLocation, role: Role = .reader) throws(DatabaseError) {
        self.location = location
        switch location {
        case .sqlite(let path): connection = try SQLiteConnection(path: path, role: role)
        case .postgresql(let url): connection = try PostgresConnection(url: url, role: role)
        }
    }

    public convenience init(path: String, role: Role = .reader) throws(DatabaseError) {
        try self.init(location: .sqlite(path), role: role)
    }

    /// Runs one statement that returns no rows; returns the rows changed.
    @discardableResult
    public func execute(_ sql: String, _ values: [SQLValue] = []) throws(DatabaseError) -> Int {
        try connection.execute(sql, values)
    }

    /// Inserts one row into a table whose key is `id` and returns that key (RETURNING, in both engines).
    public func insert(_ sql: String, _ values: [SQLValue] = []) throws(DatabaseError) -> Int64 {
        guard case .integer(let id) = try connection.query(sql + " RETURNING id", values).first?.values.first else {
            throw DatabaseError("the insert returned no id (in: \(sql.prefix(120)))")
        }
        return id
    }

    /// Runs a script of several statements (migrations), without caching.
    public func executeScript(_ sql: String) throws(DatabaseError) { try connection.executeScript(sql) }

    public func query(_ sql: String, _ values: [SQLValue] = []) throws(DatabaseError) -> [Row] {
        try connection.query(sql, values)
    }

    public func first(_ sql: String, _ values: [SQLValue] = []) throws(DatabaseError) -> Row? {
        try query(sql, values).first
    }

    /// Opens a write transaction that holds the database's one write lock until it ends.
    public func beginWrite() throws(DatabaseError) { try connection.beginWrite() }

    /// Runs `body` in one write transaction: committed when it returns, rolled back when it throws.
    public func transaction<T>(_ body: () throws -> T) throws -> T {
        try beginWrite()
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            _ = try? execute("ROLLBACK")
            throw error
        }
    }

    /// Whether a transaction is open (an engine may end one by itself after some errors).
    public var inTransaction: Bool { connection.inTransaction }

    var schemaVersion: Int { get throws(DatabaseError) { try connection.schemaVersion } }
    func setSchemaVersion(_ version: Int) throws(DatabaseError) { try connection.setSchemaVersion(version) }
}
