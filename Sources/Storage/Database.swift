/// A value bound to, or read from, a SQL statement.
public enum SQLValue: Sendable, Hashable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
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
    /// The statement that read it, for errors that say where a column was expected.
    public let query: String

    public init(columns: [String], values: [SQLValue], query: String = "") {
        self.columns = columns
        self.values = values
        self.query = query
    }

    public subscript(_ name: String) -> SQLValue {
        guard let i = columns.firstIndex(of: name) else { return .null }
        return values[i]
    }

    public func int(_ name: String) -> Int? { if case .integer(let v) = self[name] { Int(v) } else { nil } }
    public func double(_ name: String) -> Double? {
        switch self[name] {
        case .real(let v): v
        case .integer(let v): Double(v)
        default: nil
        }
    }
    public func string(_ name: String) -> String? { if case .text(let v) = self[name] { v } else { nil } }
    public func blob(_ name: String) -> [UInt8]? { if case .blob(let v) = self[name] { v } else { nil } }

    /// A `NOT NULL` column, trusted to be there: missing, NULL or of another type is an error naming the column
    /// and the query, never a default.
    public func decode<T: ColumnValue>(_ name: String, as type: T.Type = T.self) throws(DatabaseError) -> T {
        guard let value = try decodeIfPresent(name, as: type) else { throw problem(name, "is NULL") }
        return value
    }

    /// A nullable column: NULL is nil; a missing column or a value of another type is an error.
    public func decodeIfPresent<T: ColumnValue>(_ name: String, as type: T.Type = T.self) throws(DatabaseError) -> T? {
        guard let i = columns.firstIndex(of: name) else { throw problem(name, "is missing") }
        if values[i] == .null { return nil }
        guard let value = T(column: values[i]) else { throw problem(name, "is not \(T.self) (\(values[i]))") }
        return value
    }

    private func problem(_ name: String, _ what: String) -> DatabaseError {
        DatabaseError("column \(name) \(what) (in: \(query.prefix(160)))")
    }
}

/// What a column may be read as, from the value either engine returns, and written as.
public protocol ColumnValue {
    init?(column value: SQLValue)
    var sqlValue: SQLValue { get }
}

extension SQLValue: ColumnValue {
    public init?(column value: SQLValue) { self = value }
    public var sqlValue: SQLValue { self }
}

extension Int64: ColumnValue {
    public init?(column value: SQLValue) {
        guard case .integer(let v) = value else { return nil }
        self = v
    }
    public var sqlValue: SQLValue { .integer(self) }
}
extension Int: ColumnValue {
    public init?(column value: SQLValue) {
        guard case .integer(let v) = value else { return nil }
        self = Int(v)
    }
    public var sqlValue: SQLValue { .integer(Int64(self)) }
}
/// SQLite's 0 and 1, and PostgreSQL's booleans as the connection returns them.
extension Bool: ColumnValue {
    public init?(column value: SQLValue) {
        guard case .integer(let v) = value else { return nil }
        self = v != 0
    }
    public var sqlValue: SQLValue { .integer(self ? 1 : 0) }
}
extension Double: ColumnValue {
    public init?(column value: SQLValue) {
        switch value {
        case .real(let v): self = v
        case .integer(let v): self = Double(v)
        default: return nil
        }
    }
    public var sqlValue: SQLValue { .real(self) }
}
extension String: ColumnValue {
    public init?(column value: SQLValue) {
        guard case .text(let v) = value else { return nil }
        self = v
    }
    public var sqlValue: SQLValue { .text(self) }
}
extension Array: ColumnValue where Element == UInt8 {
    public init?(column value: SQLValue) {
        guard case .blob(let v) = value else { return nil }
        self = v
    }
    public var sqlValue: SQLValue { .blob(self) }
}

/// A record read from a row: its initializer trusts the schema, so a row that does not fit is an error, not defaults.
public protocol FetchableRecord {
    init(row: Row) throws(DatabaseError)
}

