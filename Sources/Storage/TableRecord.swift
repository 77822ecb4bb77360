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

    /// One INSERT of a row per item, each filled by `fill` with the same columns: a batch in one statement.
    public static func insert<S: Sequence>(
        each items: S, _ tail: String = "", _ fill: (inout ColumnValues<Columns>, S.Element) -> Void
    ) -> SQLStatement {
        var names = ""
        var tuples: [String] = []
        var bound: [SQLValue] = []
        for item in items {
            var row = ColumnValues<Columns>()
            fill(&row, item)
            let (rowNames, marks, values) = row.parts()
            precondition(tuples.isEmpty || rowNames == names, "rows of one insert set different columns")
            names = rowNames
            tuples.append("(\(marks))")
            bound += values
        }
        return SQLStatement(insertSQL(table, names, tuples.joined(separator: ", "), tail), bound)
    }

    /// An INSERT that, where a row with the same `key` is there already, gives it every other column `fill` sets
    /// (`ON CONFLICT (key) DO UPDATE SET c = excluded.c, ...`).
    public static func upsert<E: Error>(
        on key: Columns..., fill: (inout ColumnValues<Columns>) throws(E) -> Void
    ) throws(E) -> SQLStatement {
        var row = ColumnValues<Columns>()
        try fill(&row)
        let update = row.assigned.map(\.column).filter { !key.contains($0) }.map(\.rawValue)
        precondition(!update.isEmpty, "an upsert of \(table) that sets no column but its key")
        return row.insert(
            into: table,
            "ON CONFLICT (\(key.map(\.rawValue).joined(separator: ", "))) DO UPDATE SET "
                + update.map { "\($0) = excluded.\($0)" }.joined(separator: ", "))
    }
}

/// One row's values by column, as an insert writes them; a column left unset is not named (its default applies).
public struct ColumnValues<Columns: ColumnName> {
    /// A value bound to a `?`, or SQL the insert evaluates.
    enum Value {
        case bound(SQLValue)
        case sql(String)
    }
    private var values: [Columns: Value] = [:]

    /// A column's value; nil writes NULL.
    public subscript<T: ColumnValue>(_ column: Columns) -> T? {
        get {
            guard case .bound(let value) = values[column] else { return nil }
            return T(column: value)
        }
        set { values[column] = .bound(newValue?.sqlValue ?? .null) }
    }

    /// A column the statement computes (`(SELECT MAX(position) + 1 FROM people)`), in the insert's own snapshot.
    public mutating func set(_ column: Columns, sql expression: String) { values[column] = .sql(expression) }

    /// The columns set, in `Columns`' order (so one call site always makes the same statement, prepared once).
    var assigned: [(column: Columns, value: Value)] {
        Columns.allCases.compactMap { column in values[column].map { (column, $0) } }
    }

    /// The column list, the VALUES list and the values bound in it.
    func parts() -> (names: String, marks: String, bound: [SQLValue]) {
        var names: [String] = []
        var marks: [String] = []
        var bound: [SQLValue] = []
        for (column, value) in assigned {
            names.append(column.rawValue)
            switch value {
            case .bound(let value):
                marks.append("?")
                bound.append(value)
            case .sql(let expression): marks.append(expression)
            }
        }
        return (names.joined(separator: ", "), marks.joined(separator: ", "), bound)
    }

    func insert(into table: String, _ tail: String) -> SQLStatement {
        let (names, marks, bound) = parts()
        return SQLStatement(insertSQL(table, names, "(\(marks))", tail), bound)
    }
}

private func insertSQL(_ table: String, _ names: String, _ rows: String, _ tail: String) -> String {
    "INSERT INTO \(table) (\(names)) VALUES \(rows)" + (tail.isEmpty ? "" : " " + tail)
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
    public func decode<C: ColumnName, T: ColumnValue>(
        _ column: C, as type: T.Type = T.self
    ) throws(DatabaseError) -> T {
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
