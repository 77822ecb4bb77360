import Synchronization

/// A table's columns, named once in a record's enum (`enum Columns: String, ColumnName { case id, player }`): its
/// select list, its inserts and its reads all come from that list, so a column misspelt where it is used is a
/// compile error (its name, the raw value, is still spelt once, and checked against the table when a read runs).
public protocol ColumnName: RawRepresentable<String>, CaseIterable, Hashable {}

/// A record stored in one table, its columns named once in `Columns`.
public protocol TableRecord {
    associatedtype Columns: ColumnName
    static var table: String { get }
}

extension TableRecord {
    /// The select list, every column in `Columns`' order: `SELECT \(R.selection) FROM ...`.
    @inlinable public static var selection: String { Columns.allCases.map(\.rawValue).joined(separator: ", ") }

    /// An INSERT of the columns `fill` sets, its names and values in one order, and `tail` after its VALUES (an
    /// `ON CONFLICT` clause, a `RETURNING` list).
    @inlinable public static func insert<E: Error>(
        _ tail: String = "", _ fill: (inout ColumnValues<Columns>) throws(E) -> Void
    ) throws(E) -> SQLStatement {
        var row = ColumnValues<Columns>()
        try fill(&row)
        return row.insert(into: table, tail)
    }

    /// One INSERT of a row per item, each filled by `fill` with the same columns: a batch in one statement.
    @inlinable public static func insert<S: Sequence>(
        each items: S, _ tail: String = "", _ fill: (inout ColumnValues<Columns>, S.Element) -> Void
    ) -> SQLStatement {
        var names = ""
        var tuples: [String] = []
        var bound: [SQLValue] = []
        for item in items {
            var row = ColumnValues<Columns>()
            fill(&row, item)
            let parts = StatementParts(row.ranked())
            precondition(tuples.isEmpty || parts.list == names, "rows of one insert set different columns")
            names = parts.list
            tuples.append("(\(parts.marks))")
            bound += parts.bound
        }
        return SQLStatement(insertSQL(table, names, tuples.joined(separator: ", "), tail), bound)
    }

    /// An INSERT that, where a row with the same `key` is there already, gives it every other column `fill` sets
    /// (`ON CONFLICT (key) DO UPDATE SET c = excluded.c, ...`).
    @inlinable public static func upsert<E: Error>(
        on key: Columns..., fill: (inout ColumnValues<Columns>) throws(E) -> Void
    ) throws(E) -> SQLStatement {
        var row = ColumnValues<Columns>()
        try fill(&row)
        let keys = key.map(\.rawValue)
        return row.statement(table, keys: keys) { parts in
            let update = parts.names.filter { !keys.contains($0) }
            precondition(!update.isEmpty, "an upsert of \(table) that sets no column but its key")
            return insertSQL(
                table, parts.list, "(\(parts.marks))",
                "ON CONFLICT (\(keys.joined(separator: ", "))) DO UPDATE SET "
                    + update.map { "\($0) = excluded.\($0)" }.joined(separator: ", "))
        }
    }
}

/// One row's values by column, as an insert writes them; a column left unset is not named (its default applies).
/// Only what needs the record's `Columns` is generic; the statement is built by code compiled once (`StatementParts`),
/// not once per record.
@frozen public struct ColumnValues<Columns: ColumnName> {
    /// The columns set, in the order set: a row has a few, so a search along them is cheaper than hashing (a
    /// dictionary here cost a committed cheat action an eighth of its rate, `scripts/bench`).
    @usableFromInline var values: [(column: Columns, value: AssignedValue)] = []

    @inlinable public init() {}

    /// A column's value; nil writes NULL.
    @inlinable public subscript<T: ColumnValue>(_ column: Columns) -> T? {
        get {
            guard case .bound(let value) = values.first(where: { $0.column == column })?.value else { return nil }
            return T(column: value)
        }
        set { put(column, .bound(newValue?.sqlValue ?? .null)) }
    }

    /// A column the statement computes (`(SELECT MAX(position) + 1 FROM people)`), in the insert's own snapshot.
    @inlinable public mutating func set(_ column: Columns, sql expression: String) { put(column, .sql(expression)) }

    @inlinable mutating func put(_ column: Columns, _ value: AssignedValue) {
        if let index = values.firstIndex(where: { $0.column == column }) {
            values[index].value = value
        } else {
            values.append((column, value))
        }
    }

