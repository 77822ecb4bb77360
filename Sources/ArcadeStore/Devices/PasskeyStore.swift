import Crypto
import Storage

/// Challenges that cost no write to hand out: 16 random bytes, an expiry and what they are for, sealed with an HMAC
/// tied to the browser session that asked. Each works once: the registration or sign-in that uses one records it in
/// the same transaction (`passkey_challenges_used`), until it expires.
package struct PasskeyChallenges: Sendable {
    /// A player's passkey made or used, or an admin's: a challenge made for one never serves another.
    package enum Purpose: UInt8, Sendable { case create = 1, get = 2, adminCreate = 3, adminGet = 4 }

    package let key: HMACKey
    /// How long the browser has to answer (the options ask for less: a timeout of 4 minutes).
    package static let lifetime = 300.0

    package func make(_ purpose: Purpose, session: String, now: Double) -> [UInt8] {
        var bytes = Crypto.randomBytes(16)
        let expires = UInt64(max(0, (now + Self.lifetime) * 1000))
        for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8(truncatingIfNeeded: expires >> shift)) }
        bytes.append(purpose.rawValue)
        return bytes + seal(bytes, session: session)
    }

    /// When a challenge this site made for `purpose` and this session expires (ms), or nil if it did not, is
    /// another's, or has expired.
    package func check(_ bytes: [UInt8], _ purpose: Purpose, session: String, now: Double) -> Int64? {
        guard bytes.count == 41, bytes[24] == purpose.rawValue,
            Crypto.constantTimeEqual(Array(bytes[25...]), seal(Array(bytes[..<25]), session: session))
        else { return nil }
        let expires = bytes[16..<24].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        guard expires <= UInt64(Int64.max), Double(expires) > now * 1000 else { return nil }
        return Int64(expires)
    }

    /// Records a challenge as used, in the caller's transaction (and forgets expired ones); false if it was used
    /// already.
    package static func use(_ challenge: String, expires: Int64, now: Int64, _ db: Database) throws -> Bool {
        try db.execute("DELETE FROM passkey_challenges_used WHERE expires_ms < ?", [.integer(now)])
        return try db.execute(
            UsedChallenges.insert("ON CONFLICT DO NOTHING") { row in
                row[.challenge] = challenge
                row[.expires] = expires
            }) == 1
    }

    /// `passkey_challenges_used`: challenges used up, kept until they expire.
    package enum UsedChallenges: TableRecord {
        package static let table = "passkey_challenges_used"
        package enum Columns: String, ColumnName { case challenge, expires = "expires_ms" }
    }

    /// A challenge this session asked for `purpose`, as a form's `challenge` field carries it, still fresh: its
    /// bytes, its text (what `use` records) and when it expires.
    package func check(
        _ text: String?, _ purpose: Purpose, session: String, now: Double
    ) -> (bytes: [UInt8], text: String, expires: Int64)? {
        guard let text, let bytes = Base64URL.decode(text),
            let expires = check(bytes, purpose, session: session, now: now)
        else { return nil }
        return (bytes, text, expires)
    }

    private func seal(_ bytes: [UInt8], session: String) -> [UInt8] {
        Array(key.authenticate(Array("passkey|\(session)|".utf8) + bytes).prefix(16))
    }

    package init(key: HMACKey) {
        self.key = key
    }
}

