import CPostgres
import Logger

/// One PostgreSQL connection through libpq (loaded on first use): statements prepared once per connection,
/// parameters sent as text (bytea as binary), results read as text and typed by their column's type.
/// Blocking: it is used only from the threads that may wait (the writer, the pool threads, commands).
final class PostgresConnection: Connection {
    private let connection: OpaquePointer
    private let name: String
    private var statements: [String: (name: String, count: Int)] = [:]
    /// In a pipelined group: the statements sent whose results are not read yet, and the transaction that sent each.
    private var pipelined = false
    private var pending: [(sql: String, job: Int)] = []
    var job = 0
    private(set) var roundTrips = 0

    /// The advisory locks of a site: each a pair, this class and the site's schema (several sites, or tests, may share
    /// one database in schemas of their own, and never wait for each other's locks).
    static func lock(_ kind: Int32) -> String { "\(kind), hashtext(current_schema())" }
    /// Taken by migrations, so two instances starting at once take turns (writes lock only their rows).
    static let migrationLock: Int32 = 0x4172_6364  // "Arcd"

    init(url: String, role: Database.Role) throws(DatabaseError) {
        let location = DatabaseLocation.postgresql(url)
        name = location.description
        var reason = [CChar](repeating: 0, count: 512)
        guard cpg_load(&reason, reason.count) == 0 else {
            throw DatabaseError(
                "PostgreSQL needs libpq, which is not installed (Debian: apt-get install libpq5): "
                    + String(decoding: reason.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        _ = Self.routeNotices
        guard let connection = cpg_connectdb(url) else { throw DatabaseError("\(name): out of memory") }
        guard cpg_status(connection) == CPG_CONNECTION_OK else {
            let message = Self.text(cpg_error_message(connection))
            cpg_finish(connection)
            throw DatabaseError(location.redact("cannot connect to \(name): \(message)"), sqlState: "08001")
        }
        self.connection = connection
        if cpg_has_pipeline() == 0 {  // refused by every connection, so start-up says it
            cpg_finish(connection)
            throw DatabaseError(
                "PostgreSQL needs libpq 14 or newer (its writer sends each group of transactions in one pipeline); "
                    + "the libpq loaded has no PQenterPipelineMode: upgrade libpq5 or point ARCADE_LIBPQ at a newer one"
            )
        }
        // An acknowledged write is durable (the server default, stated so no configuration can weaken it).
        try executeScript("SET synchronous_commit = on; SET client_min_messages = warning; SET TIME ZONE 'UTC'")
        // A pool's reader refuses writes: only the writer writes.
        if role == .pooled { try executeScript("SET SESSION CHARACTERISTICS AS TRANSACTION READ ONLY") }
    }

    deinit { cpg_finish(connection) }

    /// The server's warnings (`client_min_messages = warning`) as the program's log lines, once for all connections.
    private static let routeNotices: Void = cpg_set_notice_hook { message in
        guard let message else { return }
        var text = String(cString: message)
        while text.last == "\n" { text.removeLast() }
        Log.warning("postgresql: \(text)", every: "postgresql notice")
    }

    private static func text(_ pointer: UnsafePointer<CChar>?) -> String {
        guard let pointer else { return "" }
        var message = String(cString: pointer)
        while message.last?.isWhitespace == true { message.removeLast() }
        return message
    }

    /// True once libpq knows the connection is broken (it learns when it next talks to the server).
    var isBroken: Bool { cpg_status(connection) != CPG_CONNECTION_OK }

    /// A COMMIT was handed to libpq and its answer is not read yet: if the connection breaks now, whether the
    /// transaction committed is unknown.
    private var awaitingCommit = false

    /// The SQLSTATE of a failure: a broken connection is 08006, or 08007 while a COMMIT's answer was awaited (the
    /// writer runs the first again on a new connection and reports the second); the server's own code otherwise.
    /// The server's own FATAL as it shuts down (57P01) counts as a broken connection too, before libpq marks it.
    private func state(_ given: String) -> String {
        let lost = given.hasPrefix("57P") || given.hasPrefix("08")
        guard isBroken || lost else { return given }
        if awaitingCommit { return "08007" }
        return lost ? given : "08006"
    }

    /// An error of libpq's own (a send that failed), classified as above.
    private func failure(_ what: String) -> DatabaseError {
        DatabaseError("\(name): \(what)\(Self.text(cpg_error_message(connection)))", sqlState: state(""))
    }

    /// The SQLSTATE a failed result carries. The server always sends one; a result without one is libpq's own, and
    /// in a query it means the connection went ("server closed the connection unexpectedly" can come before libpq
    /// marks the connection bad: a SELECT then answered 500, not 503, in one PostgreSQL restart out of eight).
    private static func sqlState(of result: OpaquePointer?) -> String {
        let given = result.map { String(cString: cpg_sqlstate($0)) } ?? ""
        return given.isEmpty ? "08006" : given
    }

    /// The result, or the error it carries (cleared either way on failure).
    private func check(_ result: OpaquePointer?, _ sql: String, job: Int? = nil) throws(DatabaseError) -> OpaquePointer
    {
        let status = cpg_result_status(result)
        guard let result, status == CPG_COMMAND_OK || status == CPG_TUPLES_OK else {
            let message = result.map { Self.text(cpg_result_error($0)) } ?? Self.text(cpg_error_message(connection))
            // No result, or one of libpq's own: the connection is gone.
            let code = state(Self.sqlState(of: result))
            if sql == "COMMIT" { awaitingCommit = false }
            cpg_clear(result)
            throw DatabaseError(
                "\(message.isEmpty ? "the query failed" : message) (in: \(sql.prefix(120)))", sqlState: code, job: job)
        }
        if sql == "COMMIT" { awaitingCommit = false }
        return result
    }

    private func run(_ sql: String, _ values: [SQLValue]) throws(DatabaseError) -> OpaquePointer {
        if pipelined {
            try enqueue(sql, values)
            return try sync(keepLast: true)!
        }
        roundTrips += 1
        let statement = try prepared(sql, values)
        if sql == "COMMIT" { awaitingCommit = true }
        return try withParameters(values) { pointers, lengths, formats throws(DatabaseError) in
            try check(
                cpg_exec_prepared(connection, statement.name, Int32(values.count), pointers, lengths, formats), sql)
        }
    }

    /// Sends a statement in the pipeline without waiting for its result.
    private func enqueue(_ sql: String, _ values: [SQLValue]) throws(DatabaseError) {
        let statement = try prepared(sql, values)
        let sent = try withParameters(values) { pointers, lengths, formats throws(DatabaseError) in
            cpg_send_query_prepared(connection, statement.name, Int32(values.count), pointers, lengths, formats)
        }
        guard sent == 1 else { throw failure("") }
        if sql == "COMMIT" { awaitingCommit = true }
        pending.append((sql, job))
    }

    /// Ends the pipeline's flight: a sync point, then every result sent since, in order. The first failure is thrown,
    /// naming the transaction that sent it (the server skipped what followed it, up to the sync); with `keepLast`,
    /// the last statement's result is returned. Out of a transaction, the connection leaves pipeline mode.
    private func sync(keepLast: Bool) throws(DatabaseError) -> OpaquePointer? {
        let pendingCount = pending.count
        return try sync(keeping: { keepLast && $0 == pendingCount - 1 }).last ?? nil
    }

    /// As above, returning the results `keep` asks for, in order.
    private func sync(keeping keep: (Int) -> Bool) throws(DatabaseError) -> [OpaquePointer] {
        let sent = try sendSync()
        runBeforeWait()
        return try read(sent, keeping: keep)
    }

    private func runBeforeWait() {
        guard let hook = beforeWait else { return }
        beforeWait = nil
        hook()
    }

    /// Called once, by the first sync of a group, after its flight is sent and before its results are read: the
    /// writer confirms the group before (its COMMIT, on its other connection) while the server runs this one.
    var beforeWait: (() -> Void)?

    /// A group's COMMIT sent and not yet confirmed.
    private var committing: [(sql: String, job: Int)] = []

    /// Sends the statements pending with a sync point; returns them, whose results are to be read in order.
    private func sendSync() throws(DatabaseError) -> [(sql: String, job: Int)] {
        guard cpg_pipeline_sync(connection) == 1 else { throw failure("") }
        roundTrips += 1
        defer { pending = [] }
        return pending
    }

    /// The writer's group's COMMIT, sent without waiting for it: the server flushes it while the next group runs on
    /// the writer's other connection; `confirmCommit` reads its answer. The statements still unanswered are waited
    /// for first (the COMMIT travelling right behind them): one may lock a row, and the next group must not hold a
    /// row that this one will still lock, or each would wait for the other.
    func sendCommit() throws(DatabaseError) {
        _ = try prepared("COMMIT", [])  // a statement's first use syncs: before the flights below, not between
        let statements = try sendSync()
        try enqueue("COMMIT", [])
        committing = try sendSync()
        runBeforeWait()
        do {
            _ = try read(statements, keeping: { _ in false })
        } catch {
            // The failed transaction is over: the COMMIT that followed rolled it back.
            try? confirmCommit()
            throw error
        }
    }

    func confirmCommit() throws(DatabaseError) {
        let sent = committing
        committing = []
        _ = try read(sent, keeping: { _ in false })
    }

    /// Reads the results of a flight sent (`sendSync`), in order, and its sync point.
    private func read(
        _ sent: [(sql: String, job: Int)], keeping keep: (Int) -> Bool
    ) throws(DatabaseError)
        -> [OpaquePointer]
    {
        var failure: DatabaseError?
        var kept: [OpaquePointer] = []
        for (i, item) in sent.enumerated() {
            let result = cpg_get_result(connection)
            if result != nil { cpg_clear(cpg_get_result(connection)) }  // the NULL that ends each statement's results
            if failure != nil {
                cpg_clear(result)
                continue
            }
            do throws(DatabaseError) {
                let checked = try check(result, item.sql, job: item.job)
                if keep(i) { kept.append(checked) } else { cpg_clear(checked) }
            } catch {
                failure = error
            }
        }
        let point = cpg_get_result(connection)
        let synced = cpg_result_status(point) == CPG_PIPELINE_SYNC
        if failure == nil && !synced && !(sent.last?.sql == "COMMIT") {
            // The server's FATAL (shutting down) comes in place of the sync point. After a COMMIT whose answer came
            // back, the transaction is committed whatever follows: the broken connection is found at its next use.
            let code = state(Self.sqlState(of: point))
            failure = DatabaseError(
                "\(name): the pipeline lost its sync: \(Self.text(cpg_error_message(connection)))", sqlState: code)
        }
        cpg_clear(point)
        if cpg_transaction_status(connection) == CPG_TRANS_IDLE && cpg_exit_pipeline(connection) == 1 {
            pipelined = false
        }
        if let failure {
            for result in kept { cpg_clear(result) }
            throw failure
        }
        return kept
    }

    /// Several transactions' first statements in one flight (the writer's group prefetch): each sent as its job,
    /// then one sync; the rows of each, in order.
    func prefetch(_ statements: [(sql: String, values: [SQLValue], job: Int)]) throws(DatabaseError) -> [[Row]] {
        guard pipelined else {
            var all: [[Row]] = []
            for statement in statements { all.append(try query(statement.sql, statement.values)) }
            return all
        }
        let current = job
        defer { job = current }
        for statement in statements {
            job = statement.job
            try enqueue(statement.sql, statement.values)
        }
        let first = pending.count - statements.count
        return try sync(keeping: { $0 >= first }).enumerated().map { i, result in
            defer { cpg_clear(result) }
            return rows(result, statements[i].sql)
        }
    }

    /// The statement's name on this connection, prepared on first use.
    private func prepared(_ sql: String, _ values: [SQLValue]) throws(DatabaseError) -> (name: String, count: Int) {
        let statement: (name: String, count: Int)
        if let known = statements[sql] {
            statement = known
        } else {
            let (numbered, count) = SQLScanner(sql).numberedParameters()
            let name = "s\(statements.count)"
            // Types from the first call's values, so `SELECT ? AS n` is a number; a null leaves it to the server.
            let types: [UInt32] = (0..<count).map { i in
                guard i < values.count else { return 0 }
                switch values[i] {
                case .integer: return 20  // int8
                case .real: return 701  // float8
                case .blob: return 17  // bytea
                case .text, .null: return 0
                }
            }
            if pipelined {
                // Known only once the server says so: a prepare skipped after an earlier failure is not prepared.
                guard cpg_send_prepare(connection, name, numbered, Int32(count), types) == 1 else {
                    throw failure("")
                }
                pending.append((sql, job))
                _ = try sync(keepLast: false)
            } else {
                cpg_clear(try check(cpg_prepare(connection, name, numbered, Int32(count), types), sql))
            }
            statement = (name, count)
            statements[sql] = statement
        }
        guard values.count == statement.count else {
            throw DatabaseError("\(statement.count) parameters, \(values.count) values (in: \(sql.prefix(120)))")
        }
        return statement
    }

    /// Each value as a C string (or bytes, for a blob), alive for the call, with its length and format.
    private func withParameters<T>(
        _ values: [SQLValue],
        _ body: ([UnsafePointer<CChar>?], [Int32], [Int32]) throws(DatabaseError) -> T
    ) throws(DatabaseError) -> T {
        var buffers: [[CChar]?] = []
        var lengths: [Int32] = []
        var formats: [Int32] = []
        for value in values {
            var bytes: [CChar]?
            var format: Int32 = 0
            switch value {
            case .null: bytes = nil
            case .integer(let v): bytes = Array(String(v).utf8CString)
            case .real(let v): bytes = Array(Self.decimal(v).utf8CString)
            case .text(let v): bytes = Array(v.utf8CString)
            case .blob(let v):
                bytes = v.map { CChar(bitPattern: $0) }
                format = 1
            }
            lengths.append(Int32(bytes.map { format == 1 ? $0.count : $0.count - 1 } ?? 0))
            formats.append(format)
            buffers.append(bytes)
        }
        return try withPointers(buffers) { pointers throws(DatabaseError) in try body(pointers, lengths, formats) }
    }

    /// A Double as PostgreSQL reads it back exactly.
    private static func decimal(_ v: Double) -> String {
        if v.isNaN { return "NaN" }
        if v.isInfinite { return v > 0 ? "Infinity" : "-Infinity" }
        return "\(v)"
    }

    private func withPointers<T>(
        _ buffers: [[CChar]?], _ body: ([UnsafePointer<CChar>?]) throws(DatabaseError) -> T
    )
        throws(DatabaseError) -> T
    {
        var pointers: [UnsafePointer<CChar>?] = []
        var owned: [UnsafeMutablePointer<CChar>] = []
        defer { for pointer in owned { pointer.deallocate() } }
        for buffer in buffers {
            guard let buffer else {
                pointers.append(nil)
                continue
            }
            let copy = UnsafeMutablePointer<CChar>.allocate(capacity: max(1, buffer.count))
            copy.initialize(from: buffer, count: buffer.count)
            owned.append(copy)
            pointers.append(UnsafePointer(copy))
        }
        return try body(pointers)
    }

    func execute(_ sql: String, _ values: [SQLValue]) throws(DatabaseError) -> Int {
        let result = try run(sql, values)
        defer { cpg_clear(result) }
        return Int(Self.text(cpg_cmd_tuples(result))) ?? 0
    }

    func query(_ sql: String, _ values: [SQLValue]) throws(DatabaseError) -> [Row] {
        let result = try run(sql, values)
        defer { cpg_clear(result) }
        return rows(result, sql)
    }

    private func rows(_ result: OpaquePointer, _ sql: String) -> [Row] {
        let count = cpg_nfields(result)
        let columns = (0..<count).map { String(cString: cpg_fname(result, $0)) }
        let types = (0..<count).map { cpg_ftype(result, $0) }
        return (0..<cpg_ntuples(result)).map { row in
            Row(
                columns: columns,
                values: (0..<count).map { column in
                    guard cpg_getisnull(result, row, column) == 0, let value = cpg_getvalue(result, row, column) else {
                        return .null
                    }
                    return Self.value(value, length: Int(cpg_getlength(result, row, column)), type: types[Int(column)])
                }, query: sql)
        }
    }

    /// A text-format value as the engine-neutral SQLValue its column type means.
    private static func value(_ pointer: UnsafePointer<CChar>, length: Int, type: UInt32) -> SQLValue {
        let bytes = UnsafeRawBufferPointer(start: pointer, count: length)
        let text = String(decoding: bytes, as: UTF8.self)
        switch type {
        case 20, 21, 23, 26: return Int64(text).map { .integer($0) } ?? .text(text)  // int8, int2, int4, oid
        case 16: return .integer(text == "t" ? 1 : 0)  // bool, as SQLite has it
        case 700, 701: return Double(text).map { .real($0) } ?? .text(text)
        case 1700: return Int64(text).map { .integer($0) } ?? Double(text).map { .real($0) } ?? .text(text)  // numeric
        case 17: return .blob(bytea(pointer))  // bytea, "\x…"
        default: return .text(text)
        }
    }

    /// A bytea in text form, decoded by libpq.
    private static func bytea(_ pointer: UnsafePointer<CChar>) -> [UInt8] {
        var length = 0
        guard let bytes = cpg_unescape_bytea(pointer, &length) else { return [] }
        defer { cpg_free(bytes) }
        return Array(UnsafeBufferPointer(start: bytes, count: length))
    }

    /// The connection's socket, for waiting on notifications.
    var socket: Int32 { cpg_socket(connection) }

    /// Reads what the server sent; false when the connection is broken.
    func consumeInput() -> Bool { cpg_consume_input(connection) == 1 && cpg_status(connection) == CPG_CONNECTION_OK }

    /// The payload of the next notification received on a channel this connection listens to, if any.
    func nextNotification() -> String? {
        var payload = [CChar](repeating: 0, count: 512)
        guard cpg_next_notification(connection, &payload, payload.count) == 1 else { return nil }
        return String(decoding: payload.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    func executeScript(_ sql: String) throws(DatabaseError) {
        if pipelined {  // one statement at a time there
            cpg_clear(try run(sql, []))
            return
        }
        roundTrips += 1
        cpg_clear(try check(cpg_exec(connection, sql), sql))
    }

    func beginWrite() throws(DatabaseError) { try executeScript("BEGIN") }

    /// BEGIN in pipeline mode: it goes with the group's first statement that waits.
    func beginGroup() throws(DatabaseError) {
        if !pipelined {
            _ = try prepared("BEGIN", [])  // before: out of a transaction, a sync would end pipeline mode
            guard cpg_enter_pipeline(connection) == 1 else { throw failure("cannot enter pipeline mode: ") }
            pipelined = true
        }
        try enqueue("BEGIN", [])
    }

    func send(_ sql: String, _ values: [SQLValue]) throws(DatabaseError) {
        if pipelined { try enqueue(sql, values) } else { _ = try execute(sql, values) }
    }

    var inTransaction: Bool {
        !pending.isEmpty || !committing.isEmpty || cpg_transaction_status(connection) != CPG_TRANS_IDLE
    }

    var schemaVersion: Int {
        get throws(DatabaseError) {
            try executeScript("CREATE TABLE IF NOT EXISTS arcade_schema (version BIGINT NOT NULL)")
            return try query("SELECT max(version) AS version FROM arcade_schema", []).first?.int("version") ?? 0
        }
    }

    func setSchemaVersion(_ version: Int) throws(DatabaseError) {
        try executeScript("DELETE FROM arcade_schema; INSERT INTO arcade_schema VALUES (\(version))")
    }
}