    /// The columns set, each with its place in `Columns`.
    @inlinable func ranked() -> [AssignedColumn] {
        let order = Array(Columns.allCases)
        return values.map { AssignedColumn(rank: order.firstIndex(of: $0.column)!, name: $0.column.rawValue, $0.value) }
    }

    @inlinable func insert(into table: String, _ tail: String) -> SQLStatement {
        statement(table, tail: tail) { parts in insertSQL(table, parts.list, "(\(parts.marks))", tail) }
    }

    /// The statement `text` builds from these values' parts, its text kept by shape (`StatementTexts`).
    @inlinable func statement(
        _ table: String, tail: String = "", keys: [String] = [], _ text: (StatementParts) -> String
    ) -> SQLStatement {
        builtStatement(ObjectIdentifier(Columns.self), ranked(), tail: tail, keys: keys, text)
    }
}

/// A value an insert writes: bound to a `?`, or SQL the insert evaluates.
@usableFromInline enum AssignedValue {
    case bound(SQLValue)
    case sql(String)
}

/// A column set, by its place in its record's `Columns` and its name.
@usableFromInline struct AssignedColumn {
    let rank: Int, name: String, value: AssignedValue

    @usableFromInline init(rank: Int, name: String, _ value: AssignedValue) {
        self.rank = rank
        self.name = name
        self.value = value
    }
}

/// What a statement is made of: the columns set in their record's order (so one call site always makes the same
/// statement, prepared once), their names, the VALUES list and the values bound in it.
@usableFromInline struct StatementParts {
    @usableFromInline let columns: [AssignedColumn]
    @usableFromInline var names: [String] = [], list = "", marks = "", bound: [SQLValue] = []

    @usableFromInline init(_ assigned: [AssignedColumn]) {
        columns =
            zip(assigned, assigned.dropFirst()).contains { $0.rank > $1.rank }
            ? assigned.sorted { $0.rank < $1.rank } : assigned
        bound.reserveCapacity(columns.count)
        for column in columns {
            if !names.isEmpty {
                list += ", "
                marks += ", "
            }
            names.append(column.name)
            list += column.name
            switch column.value {
            case .bound(let value):
                marks += "?"
                bound.append(value)
            case .sql(let expression): marks += expression
            }
        }
    }
}

/// The statement `text` builds from `assigned`, its text kept by shape where every value is bound (`StatementTexts`).
@usableFromInline func builtStatement(
    _ record: ObjectIdentifier, _ assigned: [AssignedColumn], tail: String, keys: [String],
    _ text: (StatementParts) -> String
) -> SQLStatement {
    let parts = StatementParts(assigned)
    guard parts.columns.allSatisfy({ if case .bound = $0.value { true } else { false } }) else {
        return SQLStatement(text(parts), parts.bound)
    }
    let shape = StatementTexts.Shape(record: record, columns: parts.columns.map(\.rank), keys: keys, tail: tail)
    return SQLStatement(StatementTexts.shared.text(shape) { text(parts) }, parts.bound)
}

/// Built statements' text by shape: a record, the columns set, what follows VALUES. One call site makes the same
/// text every time, so it is built once (built for each committed cheat action, it cost a twentieth of their rate,
/// `scripts/bench`). Bounded: past `limit` shapes, texts are built and not kept.
final class StatementTexts: Sendable {
    static let shared = StatementTexts()
    static let limit = 1024

    struct Shape: Hashable, Sendable {
        let record: ObjectIdentifier, columns: [Int], keys: [String], tail: String
    }

    private let texts = Mutex<[Shape: String]>([:])

    func text(_ shape: Shape, _ build: () -> String) -> String {
        if let text = texts.withLock({ $0[shape] }) { return text }
        let text = build()
        texts.withLock { texts in if texts.count < Self.limit { texts[shape] = text } }
        return text
    }
}

@usableFromInline func insertSQL(_ table: String, _ names: String, _ rows: String, _ tail: String) -> String {
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
    @inlinable public func decode<C: ColumnName, T: ColumnValue>(
        _ column: C, as type: T.Type = T.self
    ) throws(DatabaseError) -> T {
        try decode(column.rawValue, as: type)
    }

    /// A nullable column of a record's `Columns`: NULL is nil, a missing column an error.
    @inlinable public func decodeIfPresent<C: ColumnName, T: ColumnValue>(
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
