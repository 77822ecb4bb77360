import TestSupport
import Testing

@testable import Storage

@Suite("Records named once, on both engines")
struct TableRecordTests {
    let scratch = ScratchDirectory()

    static let schema = [
        Migration(
            1,
            """
            CREATE TABLE notes (id INTEGER PRIMARY KEY, author TEXT NOT NULL, body TEXT, score REAL NOT NULL,
                data BLOB NOT NULL, pinned INTEGER NOT NULL DEFAULT 0, position INTEGER NOT NULL);
            """)
    ]

    /// A `notes` row: its columns are named once, in `Columns`.
    struct Note: FetchableRecord, TableRecord, Equatable {
        static let table = "notes"
        enum Columns: String, ColumnName { case id, author, body, score, data, pinned, position }
        var id: Int64 = 0, author: String, body: String?, score: Double, data: [UInt8], pinned = false, position = 0

        init(author: String, body: String?, score: Double, data: [UInt8], pinned: Bool = false) {
            (self.author, self.body, self.score, self.data, self.pinned) = (author, body, score, data, pinned)
        }

        init(row: Row) throws(DatabaseError) {
            id = try row.decode(Columns.id)
            author = try row.decode(Columns.author)
            body = try row.decodeIfPresent(Columns.body)
            score = try row.decode(Columns.score)
            data = try row.decode(Columns.data)
            pinned = try row.decode(Columns.pinned)
            position = try row.decode(Columns.position)
        }

        /// Every column but the key; the position comes after the last one's.
        func encode(to row: inout ColumnValues<Columns>) {
            row[.author] = author
            row[.body] = body
            row[.score] = score
            row[.data] = data
            row[.pinned] = pinned
            row.set(.position, sql: "(SELECT COALESCE(MAX(position), 0) + 1 FROM notes)")
        }
    }

    @Test(arguments: Engine.allCases) func aRecordRoundTripsThroughInsertAndSelect(_ engine: Engine) throws {
        let db = try Database(location: TestDatabase.fresh(engine, in: scratch))
        try db.migrate(Self.schema)
        #expect(Note.selection == "id, author, body, score, data, pinned, position")
        // The statement names the columns set, in `Columns`' order whatever the order they were set in.
        let built = Note.insert("ON CONFLICT DO NOTHING") { row in
            row[.score] = 1.5
            row[.author] = "ann"
        }
        #expect(built.sql == "INSERT INTO notes (author, score) VALUES (?, ?) ON CONFLICT DO NOTHING")
        #expect(built.values == [.text("ann"), .real(1.5)])

        var first = Note(author: "ann", body: "héllo 'quoted' ? $1", score: 2.5, data: [0, 1, 255], pinned: true)
        first.id = try db.insert(Note.insert { first.encode(to: &$0) })
        first.position = 1
        var second = Note(author: "bob", body: nil, score: -0.5, data: [])
        second.id = try db.insert(Note.insert { second.encode(to: &$0) })
        second.position = 2
        let read = try db.fetchAll(Note.self, "SELECT \(Note.selection) FROM notes ORDER BY id")
        #expect(read == [first, second])

        // A batch: one statement, a row per item.
        let batch = Note.insert(each: [("cy", 3), ("di", 4)]) { row, item in
            row[.id] = Int64(item.1)
            row[.author] = item.0
            row[.score] = Double(item.1)
            row[.data] = [UInt8(item.1)]
            row[.position] = item.1 * 10
        }
        #expect(try db.execute(batch) == 2)
        #expect(try db.fetchOne(Note.self, "SELECT \(Note.selection) FROM notes WHERE id = 4")?.position == 40)

        // An upsert changes the columns it sets, the key aside, and leaves the others.
        let edit = Note.upsert(on: .id) { row in
            row[.id] = first.id
            row[.author] = "ann"
            row[.body] = String?.none
            row[.score] = 9.0
            row[.data] = [UInt8]([7])
            row[.position] = 1
        }
        #expect(
            edit.sql.hasSuffix(
                "ON CONFLICT (id) DO UPDATE SET author = excluded.author, body = excluded.body, "
                    + "score = excluded.score, data = excluded.data, position = excluded.position"))
        try db.execute(edit)
        let edited = try #require(
            try db.fetchOne(Note.self, "SELECT \(Note.selection) FROM notes WHERE id = ?", [.integer(first.id)]))
        #expect(edited.body == nil && edited.score == 9 && edited.data == [7] && edited.pinned)
        #expect(
            try db.execute(
                Note.insert("ON CONFLICT DO NOTHING") {
                    first.encode(to: &$0)
                    $0[.id] = first.id
                }) == 0)
    }

    @Test(arguments: Engine.allCases) func aRowMissingAColumnFailsWithTheColumnsName(_ engine: Engine) throws {
        let db = try Database(location: TestDatabase.fresh(engine, in: scratch))
        try db.migrate(Self.schema)
        let note = Note(author: "ann", body: nil, score: 1, data: [1])
        try db.execute(Note.insert { note.encode(to: &$0) })
        let withoutScore = Note.selection.replacing("score, ", with: "")
        let missing = #expect(throws: DatabaseError.self) {
            try db.fetchOne(Note.self, "SELECT \(withoutScore) FROM notes")
        }
        #expect(
            missing?.message
                == "column score is missing (in: SELECT id, author, body, data, pinned, position FROM notes)",
            "\(missing?.message ?? "")")
        // NULL where the record needs a value (selected as an expression: no row can hold it).
        let null = #expect(throws: DatabaseError.self) {
            try db.fetchOne(
                Note.self,
                "SELECT id, CAST(NULL AS TEXT) AS author, body, score, data, pinned, position FROM notes")
        }
        #expect(null?.message.hasPrefix("column author is NULL") == true, "\(null?.message ?? "")")
        // The same read by a column's case, outside a record.
        let row = try #require(try db.first("SELECT id FROM notes"))
        let absent = #expect(throws: DatabaseError.self) { try row.decode(Note.Columns.author, as: String.self) }
        #expect(absent?.message.hasPrefix("column author is missing") == true)
    }
}
