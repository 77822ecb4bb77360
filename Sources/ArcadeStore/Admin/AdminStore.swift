import Crypto
import Storage

#if canImport(Glibc)
import Glibc
#endif

/// Admin accounts, their sessions and the audit log (failed sign-ins are `SignInLimits`', in memory).
/// Passwords are hashed with PBKDF2-HMAC-SHA256 (600,000 iterations) and
/// compared in constant time; session tokens are 256 random bits, of which
/// only a hash is stored.
package struct AdminStore: Sendable {
    package let pool: DatabasePool
    /// Seconds since the epoch; injected so tests can age sessions and failures.
    package var clock: @Sendable () -> Int = { Int(WallClock.system()) }
    /// Every password hash a request asks for waits here (the command line's do not).
    package var hashing = HashGate()
    /// PBKDF2 rounds for a new password: 600,000 (OWASP's figure for PBKDF2-HMAC-SHA256), 0.2 CPU-seconds a hash.
    package static let defaultIterations = testIterations ?? 600_000
    package var iterations = defaultIterations

    package init(
        pool: DatabasePool, clock: @escaping @Sendable () -> Int = { Int(WallClock.system()) },
        hashing: HashGate = HashGate(), iterations: Int = defaultIterations
    ) {
        self.pool = pool
        self.clock = clock
        self.hashing = hashing
        self.iterations = iterations
    }
    /// A debug build (the tests') takes fewer from ARCADE_TEST_PASSWORD_ITERATIONS: the test suite makes and checks
    /// hundreds of passwords on a 2-core machine whose CPU is its run time. A release build never reads it.
    private static var testIterations: Int? {
        #if DEBUG
        if let text = getenv("ARCADE_TEST_PASSWORD_ITERATIONS"), let value = Int(String(cString: text)), value > 0 {
            return value
        }
        #endif
        return nil
    }
    /// Sessions end after this long without a request.
    package static let idleSeconds = 30 * 60
    /// However busy, a session ends this long after sign-in (a stolen cookie does not live for ever).
    package static let lifetimeSeconds = 12 * 3600

    package struct Admin: Sendable, Equatable {
        package let id: Int
        package let name: String

        package init(id: Int, name: String) {
            self.id = id
            self.name = name
        }
    }

    /// An `admins` row.
    package struct Account: FetchableRecord, TableRecord {
        package static let table = "admins"
        package enum Columns: String, ColumnName { case id, name, salt, hash, iterations, created }
        package let id: Int, name: String, salt: [UInt8], hash: [UInt8], iterations: Int, created: Int

        package init(row: Row) throws(DatabaseError) {
            id = try row.decode(Columns.id)
            name = try row.decode(Columns.name)
            salt = try row.decode(Columns.salt)
            hash = try row.decode(Columns.hash)
            iterations = try row.decode(Columns.iterations)
            created = try row.decode(Columns.created)
        }

        /// A new account's row.
        static func insert(name: String, salt: [UInt8], hash: [UInt8], iterations: Int, at now: Int) -> SQLStatement {
            insert { row in
                row[.name] = name
                row[.salt] = salt
                row[.hash] = hash
                row[.iterations] = iterations
                row[.created] = now
            }
        }
    }

    /// An `admin_sessions` row: a signed-in browser, by its token's hash.
    package enum SessionRow: TableRecord {
        package static let table = "admin_sessions"
        package enum Columns: String, ColumnName {
            case tokenHash = "token_hash", admin, created, lastSeen = "last_seen", address, device
        }
    }

    /// An `audit` row.
    package struct AuditEntry: Sendable, FetchableRecord, TableRecord {
        package static let table = "audit"
        package enum Columns: String, ColumnName { case id, admin, at, action, target, before, after }
        package let id: Int64, admin: String, at: Int, action: String, target: String, before: String?, after: String?

        package init(row: Row) throws(DatabaseError) {
            id = try row.decode(Columns.id)
            admin = try row.decode(Columns.admin)
            at = try row.decode(Columns.at)
            action = try row.decode(Columns.action)
            target = try row.decode(Columns.target)
            before = try row.decodeIfPresent(Columns.before)
            after = try row.decodeIfPresent(Columns.after)
        }
    }

    package static func validName(_ name: String) -> Bool {
        (1...64).contains(name.count)
            && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "._-@".contains($0)) }
    }

    package func count() throws -> Int { try pool.connection().scalar(Int.self, "SELECT COUNT(*) AS n FROM admins") }

    /// A new account; `actor` (who made it: an admin, the command line, the first start) goes to the audit log with
    /// it, in the same transaction.
    package func create(name: String, password: String, by actor: String? = nil) throws {
        let salt = Crypto.randomBytes(16)
        let hash = Crypto.pbkdf2SHA256(password: Array(password.utf8), salt: salt, iterations: iterations)
        let now = clock()
        _ = try pool.write { db in
            try db.execute(Account.insert(name: name, salt: salt, hash: hash, iterations: iterations, at: now))
            if let actor {
                try Self.audit(db, at: now, actor, action: "create admin", target: name, before: nil, after: nil)
            }
        }
    }

    /// A new password for an existing account, ending every session it has (except `keeping`, a token's
    /// session: the admin who changed it stays signed in there). False when there is no such account.
    /// `audit`: who did it and how it is logged ("change password" by the admin, "reset password" from a shell).
    package func setPassword(
        name: String, password: String, keeping token: String? = nil, audit: (actor: String, action: String)? = nil
    ) throws -> Bool {
        let salt = Crypto.randomBytes(16)
        let hash = Crypto.pbkdf2SHA256(password: Array(password.utf8), salt: salt, iterations: iterations)
        let kept = SQLValue.blob(token.map { Crypto.sha256(Array($0.utf8)) } ?? [])
        let now = clock()
        return try pool.write { db in
            guard let id = try db.value(Int.self, "SELECT id FROM admins WHERE name = ?", [.text(name)]) else {
                return false
            }
            try db.execute(
                "UPDATE admins SET salt = ?, hash = ?, iterations = ? WHERE id = ?",
                [.blob(salt), .blob(hash), SQLValue(iterations), SQLValue(id)])
            let ended =
                try db.value(
                    Int.self, "SELECT COUNT(*) AS n FROM admin_sessions WHERE admin = ? AND token_hash != ?",
                    [SQLValue(id), kept]) ?? 0
            try db.execute("DELETE FROM admin_sessions WHERE admin = ? AND token_hash != ?", [SQLValue(id), kept])
            if let audit {
                try Self.audit(
                    db, at: now, audit.actor, action: audit.action, target: name, before: nil,
                    after: "\(ended) other session(s) ended")
            }
            return true
        }
    }

    /// Every account's name and when it was made, by name.
    package func list() throws -> [(name: String, created: Int)] {
        try pool.connection().fetchAll(Account.self, "SELECT \(Account.selection) FROM admins ORDER BY name")
            .map { ($0.name, $0.created) }
    }

    /// Why a removal did not happen.
    package enum Removal: Equatable {
        case removed
        case noSuchAdmin
        /// The site would have no admin left.
        case lastAdmin
    }

    /// Removes an account, its sessions and second factor, never the last one (checked in the same transaction, so
    /// two admins removing each other at once cannot both succeed); audited as `actor`'s.
    package func remove(name: String, by actor: String) throws -> Removal {
        let now = clock()
        return try pool.write { db in
            guard let id = try db.value(Int.self, "SELECT id FROM admins WHERE name = ?", [.text(name)]) else {
                return .noSuchAdmin
            }
            // Every account's row locked (PostgreSQL: another instance removing one waits), then counted.
            guard try db.query("SELECT id FROM admins" + db.forUpdate).count > 1 else { return .lastAdmin }
            try db.execute("DELETE FROM admin_sessions WHERE admin = ?", [SQLValue(id)])
            try db.execute("DELETE FROM admin_recovery_codes WHERE admin = ?", [SQLValue(id)])
            try db.execute("DELETE FROM admins WHERE id = ?", [SQLValue(id)])
            try Self.audit(db, at: now, actor, action: "remove admin", target: name, before: nil, after: nil)
            return .removed
        }
    }

    /// The admin if the password is right. A missing account costs the same
    /// hashing as a wrong password, so timing does not tell them apart.
    package func verify(name: String, password: String) throws -> Admin? {
        let account = try pool.connection().fetchOne(
            Account.self, "SELECT \(Account.selection) FROM admins WHERE name = ?",
            [.text(name)])
        let salt = account?.salt ?? Array(repeating: 0, count: 16)
        let computed = Crypto.pbkdf2SHA256(
            password: Array(password.utf8), salt: salt,
            iterations: account?.iterations ?? iterations)
        guard let account, Crypto.constantTimeEqual(computed, account.hash) else { return nil }
        return Admin(id: account.id, name: name)
    }

    /// A new session: the token for the cookie. Where it came from is kept for the admins page; the sign-in is
    /// audited (`how`: "password", "password + code" …) in the same transaction.
    package func startSession(
        _ admin: Admin, address: String = "", device: String = "", how: String? = nil
    ) throws -> String {
        let token = Base64URL.encode(Crypto.randomBytes(32))
        let now = clock()
        _ = try pool.write { db in
            try db.execute(
                SessionRow.insert { row in
                    row[.tokenHash] = Crypto.sha256(Array(token.utf8))
                    row[.admin] = admin.id
                    row[.created] = now
                    row[.lastSeen] = now
                    row[.address] = String(address.prefix(64))
                    row[.device] = String(device.prefix(64))
                })
            try db.execute("UPDATE admins SET last_sign_in = ? WHERE id = ?", [SQLValue(now), SQLValue(admin.id)])
            if let how {
                try Self.audit(db, at: now, admin.name, action: "sign-in", target: address, before: nil, after: how)
            }
        }
        return token
    }

    /// The admin of a live session, or nil. Its idle clock is renewed at most once a minute (admin
    /// pages run off the event loop, so they may wait for that write).
    package func session(_ token: String) throws -> Admin? {
        guard token.utf8.count == 43 else { return nil }
        let db = try pool.connection()
        let key = SQLValue.blob(Crypto.sha256(Array(token.utf8)))
        guard
            let row = try db.first(
                """
                SELECT a.id, a.name, s.created, s.last_seen FROM admin_sessions s JOIN admins a ON a.id = s.admin
                WHERE s.token_hash = ?
                """, [key])
        else { return nil }
        let id: Int = try row.decode(Account.Columns.id)
        let name: String = try row.decode(Account.Columns.name)
        let lastSeen: Int = try row.decode(SessionRow.Columns.lastSeen)
        let created: Int = try row.decode(SessionRow.Columns.created)
        let now = clock()
        guard now - lastSeen <= Self.idleSeconds, now - created <= Self.lifetimeSeconds else {
            _ = try pool.write { try $0.execute("DELETE FROM admin_sessions WHERE token_hash = ?", [key]) }
            return nil
        }
        if now - lastSeen >= 60 {
            _ = try pool.write {
                try $0.execute("UPDATE admin_sessions SET last_seen = ? WHERE token_hash = ?", [SQLValue(now), key])
            }
        }
        return Admin(id: id, name: name)
    }

    /// Whether a token belongs to a live session: a read only, for pages on the event loop.
    package func isSignedIn(_ token: String) -> Bool {
        guard token.utf8.count == 43, let db = try? pool.connection(),
            let row = try? db.first(
                "SELECT created, last_seen FROM admin_sessions WHERE token_hash = ?",
                [.blob(Crypto.sha256(Array(token.utf8)))]),
            let created: Int = try? row.decode(SessionRow.Columns.created),
            let lastSeen: Int = try? row.decode(SessionRow.Columns.lastSeen)
        else { return false }
        let now = clock()
        return now - lastSeen <= Self.idleSeconds && now - created <= Self.lifetimeSeconds
    }

    /// Ends an admin session; `admin` (the session's, when it was still valid): its sign-out is audited in the same
    /// transaction.
    package func endSession(_ token: String, admin: String?) throws {
        _ = try pool.write { db in
            try db.execute("DELETE FROM admin_sessions WHERE token_hash = ?", [.blob(Crypto.sha256(Array(token.utf8)))])
            if let admin {
                try Self.audit(db, at: clock(), admin, action: "sign-out", target: "", before: nil, after: nil)
            }
        }
    }

    /// An audit entry inside the caller's transaction, so the change and its entry commit together.
    package static func audit(
        _ db: Database, at seconds: Int, _ admin: String, action: String, target: String, before: String?,
        after: String?
    ) throws {
        try db.execute(
            AuditEntry.insert { row in
                row[.admin] = admin
                row[.at] = seconds
                row[.action] = action
                row[.target] = target
                row[.before] = before
                row[.after] = after
            })
    }

    package func auditLog(limit: Int = 200) throws -> [AuditEntry] {
        try pool.connection().fetchAll(
            AuditEntry.self, "SELECT \(AuditEntry.selection) FROM audit ORDER BY id DESC LIMIT ?",
            [SQLValue(limit)])
    }
}