public struct DatabaseError: Error, Sendable, CustomStringConvertible {
    public let message: String
    /// PostgreSQL's SQLSTATE ("" for SQLite and for errors of our own).
    public let sqlState: String
    /// In a pipelined group, the transaction whose statement failed (the writer's index), if known.
    let job: Int?
    public init(_ message: String, sqlState: String = "", job: Int? = nil) {
        self.message = message
        self.sqlState = sqlState
        self.job = job
    }
    public var description: String { message }

    /// A deadlock or a serialization failure: the transaction lost a race with another instance and may run again.
    /// Once the writer has retried it enough, its caller is told the site is busy (503), not broken.
    public var isContention: Bool { sqlState == "40P01" || sqlState == "40001" }

    /// The refusal of a PostgreSQL connection on an event loop: a route placed on the loop that reads.
    public static let onEventLoop = DatabaseError("an event loop may not wait for PostgreSQL")
    /// The refusal of a write asked on an event loop, whose commit the loop would wait for (a route placed on the loop
    /// that writes: place it with `.pool`).
    public static let commitOnEventLoop = DatabaseError(
        "an event loop may not wait for a commit: place the route on the pool")
    /// The writer's queue is full: nothing was written; the caller may try again in a moment.
    public static let busy = DatabaseError("the database writer is busy")
    public var isBusy: Bool { message == Self.busy.message }

    /// The database cannot be used now, though nothing is wrong with the request: a PostgreSQL connection broke or
    /// cannot be opened (SQLSTATE class 08, or the server shutting down or starting: 57P01–57P03), or an SQLite file
    /// is on a full disk, read-only or failing (given PostgreSQL's codes for those, 53100, 25006 and 58030). The caller answers 503.
    public var unavailable: Bool {
        sqlState.hasPrefix("08") || sqlState.hasPrefix("57P") || sqlState == "53100" || sqlState == "25006"
            || sqlState == "58030"
    }
    /// The connection broke after a COMMIT was sent and before its answer came (SQLSTATE 08007, "transaction
    /// resolution unknown"): the write may or may not be in the database, so it is reported, never run again.
    public var outcomeUnknown: Bool { sqlState == "08007" }
    /// A PostgreSQL connection broke, or could not be opened.
    public var connectionLost: Bool { sqlState.hasPrefix("08") || sqlState.hasPrefix("57P") }
}

/// What an engine does, as one database connection: a statement cache, parameters as `?`.
protocol Connection: AnyObject {
    func execute(_ sql: String, _ values: [SQLValue]) throws(DatabaseError) -> Int
    func query(_ sql: String, _ values: [SQLValue]) throws(DatabaseError) -> [Row]
    /// Several statements (migrations), uncached.
    func executeScript(_ sql: String) throws(DatabaseError)
    /// Opens a write transaction: SQLite's BEGIN IMMEDIATE (its one write lock), PostgreSQL's BEGIN (rows lock
    /// themselves, so instances writing for different players never wait for each other).
    func beginWrite() throws(DatabaseError)
    /// The writer's group: a write transaction whose statements may be sent without waiting (`send`); PostgreSQL's
    /// pipeline mode.
    func beginGroup() throws(DatabaseError)
    /// Runs a statement whose answer nobody reads: on PostgreSQL in a group it goes with the next one that waits,
    /// and its failure is reported there (with `job`, the transaction that sent it).
    func send(_ sql: String, _ values: [SQLValue]) throws(DatabaseError)
    /// The writer's transaction now running, so a failure reported later names the one that caused it.
    var job: Int { get set }
    /// Times this connection waited for the server (PostgreSQL; 0 for SQLite, which never waits on a network).
    var roundTrips: Int { get }
    var inTransaction: Bool { get }
    var schemaVersion: Int { get throws(DatabaseError) }
    func setSchemaVersion(_ version: Int) throws(DatabaseError)
}

