import CSQLite

/// One SQLite connection: WAL journal with full sync (a write that
/// returned has reached the disk), foreign keys on, a busy timeout, and a
/// cache of prepared statements.
final class SQLiteConnection: Connection {
    let path: String
    private var handle: OpaquePointer?
    private var statements: [String: OpaquePointer] = [:]

    init(path: String, role: Database.Role) throws(DatabaseError) {
        self.path = path
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let rc = sqlite3_open_v2(path, &handle, flags, nil)
        guard rc == SQLITE_OK else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close(handle)
            handle = nil
            throw DatabaseError("cannot open database \(path): \(message)")
        }
        sqlite3_busy_timeout(handle, 5000)
        do {
            // journal_mode reads the file: a corrupt or foreign file fails here.
            _ = try query("PRAGMA journal_mode=WAL", [])
            try execute("PRAGMA synchronous=FULL", [])
            try execute("PRAGMA foreign_keys=ON", [])
            switch role {
            case .writer:
                // The writer holds the hot pages of every table it changes; its commits (and so
                // SQLite's automatic checkpoints, every 1000 WAL pages) happen on its own thread.
                try execute("PRAGMA cache_size=-16384", [])
            case .reader, .pooled:
                // A reader never checkpoints: that would be disk work on an event loop.
                _ = try query("PRAGMA wal_autocheckpoint=0", [])
                if role == .pooled { try execute("PRAGMA query_only=1", []) }
            }
        } catch {
            throw DatabaseError("cannot use database \(path): \(error.message)")
        }
    }

    deinit {
        for statement in statements.values { sqlite3_finalize(statement) }
        sqlite3_close_v2(handle)
    }

    private func failure(_ sql: String) -> DatabaseError {
        DatabaseError("\(String(cString: sqlite3_errmsg(handle))) (in: \(sql.prefix(120)))", sqlState: state)
    }

    /// A full disk, a read-only file or a failing disk as PostgreSQL's codes for them (53100, 25006, 58030), which
    /// `DatabaseError.unavailable` reads: the site answers 503 and heals when the disk does.
    private var state: String {
        switch sqlite3_errcode(handle) {
        case SQLITE_FULL: "53100"
        case SQLITE_READONLY: "25006"
        case SQLITE_IOERR: "58030"
        default: ""
        }
    }

    private func prepared(_ sql: String) throws(DatabaseError) -> OpaquePointer {
        if let statement = statements[sql] {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
            return statement
        }
        var statement: OpaquePointer?
        guard sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil) == SQLITE_OK,
            let statement
        else { throw failure(sql) }
        statements[sql] = statement
        return statement
    }

    private func bind(_ statement: OpaquePointer, _ values: [SQLValue], sql: String) throws(DatabaseError) {
        let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
        for (i, value) in values.enumerated() {
            let index = Int32(i + 1)
            let rc: Int32
            switch value {
            case .null: rc = sqlite3_bind_null(statement, index)
            case .integer(let v): rc = sqlite3_bind_int64(statement, index, v)
            case .real(let v): rc = sqlite3_bind_double(statement, index, v)
            case .text(let v): rc = sqlite3_bind_text(statement, index, v, -1, transient)
            case .blob(let v):
                rc = v.withUnsafeBytes {
                    sqlite3_bind_blob(statement, index, $0.baseAddress, Int32(v.count), transient)
                }
            }
            guard rc == SQLITE_OK else { throw failure(sql) }
        }
    }

    @discardableResult func execute(_ sql: String, _ values: [SQLValue] = []) throws(DatabaseError) -> Int {
        let statement = try prepared(sql)
        try bind(statement, values, sql: sql)
        defer { sqlite3_reset(statement) }
        var rc = sqlite3_step(statement)
        while rc == SQLITE_ROW { rc = sqlite3_step(statement) }
        guard rc == SQLITE_DONE else { throw failure(sql) }
        return Int(sqlite3_changes(handle))
    }

    func executeScript(_ sql: String) throws(DatabaseError) {
        var message: UnsafeMutablePointer<CChar>?
        guard sqlite3_exec(handle, sql, nil, nil, &message) == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? "unknown error"
            sqlite3_free(message)
            throw DatabaseError(text)
        }
    }

    func query(_ sql: String, _ values: [SQLValue] = []) throws(DatabaseError) -> [Row] {
        let statement = try prepared(sql)
        try bind(statement, values, sql: sql)
        defer { sqlite3_reset(statement) }
        let count = sqlite3_column_count(statement)
        let columns = (0..<count).map { String(cString: sqlite3_column_name(statement, $0)) }
        var rows: [Row] = []
        while true {
            let rc = sqlite3_step(statement)
            if rc == SQLITE_DONE { return rows }
            guard rc == SQLITE_ROW else { throw failure(sql) }
            rows.append(Row(columns: columns, values: (0..<count).map { column(statement, $0) }, query: sql))
        }
    }

    private func column(_ statement: OpaquePointer, _ i: Int32) -> SQLValue {
        switch sqlite3_column_type(statement, i) {
        case SQLITE_INTEGER: return .integer(sqlite3_column_int64(statement, i))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(statement, i))
        case SQLITE_TEXT: return .text(String(cString: sqlite3_column_text(statement, i)))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(statement, i))
            guard count > 0, let base = sqlite3_column_blob(statement, i) else { return .blob([]) }
            return .blob(Array(UnsafeRawBufferPointer(start: base, count: count)))
        default: return .null
        }
    }

    func beginWrite() throws(DatabaseError) { try execute("BEGIN IMMEDIATE", []) }
    func beginGroup() throws(DatabaseError) { try beginWrite() }
    func send(_ sql: String, _ values: [SQLValue]) throws(DatabaseError) { _ = try execute(sql, values) }
    var job = 0
    var roundTrips: Int { 0 }

    var inTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    var schemaVersion: Int {
        get throws(DatabaseError) {
            guard let version = try query("PRAGMA user_version", []).first?.int("user_version") else {
                throw DatabaseError("cannot read the schema version")
            }
            return version
        }
    }

    func setSchemaVersion(_ version: Int) throws(DatabaseError) {
        try executeScript("PRAGMA user_version = \(version)")
    }
}
