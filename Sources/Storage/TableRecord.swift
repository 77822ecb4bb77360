/// A table's columns, named once in a record's enum (`enum Columns: String, ColumnName { case id, player }`): its
/// select list, its inserts and its reads all come from that list, so a misspelt or forgotten column is a compile
/// error, not a failure at run time.
public protocol ColumnName: RawRepresentable<String>, CaseIterable, Hashable {}

/// A record stored in one table, its columns named once in `Columns`.
public protocol TableRecord {
    associatedtype Columns: ColumnName
    static var table: String { get }
}

extension TableRecord {
    /// The select list, every column in `Columns`' order: `SELECT \(R.selection) FROM ...`.
    public static var selection: String { Columns.allCases.map(\.rawValue).joined(separator: ", ") }

    /// An INSERT of the columns `fill` sets, its names and values in one order, and `tail` after its VALUES (an
    /// `ON CONFLICT` clause, a `RETURNING` list).
    public static func insert<E: Error>(
        _ tail: String = "", _ fill: (inout ColumnValues<Columns>) throws(E) -> Void
    ) throws(E) -> SQLStatement {
        var row = ColumnValues<Columns>()
        try fill(&row)
        return row.insert(into: table, tail)
    }

    /// An INSERT that, where a row with the same `key` is there already, gives it every other column `fill` sets
    /// (`ON CONFLICT (key) DO UPDATE SET c = excluded.c, ...`).
    public static func upsert<E: Error>(
        on key: Columns..., fill: (inout ColumnValues<Columns>) throws(E) -> Void
    ) throws(E) -> SQLStatement {
        var row = ColumnValues<Columns>()
        try fill(&row)
        let update = row.assigned.map(\.column).filter { !key.contains($0) }.map(\.rawValue)
        return row.insert(
            into: table,
            "ON CONFLICT (\(key.map(\.rawValue).joined(separator: ", "))) DO UPDATE SET "
                + update.map { "\($0) = excluded.\($0)" }.joined(separator: ", "))
    }
}

/// One row's values by column, as an insert writes them; a column left unset is not named (its default applies).
public struct ColumnValues<Columns: ColumnName> {
    private var values: [Columns: SQLValue] = [:]

    /// A column's value; nil writes NULL.
    public subscript<T: ColumnValue>(_ column: Columns) -> T? {
        get { values[column].flatMap(T.init(column:)) }
        set { values[column] = newValue?.sqlValue ?? .null }
    }

    /// The columns set, in `Columns`' order (so one call site always makes the same statement, prepared once).
    var assigned: [(column: Columns, value: SQLValue)] {
        Columns.allCases.compactMap { column in values[column].map { (column, $0) } }
    }

    func insert(into table: String, _ tail: String) -> SQLStatement {
        let assigned = self.assigned
        let names = assigned.map(\.column.rawValue).joined(separator: ", ")
        let marks = Array(repeating: "?", count: assigned.count).joined(separator: ", ")
        return SQLStatement(
            "INSERT INTO \(table) (\(names)) VALUES (\(marks))" + (tail.isEmpty ? "" : " " + tail),
            assigned.map(\.value))
    }
}

/// A statement and its values, made together so their order cannot disagree. `?` marks each value, as in every
/// statement (PostgreSQL's connection numbers them).
public struct SQLStatement: Sendable, Equatable {
    public let sql: String
    public let values: [SQLValue]

    public init(_ sql: String, _ values: [SQLValue] = []) {
        self.sql = sql
        self.values = values
    }
}

extension Row {
    /// A `NOT NULL` column of a record's `Columns` (see `decode(_:as:)` by name).
    public func decode<C: ColumnName, T: ColumnValue>(_ column: C, as type: T.Type = T.self) throws(DatabaseError) -> T {
        try decode(column.rawValue, as: type)
    }

    /// A nullable column of a record's `Columns`: NULL is nil, a missing column an error.
    public func decodeIfPresent<C: ColumnName, T: ColumnValue>(
        _ column: C, as type: T.Type = T.self
    ) throws(DatabaseError) -> T? {
        try decodeIfPresent(column.rawValue, as: type)
    }
}

extension Database {
    /// Runs a built statement (an insert); returns the rows changed.
    @discardableResult
    public func execute(_ statement: SQLStatement) throws(DatabaseError) -> Int {
        try execute(statement.sql, statement.values)
    }

    /// Runs a built statement whose result is not needed (see `send(_:_:)`).
    public func send(_ statement: SQLStatement) throws(DatabaseError) { try send(statement.sql, statement.values) }

    /// Runs a built insert into a table keyed by `id` and returns that key.
    public func insert(_ statement: SQLStatement) throws(DatabaseError) -> Int64 {
        try insert(statement.sql, statement.values)
    }
}