/// One connection to the database, SQLite or PostgreSQL: every store writes the same calls, with `?` for
/// parameters; `dialect` says which engine it is where the SQL must differ. Use it from one thread at a time;
/// `DatabasePool` gives each thread its own.
public final class Database {
    /// A reader serves requests from its thread; the writer is `DatabaseWriter`'s one connection.
    /// `pooled`: a `DatabasePool`'s reader, which refuses writes, so that only the writer writes (a review: readers
    /// opened read-write made that a convention); `reader`: a connection of its own (commands, tests).
    public enum Role: Sendable { case reader, pooled, writer }

    public let location: DatabaseLocation
    /// How messages name the database (a PostgreSQL URL without its password).
    public var path: String { location.description }
    public var dialect: SQLDialect { location.dialect }
    private var connection: any Connection
    private let role: Role
    /// The outage count of the site's health when this connection was opened (see `DatabaseHealth.outages`).
    var epoch = 0
    /// Told when this connection breaks (the pool's and the writer's connections).
    var health: DatabaseHealth?

    /// Runs a call of the connection; a broken connection is reported to the site's health on the way out.
    @inline(__always)
    private func watching<T>(_ body: () throws(DatabaseError) -> T) throws(DatabaseError) -> T {
        do {
            return try body()
        } catch {
            if error.connectionLost { health?.lost() }
            throw error
        }
    }

    public init(location: DatabaseLocation, role: Role = .reader) throws(DatabaseError) {
        self.location = location
        self.role = role
        connection = try Self.open(location, role)
        postgres = connection as? PostgresConnection
    }

    private static func open(_ location: DatabaseLocation, _ role: Role) throws(DatabaseError) -> any Connection {
        switch location {
        case .sqlite(let path): try SQLiteConnection(path: path, role: role)
        case .postgresql(let url): try PostgresConnection(url: url, role: role)
        }
    }

    /// True when the connection is known to be broken (libpq learnt it when it last talked to the server).
    var isBroken: Bool { postgres?.isBroken ?? false }
    /// The connection, when it is PostgreSQL's (checked on every use of a pooled connection: no cast there).
    private var postgres: PostgresConnection?

    /// Replaces the connection by a new one (its statements are prepared again as they are used); a transaction
    /// the old one had open ends with it.
    func reconnect() throws(DatabaseError) {
        connection = try Self.open(location, role)
        postgres = connection as? PostgresConnection
        prefetched = [:]
    }

    public convenience init(path: String, role: Role = .reader) throws(DatabaseError) {
        try self.init(location: .sqlite(path), role: role)
    }

    /// Runs one statement that returns no rows; returns the rows changed.
    @discardableResult
    public func execute(_ sql: String, _ values: [SQLValue] = []) throws(DatabaseError) -> Int {
        try watching { () throws(DatabaseError) in try connection.execute(sql, values) }
    }

    /// Inserts one row into a table whose key is `id` and returns that key (RETURNING, in both engines).
    public func insert(_ sql: String, _ values: [SQLValue] = []) throws(DatabaseError) -> Int64 {
        guard case .integer(let id) = try query(sql + " RETURNING id", values).first?.values.first else {
            throw DatabaseError("the insert returned no id (in: \(sql.prefix(120)))")
        }
        return id
    }

    /// Runs a script of several statements (migrations), without caching.
    public func executeScript(_ sql: String) throws(DatabaseError) {
        try watching { () throws(DatabaseError) in try connection.executeScript(sql) }
    }

    public func query(_ sql: String, _ values: [SQLValue] = []) throws(DatabaseError) -> [Row] {
        if !prefetched.isEmpty,
            let rows = prefetched.removeValue(forKey: PrefetchKey(job: connection.job, sql: sql, values: values))
        {
            return rows
        }
        return try watching { () throws(DatabaseError) in try connection.query(sql, values) }
    }

    public func first(_ sql: String, _ values: [SQLValue] = []) throws(DatabaseError) -> Row? {
        try query(sql, values).first
    }

    /// Every row as a record.
    public func fetchAll<R: FetchableRecord>(
        _ type: R.Type, _ sql: String, _ values: [SQLValue] = []
    )
        throws(DatabaseError) -> [R]
    {
        var records: [R] = []
        for row in try query(sql, values) { records.append(try R(row: row)) }
        return records
    }

