import Files
import Storage

#if canImport(Glibc)
import Glibc
#endif

/// `arcade db backup FILE`: a consistent copy of a running site as one portable SQLite file. From SQLite it is
/// `VACUUM INTO` (one read snapshot: every write committed before it began, none after); from PostgreSQL the tables
/// are read in one repeatable-read transaction into a fresh file of the same schema. Uploaded photos go into the
/// file's `photos` table, so the file alone restores a site. It is written under a temporary name, checked with
/// `PRAGMA integrity_check`, flushed, and only then renamed: a failure leaves no file at `path`, half or whole.
package struct Backup {
    package let source: DatabaseLocation
    /// The site's photos folder (an SQLite site keeps photos as files only).
    package let photos: String

    package struct Report: Sendable, Equatable {
        package let path: String
        package let bytes: Int
        package let tables: [DatabaseCopy.Table]
        package var rows: Int { tables.reduce(0) { $0 + $1.rows } }
    }

    package func write(to path: String) throws -> Report {
        if case .sqlite(let file) = source, access(file, R_OK) != 0 {
            throw DatabaseError("there is no database at \(file) to back up")
        }
        let folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        guard access(folder, W_OK) == 0 else {
            throw DatabaseError("cannot write the backup into \(folder): \(String(cString: strerror(errno)))")
        }
        let temporary =
            folder + "/." + (path.split(separator: "/").last.map(String.init) ?? "backup")
            + ".partial-\(getpid())"
        for suffix in ["", "-wal", "-shm", "-journal"] { Files.remove(temporary + suffix) }
        do {
            let tables = try snapshot(into: temporary)
            try Self.flush(temporary)
            guard rename(temporary, path) == 0 else {
                throw DatabaseError("cannot rename the backup to \(path): \(String(cString: strerror(errno)))")
            }
            try Self.flush(folder)
            var info = stat()
            _ = stat(path, &info)
            return Report(path: path, bytes: Int(info.st_size), tables: tables)
        } catch {
            for suffix in ["", "-wal", "-shm", "-journal"] { Files.remove(temporary + suffix) }
            throw error
        }
    }

    private func snapshot(into temporary: String) throws -> [DatabaseCopy.Table] {
        switch source {
        case .sqlite: try Database(location: source).execute("VACUUM INTO ?", [.text(temporary)])
        case .postgresql: try copyPostgres(into: temporary)
        }
        let copy = try Database(path: temporary, role: .writer)
        guard try copy.value(Int.self, "SELECT 1 AS found FROM sqlite_master WHERE name = 'people'") != nil else {
            throw DatabaseError("\(source) holds no Arcade site (start the site on it once)")
        }
        if case .sqlite = source {
            // The site's photo files, into the file: the backup restores a site on its own.
            try copy.transaction { _ = try DatabaseCopy.copyPhotos(from: copy, folder: photos, to: copy) }
        }
        // One file, no journal beside it: what is copied elsewhere is the whole backup.
        _ = try copy.query("PRAGMA journal_mode=DELETE")
        let problems = try copy.query("PRAGMA integrity_check").map { row throws in
            try row.decode(
                row.columns[0], as: String.self)
        }
        guard problems == ["ok"] else {
            throw DatabaseError("the backup failed its integrity check: \(problems.prefix(5).joined(separator: "; "))")
        }
        return try DatabaseCopy.ordered(copy).map { table in
            let rows = try DatabaseCopy.count(table, in: copy)
            return DatabaseCopy.Table(name: table, rows: rows, copied: rows)
        }
    }

    /// Every table, read in one snapshot, into a fresh file at this build's schema.
    private func copyPostgres(into temporary: String) throws {
        let from = try Database(location: source)
        let to = try Database(path: temporary, role: .writer)
        try to.migrate(Schema.migrations)
        try from.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
        defer { _ = try? from.execute("ROLLBACK") }
        let tables = try DatabaseCopy.ordered(to)
        try to.transaction {
            // Whatever the migrations seeded comes from the site instead.
            for table in tables.reversed() { try to.execute("DELETE FROM \(table)") }
            for table in tables { try Self.copy(table, from: from, to: to) }
        }
    }

    /// A table read from PostgreSQL in pages ordered by its key, written to the SQLite file's table of that name.
    private static func copy(_ table: String, from: Database, to: Database) throws {
        let info = try to.query("SELECT name, pk FROM pragma_table_info(?) ORDER BY cid", [.text(table)])
        let columns = try info.map { row throws in try row.decode("name", as: String.self) }
        let key = try info.filter { try $0.decode("pk", as: Int.self) > 0 }.map {
            try $0.decode("name", as: String.self)
        }
        let order = (key.isEmpty ? columns : key).joined(separator: ", ")
        let insert =
            "INSERT INTO \(table) (\(columns.joined(separator: ", "))) VALUES ("
            + columns.map { _ in "?" }.joined(separator: ", ") + ")"
        var offset = 0
        while true {
            let rows = try from.query(
                "SELECT \(columns.joined(separator: ", ")) FROM \(table) ORDER BY \(order) LIMIT 500 OFFSET \(offset)")
            for row in rows { try to.execute(insert, columns.map { row[$0] }) }
            guard rows.count == 500 else { return }
            offset += 500
        }
    }

    /// fsync of a file or folder: the rename must not reach the disk before the bytes it names.
    package static func flush(_ path: String) throws {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw DatabaseError("cannot open \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        guard fsync(fd) == 0 else {
            throw DatabaseError("cannot flush \(path) to disk: \(String(cString: strerror(errno)))")
        }
    }

    package init(source: DatabaseLocation, photos: String) {
        self.source = source
        self.photos = photos
    }
}
