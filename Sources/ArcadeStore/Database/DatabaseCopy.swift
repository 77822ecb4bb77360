import Files
import Storage

/// `arcade db copy`: every table of a stopped site's SQLite file into another database (PostgreSQL, to move to
/// several instances), in one transaction, parents before the tables that reference them; then the row counts of
/// both sides are compared. A target that already holds data is refused, and nothing is written to it.
package struct DatabaseCopy {
    package let source: DatabaseLocation
    package let target: DatabaseLocation
    /// `arcade db restore --replace`: the target's rows are deleted first, in the same transaction.
    package var replace = false
    /// Where an SQLite target keeps its photos (a restore writes the backup's photos there).
    package var targetPhotos: String? = nil

    package struct Table: Sendable, Equatable {
        package let name: String
        package let rows: Int
        package let copied: Int
    }

    package func run() throws -> [Table] {
        guard case .sqlite = source else { throw DatabaseError("--from must be an SQLite file (sqlite:PATH)") }
        guard source != target else { throw DatabaseError("--from and --to are the same database") }
        let from = try Database(location: source)
        // Both at this build's schema, so their tables and columns match.
        try from.migrate(Schema.migrations)
        let to = try Database(location: target)
        try to.migrate(Schema.migrations)
        // An SQLite site keeps its photos as files (its `photos` table stays empty): they are read below.
        let tables = try Self.ordered(from).filter { $0 != "photos" }
        let counts = try (tables + ["photos"]).map { try Self.count($0, in: to) }
        let held = zip(tables + ["photos"], counts).filter { $0.1 > 0 }
        guard held.isEmpty || replace else {
            throw DatabaseError(
                "\(target) already holds data (\(held.map { "\($0.0): \($0.1) rows" }.joined(separator: ", "))); "
                    + "copy into an empty database (a restore may --replace it). Nothing was copied.")
        }
        var photos = (found: 0, stored: 0)
        // A backup holds its photos in its `photos` table (a site's SQLite file keeps them as files beside it).
        let photoRows = try Self.count("photos", in: from)
        try to.transaction {
            if replace { for table in (tables + ["photos"]).reversed() { try to.execute("DELETE FROM \(table)") } }
            for table in tables { try Self.copy(table, from: from, to: to) }
            // Uploaded photos live as files beside an SQLite site; instances sharing a database keep them in it.
            if photoRows > 0 {
                photos = try Self.restorePhotos(from: from, to: to, folder: targetPhotos)
            } else if to.dialect == .postgresql {
                photos = try Self.copyPhotos(from: from, folder: PhotoLibrary.folder(beside: source), to: to)
            }
            if to.dialect == .postgresql {
                // Identity columns continue after the copied ids.
                for table in tables where try Self.hasIdentity(table, in: to) {
                    _ = try to.query(
                        "SELECT setval(pg_get_serial_sequence('\(table)', 'id'), COALESCE(MAX(id), 0) + 1, false) "
                            + "AS v FROM \(table)")
                }
            }
        }
        let copied = try tables.map {
            Table(name: $0, rows: try Self.count($0, in: from), copied: try Self.count($0, in: to))
        }
        return copied
            + (photos.found > 0 ? [Table(name: "photo files", rows: photos.found, copied: photos.stored)] : [])
    }

    /// Each uploaded photo the people name, read from the site's photos folder into the target's `photos` table.
    package static func copyPhotos(from: Database, folder: String, to: Database) throws -> (found: Int, stored: Int) {
        var found = 0
        var stored = 0
        for row in try from.query("SELECT photo FROM people WHERE photo LIKE '/photos/%'") {
            guard let name = PhotoLibrary.name(try row.decode(PeopleStore.PersonRow.Columns.photo)) else { continue }
            found += 1
            guard let bytes = Files.read(folder + "/" + name) else { continue }
            stored += try to.execute(PhotoLibrary.Photos.insert(name: name, bytes: bytes, "ON CONFLICT DO NOTHING"))
        }
        return (found, stored)
    }

    /// A backup's photos: rows of a database several instances share, or files beside an SQLite site.
    package static func restorePhotos(from: Database, to: Database, folder: String?) throws -> (found: Int, stored: Int)
    {
        var found = 0
        var stored = 0
        for row in try from.query("SELECT name, bytes FROM photos ORDER BY name") {
            let name: String = try row.decode(PhotoLibrary.Photos.Columns.name)
            let bytes: [UInt8] = try row.decode(PhotoLibrary.Photos.Columns.bytes)
            found += 1
            if to.dialect == .postgresql {
                stored += try to.execute(
                    PhotoLibrary.Photos.insert(name: name, bytes: bytes, "ON CONFLICT DO NOTHING"))
            } else if let folder {
                Files.remove(folder + "/" + name)
                guard Files.writeDurably(bytes, to: folder + "/" + name) else {
                    throw DatabaseError("cannot write the photo \(folder)/\(name)")
                }
                stored += 1
            }
        }
        return (found, stored)
    }

    /// The SQLite file's tables, each after the tables its foreign keys name.
    package static func ordered(_ db: Database) throws -> [String] {
        let names = try db.query(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name"
        )
        .map { row throws in try row.decode("name", as: String.self) }
        var parents: [String: Set<String>] = [:]
        for name in names {
            parents[name] = Set(
                try db.query("SELECT \"table\" AS parent FROM pragma_foreign_key_list(?)", [.text(name)])
                    .map { row throws in try row.decode("parent", as: String.self) }.filter { $0 != name })
        }
        var done: [String] = []
        var placed = Set<String>()
        while done.count < names.count {
            guard
                let next = names.first(where: { !placed.contains($0) && parents[$0, default: []].isSubset(of: placed) })
            else {
                throw DatabaseError("the tables' foreign keys form a cycle")
            }
            done.append(next)
            placed.insert(next)
        }
        return done
    }

    package static func count(_ table: String, in db: Database) throws -> Int {
        try db.scalar(Int.self, "SELECT COUNT(*) AS n FROM \(table)")
    }

    package static func hasIdentity(_ table: String, in db: Database) throws -> Bool {
        try db.scalar(
            Int.self,
            """
            SELECT COUNT(*) AS n FROM information_schema.columns
            WHERE table_schema = current_schema() AND table_name = ? AND column_name = 'id' AND is_identity = 'YES'
            """, [.text(table)]) == 1
    }

    /// In pages of 500 rows by row id, so a large table never sits in memory whole.
    package static func copy(_ table: String, from: Database, to: Database) throws {
        var after: Int64 = .min
        let columns = try from.query("SELECT name FROM pragma_table_info(?) ORDER BY cid", [.text(table)])
            .map { row throws in try row.decode("name", as: String.self) }
        while true {
            let rows = try from.query(
                "SELECT rowid AS arcade_rowid, \(columns.joined(separator: ", ")) FROM \(table) "
                    + "WHERE rowid > ? ORDER BY rowid LIMIT 500", [.integer(after)])
            guard let last = rows.last else { return }
            let lastID: Int64 = try last.decode("arcade_rowid")
            let sql =
                "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES ("
                + columns.map { _ in "?" }.joined(separator: ", ") + ")"
            for row in rows { try to.execute(sql, columns.map { row[$0] }) }
            after = lastID
        }
    }

    package init(source: DatabaseLocation, target: DatabaseLocation, replace: Bool = false, targetPhotos: String? = nil)
    {
        self.source = source
        self.target = target
        self.replace = replace
        self.targetPhotos = targetPhotos
    }
}
