import Crypto
import Storage

/// The admins page's data: accounts, their live sessions, one-time set-up links. Every change is audited in the
/// transaction that makes it.
extension AdminStore {
    /// How long a set-up link works.
    package static let inviteSeconds = 24 * 3600

    package struct AccountSummary: Sendable {
        package let id: Int, name: String, created: Int, lastSignIn: Int?, twoFactor: Bool
    }

    package struct SessionSummary: Sendable {
        /// The token's hash, base64url: names the session in a revoke form (the token cannot be had from it).
        package let key: String
        package let admin: String, device: String, address: String, created: Int, lastSeen: Int
    }

    /// An `admin_invites` row: a set-up link, by its token's hash.
    package struct Invite: Sendable, FetchableRecord, TableRecord {
        package static let table = "admin_invites"
        package enum Columns: String, ColumnName {
            case tokenHash = "token_hash", name, createdBy = "created_by", created, expires
        }
        package let name: String, createdBy: String, expires: Int

        package init(row: Row) throws(DatabaseError) {
            name = try row.decode(Columns.name)
            createdBy = try row.decode(Columns.createdBy)
            expires = try row.decode(Columns.expires)
        }
    }

    package func accounts() throws -> [AccountSummary] {
        try pool.connection().query(
            "SELECT id, name, created, last_sign_in, totp_secret IS NOT NULL AS two FROM admins ORDER BY name"
        ).map { row in
            AccountSummary(
                id: try row.decode(Account.Columns.id), name: try row.decode(Account.Columns.name),
                created: try row.decode(Account.Columns.created),
                lastSignIn: try row.decodeIfPresent("last_sign_in"), twoFactor: try row.decode("two") as Bool)
        }
    }

    /// Live sessions (not past their idle or lifetime limit), most recently used first.
    package func sessions() throws -> [SessionSummary] {
        let now = clock()
        return try pool.connection().query(
            """
            SELECT s.token_hash, a.name, s.device, s.address, s.created, s.last_seen
            FROM admin_sessions s JOIN admins a ON a.id = s.admin
            WHERE s.last_seen >= ? AND s.created >= ? ORDER BY s.last_seen DESC, a.name
            """, [SQLValue(now - Self.idleSeconds), SQLValue(now - Self.lifetimeSeconds)]
        ).map { row in
            SessionSummary(
                key: Base64URL.encode(try row.decode(SessionRow.Columns.tokenHash)),
                admin: try row.decode(Account.Columns.name), device: try row.decode(SessionRow.Columns.device),
                address: try row.decode(SessionRow.Columns.address),
                created: try row.decode(SessionRow.Columns.created),
                lastSeen: try row.decode(SessionRow.Columns.lastSeen))
        }
    }

    /// The key a session's token is listed under.
    package static func sessionKey(_ token: String) -> String { Base64URL.encode(Crypto.sha256(Array(token.utf8))) }

    /// Ends one session by its listed key; false when there is no such session (already ended).
    package func revokeSession(key: String, by actor: String) throws -> Bool {
        guard let hash = Base64URL.decode(key), hash.count == 32 else { return false }
        let now = clock()
        return try pool.write { db in
            guard
                let row = try db.first(
                    """
                    SELECT a.name, s.device, s.address FROM admin_sessions s JOIN admins a ON a.id = s.admin
                    WHERE s.token_hash = ?
                    """, [.blob(hash)])
            else { return false }
            try db.execute("DELETE FROM admin_sessions WHERE token_hash = ?", [.blob(hash)])
            let name: String = try row.decode(Account.Columns.name)
            let device: String = try row.decode(SessionRow.Columns.device)
            let address: String = try row.decode(SessionRow.Columns.address)
            try Self.audit(
                db, at: now, actor, action: "revoke session", target: name, before: "\(device), \(address)",
                after: nil)
            return true
        }
    }

    package enum InviteOutcome: Equatable {
        /// The link's token: shown once, never stored.
        case created(String)
        case taken
    }

    /// A set-up link for a new admin `name`, replacing any earlier link for that name; expired links are dropped.
    package func invite(name: String, by actor: String) throws -> InviteOutcome {
        let token = Base64URL.encode(Crypto.randomBytes(32))
        let now = clock()
        return try pool.write { db in
            if try db.value(Int.self, "SELECT id FROM admins WHERE name = ?", [.text(name)]) != nil { return .taken }
            try db.execute("DELETE FROM admin_invites WHERE expires < ? OR name = ?", [SQLValue(now), .text(name)])
            try db.execute(
                Invite.insert { row in
                    row[.tokenHash] = Crypto.sha256(Array(token.utf8))
                    row[.name] = name
                    row[.createdBy] = actor
                    row[.created] = now
                    row[.expires] = now + Self.inviteSeconds
                })
            try Self.audit(
                db, at: now, actor, action: "invite admin", target: name, before: nil,
                after: "link expires \(UTCTime.format(now + Self.inviteSeconds))")
            return .created(token)
        }
    }

    /// Links not yet used nor expired.
    package func invites() throws -> [Invite] {
        try pool.connection().fetchAll(
            Invite.self, "SELECT \(Invite.selection) FROM admin_invites WHERE expires >= ? ORDER BY name",
            [SQLValue(clock())])
    }

    /// The link a token opens, if it still works.
    package func invitation(_ token: String) throws -> Invite? {
        guard token.utf8.count == 43 else { return nil }
        return try pool.connection().fetchOne(
            Invite.self, "SELECT \(Invite.selection) FROM admin_invites WHERE token_hash = ? AND expires >= ?",
            [.blob(Crypto.sha256(Array(token.utf8))), SQLValue(clock())])
    }

    package enum AcceptOutcome: Equatable {
        case created(name: String)
        /// Used, expired, or never issued.
        case invalid
        /// The name was taken meanwhile (the command line made that admin).
        case taken
    }

    /// The new admin's password, through a link: the link is used up in the transaction that makes the account.
    /// The password is hashed before (the caller runs this on the hashing gate).
    package func accept(invite token: String, password: String) throws -> AcceptOutcome {
        guard token.utf8.count == 43 else { return .invalid }
        let salt = Crypto.randomBytes(16)
        let hash = Crypto.pbkdf2SHA256(password: Array(password.utf8), salt: salt, iterations: iterations)
        let key = SQLValue.blob(Crypto.sha256(Array(token.utf8)))
        let now = clock()
        return try pool.write { db in
            guard
                let row = try db.first(
                    "SELECT name, created_by FROM admin_invites WHERE token_hash = ? AND expires >= ?" + db.forUpdate,
                    [key, SQLValue(now)])
            else { return .invalid }
            let name: String = try row.decode(Invite.Columns.name)
            let inviter: String = try row.decode(Invite.Columns.createdBy)
            try db.execute("DELETE FROM admin_invites WHERE token_hash = ?", [key])
            if try db.value(Int.self, "SELECT id FROM admins WHERE name = ?", [.text(name)]) != nil { return .taken }
            try db.execute(Account.insert(name: name, salt: salt, hash: hash, iterations: iterations, at: now))
            try Self.audit(
                db, at: now, name, action: "create admin", target: name, before: nil,
                after: "set-up link from \(inviter)")
            return .created(name: name)
        }
    }
}
