import Storage

/// An admin's passkeys: listed, looked up for a sign-in, added and removed with their audit entries.
extension AdminStore {
    /// An `admin_passkeys` row.
    package struct Passkey: Sendable, FetchableRecord, TableRecord {
        package static let table = "admin_passkeys"
        package enum Columns: String, ColumnName {
            case id, admin, publicKey = "public_key", signCount = "sign_count", created, lastUsed = "last_used"
        }
        package let id: String
        package let created: Int
        package let lastUsed: Int?

        package init(row: Row) throws(DatabaseError) {
            id = try row.decode(Columns.id)
            created = try row.decode(Columns.created)
            lastUsed = try row.decodeIfPresent(Columns.lastUsed)
        }
    }

    package func passkeys(_ admin: Admin) throws -> [Passkey] {
        try pool.connection().fetchAll(
            Passkey.self, "SELECT \(Passkey.selection) FROM admin_passkeys WHERE admin = ? ORDER BY created, id",
            [SQLValue(admin.id)])
    }

    /// What an admin's sign-in checks a signature against.
    package func passkeyKey(_ id: String) throws -> (admin: Admin, publicKey: [UInt8], signCount: UInt32)? {
        try pool.connection().first(
            """
            SELECT a.id AS admin, a.name AS name, k.public_key AS public_key, k.sign_count AS sign_count
            FROM admin_passkeys k JOIN admins a ON a.id = k.admin WHERE k.id = ?
            """, [.text(id)]
        ).map { row throws in
            (
                Admin(id: try row.decode(Passkey.Columns.admin), name: try row.decode(Account.Columns.name)),
                try row.decode(Passkey.Columns.publicKey),
                UInt32(clamping: try row.decode(Passkey.Columns.signCount, as: Int64.self))
            )
        }
    }

    /// Records a checked registration with its audit entry; false if its challenge was used already.
    package func addPasskey(
        _ admin: Admin, id: String, publicKey: [UInt8], signCount: UInt32, challenge: String, expires: Int64
    ) throws -> Bool {
        let now = Int(clock())
        return try pool.write { db in
            guard try PasskeyChallenges.use(challenge, expires: expires, now: Int64(now) * 1000, db) else {
                return false
            }
            try db.execute(
                Passkey.insert("ON CONFLICT (id) DO NOTHING") { row in
                    row[.id] = id
                    row[.admin] = admin.id
                    row[.publicKey] = publicKey
                    row[.signCount] = Int64(signCount)
                    row[.created] = now
                })
            try Self.audit(db, at: now, admin.name, action: "passkey.add", target: admin.name, before: nil, after: nil)
            return true
        }
    }

    /// A checked sign-in: its challenge used and the counter moved on; false if either was not fresh.
    package func usePasskey(_ id: String, signCount: UInt32, challenge: String, expires: Int64) throws -> Bool {
        let now = Int64(clock())
        return try pool.write { db in
            guard try PasskeyChallenges.use(challenge, expires: expires, now: now * 1000, db) else { return false }
            let count = SQLValue.integer(Int64(signCount))
            return try db.execute(
                """
                UPDATE admin_passkeys SET sign_count = ?, last_used = ?
                WHERE id = ? AND (sign_count < ? OR (sign_count = 0 AND ? = 0))
                """, [count, .integer(now), .text(id), count, count]) == 1
        }
    }

    package func removePasskey(_ admin: Admin, id: String) throws -> Bool {
        try pool.write { db in
            let removed = try db.execute(
                "DELETE FROM admin_passkeys WHERE id = ? AND admin = ?", [.text(id), SQLValue(admin.id)])
            if removed == 1 {
                try Self.audit(
                    db, at: Int(clock()), admin.name, action: "passkey.remove", target: admin.name, before: nil,
                    after: nil)
            }
            return removed == 1
        }
    }
}