    /// The first row as a record, if there is one.
    public func fetchOne<R: FetchableRecord>(
        _ type: R.Type, _ sql: String, _ values: [SQLValue] = []
    )
        throws(DatabaseError) -> R?
    {
        try first(sql, values).map { row throws(DatabaseError) in try R(row: row) }
    }

    /// The one value a query always returns (a COUNT): no row, or NULL, is an error naming the query.
    public func scalar<T: ColumnValue>(
        _ type: T.Type, _ sql: String, _ values: [SQLValue] = []
    ) throws(DatabaseError)
        -> T
    {
        guard let row = try first(sql, values), let name = row.columns.first else {
            throw DatabaseError("no row (in: \(sql.prefix(160)))")
        }
        return try row.decode(name, as: type)
    }

    /// One value: the first column of the first row (a COUNT, a MAX …); nil when there is no row or it is NULL.
    public func value<T: ColumnValue>(
        _ type: T.Type, _ sql: String, _ values: [SQLValue] = []
    ) throws(DatabaseError)
        -> T?
    {
        guard let row = try first(sql, values), let name = row.columns.first else { return nil }
        return try row.decodeIfPresent(name, as: type)
    }

    /// Opens a write transaction (on SQLite, holding its one write lock until it ends).
    public func beginWrite() throws(DatabaseError) { try connection.beginWrite() }

    /// Runs a statement whose result is not needed (no rows, no count): on PostgreSQL, inside the writer's
    /// transactions, it travels with the next statement that waits for an answer instead of costing a round trip of
    /// its own; its error, if any, fails the transaction all the same.
    public func send(_ sql: String, _ values: [SQLValue] = []) throws(DatabaseError) {
        try watching { () throws(DatabaseError) in try connection.send(sql, values) }
    }

    /// SQL's row lock for a SELECT that reads what the transaction will change (PostgreSQL's `FOR UPDATE`; SQLite
    /// writes one transaction at a time, and has no such clause).
    public var forUpdate: String { dialect == .postgresql ? " FOR UPDATE" : "" }

    func beginGroup() throws(DatabaseError) { try connection.beginGroup() }

    /// Rows read ahead for the writer's jobs, by job and statement: each job's first reads of a group, all sent in
    /// one flight before the jobs run (`DatabaseWriter.submit(_:prefetch:done:)`), taken once by the job's query.
    private var prefetched: [PrefetchKey: [Row]] = [:]
    private struct PrefetchKey: Hashable {
        let job: Int
        let sql: String
        let values: [SQLValue]
    }

    func prefetch(_ statements: [(sql: String, values: [SQLValue], job: Int)]) throws(DatabaseError) {
        prefetched = [:]
        guard let postgres = connection as? PostgresConnection, !statements.isEmpty else { return }
        for (statement, rows) in zip(statements, try postgres.prefetch(statements)) {
            prefetched[PrefetchKey(job: statement.job, sql: statement.sql, values: statement.values)] = rows
        }
    }

    func clearPrefetched() { prefetched = [:] }

    /// Ends the writer's group: on PostgreSQL its COMMIT is sent and not waited for (true; `confirmCommit` reads its
    /// answer), elsewhere it is committed here (false).
    func sendCommit() throws(DatabaseError) -> Bool {
        guard let postgres = connection as? PostgresConnection else {
            try execute("COMMIT")
            return false
        }
        try postgres.sendCommit()
        return true
    }

    func confirmCommit() throws(DatabaseError) { try (connection as? PostgresConnection)?.confirmCommit() }

    /// Runs once when this connection first waits for the server in the group now running (see
    /// `PostgresConnection.beforeWait`); never on SQLite, which does not wait on a network.
    var beforeWait: (() -> Void)? {
        get { (connection as? PostgresConnection)?.beforeWait }
        set { (connection as? PostgresConnection)?.beforeWait = newValue }
    }
    var job: Int {
        get { connection.job }
        set { connection.job = newValue }
    }
    var roundTrips: Int { connection.roundTrips }

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