/// A player's passkeys: what the server keeps of each (the credential's id, its public key and counter), and the
/// sign-in that makes a device that player.
package struct PasskeyStore: Sendable {
    package let pool: DatabasePool

    /// A `passkeys` row.
    package struct Passkey: Sendable, FetchableRecord, TableRecord {
        package static let table = "passkeys"
        package enum Columns: String, ColumnName {
            case id, player, publicKey = "public_key", signCount = "sign_count", backedUp = "backed_up"
            case created = "created_ms", lastUsed = "last_used_ms", device
        }
        package let id: String
        package let createdMs: Int64
        package let lastUsedMs: Int64?
        /// "Chrome on Android": what the passkey was added from.
        package let device: String?

        package init(row: Row) throws(DatabaseError) {
            id = try row.decode(Columns.id)
            device = try row.decodeIfPresent(Columns.device)
            createdMs = try row.decode(Columns.created)
            lastUsedMs = try row.decodeIfPresent(Columns.lastUsed)
        }
    }

    /// What a sign-in checks a signature against.
    package struct Key: Sendable {
        package let player: String
        package let publicKey: [UInt8]
        package let signCount: UInt32
    }

    /// Why a write was refused; nothing was stored.
    package enum Refusal: String, Error, Sendable {
        /// The challenge was used already.
        case replayed
        /// The credential is registered (to anyone) already.
        case duplicate
        /// The passkey was removed, or never was.
        case unknown
        /// The counter did not move forward: the assertion is old, or the key was copied.
        case counter
        /// A player keeps at most `limit` passkeys.
        case tooMany
    }

    /// Passkeys a player may keep: a phone, a laptop, a security key, and a few more.
    package static let limit = 10

    package func passkeys(player: String) throws -> [Passkey] {
        try pool.connection().fetchAll(
            Passkey.self,
            "SELECT \(Passkey.selection) FROM passkeys WHERE player = ? ORDER BY created_ms, id",
            [.text(player)])
    }

    package func key(credential id: String) throws -> Key? {
        try pool.connection().first(
            "SELECT player, public_key, sign_count FROM passkeys WHERE id = ?", [.text(id)]
        ).map { row throws in
            Key(
                player: try row.decode(Passkey.Columns.player), publicKey: try row.decode(Passkey.Columns.publicKey),
                signCount: UInt32(clamping: try row.decode(Passkey.Columns.signCount, as: Int64.self)))
        }
    }

    /// Records a checked registration for `player`, using up its challenge.
    package func add(
        player: Player, id: String, publicKey: [UInt8], signCount: UInt32, backedUp: Bool, device: String,
        challenge: String, expires: Int64, now: Int64
    ) throws -> Refusal? {
        try refused {
            try pool.write { db in
                guard try db.value(Int.self, "SELECT 1 FROM passkeys WHERE id = ?", [.text(id)]) == nil else {
                    throw Refusal.duplicate
                }
                let count = try db.scalar(
                    Int.self, "SELECT COUNT(*) AS n FROM passkeys WHERE player = ?", [.text(player.id)])
                guard count < Self.limit else { throw Refusal.tooMany }
                try use(challenge, expires: expires, now: now, db)
                try player.ensureRow(db)
                try db.execute(
                    Passkey.insert { row in
                        row[.id] = id
                        row[.player] = player.id
                        row[.publicKey] = publicKey
                        row[.signCount] = Int64(signCount)
                        row[.backedUp] = backedUp
                        row[.created] = now
                        row[.device] = device.isEmpty ? nil : device
                    })
            }
        }.failure
    }

    /// A checked sign-in: the challenge used up, the counter moved on (unless it went back meanwhile), and the
    /// device's own player, if it has any rows, merged into the passkey's. Returns the passkey's player and what
    /// moved, or why nothing did (and nothing was written).
    package func signIn(
        credential id: String, signCount: UInt32, device: String, challenge: String, expires: Int64, now: Int64
    ) throws -> Result<(player: Player, moved: PlayerMerge.Moved?), Refusal> {
        try refused {
            try pool.write { db in
                guard let owner = try db.value(String.self, "SELECT player FROM passkeys WHERE id = ?", [.text(id)])
                else { throw Refusal.unknown }
                try use(challenge, expires: expires, now: now, db)
                let count = SQLValue.integer(Int64(signCount))
                let counted = try db.execute(
                    """
                    UPDATE passkeys SET sign_count = ?, last_used_ms = ?
                    WHERE id = ? AND (sign_count < ? OR (sign_count = 0 AND ? = 0))
                    """, [count, .integer(now), .text(id), count, count])
                guard counted == 1 else { throw Refusal.counter }
                return try PlayerMerge.takeOver(device: device, owner: owner, now: now, db)
            }
        }
    }

    /// The write's result, or the refusal it threw (which rolled it back).
    private func refused<T>(_ body: () throws -> T) throws -> Result<T, Refusal> {
        do { return .success(try body()) } catch let refusal as Refusal { return .failure(refusal) }
    }

    /// Removes one of the player's passkeys; whether there was one.
    package func remove(player: String, id: String) throws -> Bool {
        try pool.write { db in
            try db.execute("DELETE FROM passkeys WHERE id = ? AND player = ?", [.text(id), .text(player)]) == 1
        }
    }

    private func use(_ challenge: String, expires: Int64, now: Int64, _ db: Database) throws {
        guard try PasskeyChallenges.use(challenge, expires: expires, now: now, db) else { throw Refusal.replayed }
    }

    package init(pool: DatabasePool) {
        self.pool = pool
    }
}

extension Result {
    fileprivate var failure: Failure? { if case .failure(let error) = self { error } else { nil } }
}
