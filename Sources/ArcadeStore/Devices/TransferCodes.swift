import Crypto
import Storage

/// One-time codes that move a player's progress to another device where passkeys are not available: eight characters
/// of Crockford's base 32 (no I, L, O or U, so it reads aloud and types without doubt), valid for ten minutes, used
/// once. The first three find the code; the other five are stored as a hash (a glance at the table shows no live code;
/// five characters are no secret from someone who can read the database). A player has one live code at a time.
package struct TransferCodes: Sendable, TableRecord {
    package let pool: DatabasePool
    package static let table = "transfer_codes"
    package enum Columns: String, ColumnName { case id, secretHash = "secret_hash", player, expires = "expires_ms" }

    package static let lifetime: Int64 = 600_000
    package static let alphabet = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ".utf8)

    /// Why a code did not move anything (nothing was written).
    package enum Refusal: Error, Sendable {
        /// No live code reads so: mistyped, expired or used.
        case wrong
        /// The code was made on this device, for its own player.
        case own
    }

    /// A new code for the player, replacing their last one; as shown, `ABCD-EFGH`.
    package func make(for player: Player, now: Int64) throws -> String {
        try pool.write { db in
            try player.ensureRow(db)
            try db.execute(
                "DELETE FROM transfer_codes WHERE player = ? OR expires_ms < ?", [.text(player.id), .integer(now)])
            // 32,768 ids, few live at once: a clash is rare, and another draw settles it.
            while true {
                let code = Self.draw()
                let inserted = try db.execute(
                    Self.insert("ON CONFLICT DO NOTHING") { row in
                        row[.id] = String(code.prefix(3))
                        row[.secretHash] = Self.hash(code)
                        row[.player] = player.id
                        row[.expires] = now + Self.lifetime
                    })
                if inserted == 1 { return String(code.prefix(4)) + "-" + String(code.dropFirst(4)) }
            }
        }
    }

    /// What a player typed as a code's eight characters (case, spaces and dashes aside, and the letters read as
    /// digits as Crockford's base 32 does), or nil if it cannot be one.
    package static func normalize(_ typed: String) -> String? {
        var out: [UInt8] = []
        for byte in typed.utf8.prefix(64) {
            let upper = (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) ? byte - 32 : byte
            switch upper {
            case UInt8(ascii: " "), UInt8(ascii: "-"): continue
            case UInt8(ascii: "O"): out.append(UInt8(ascii: "0"))
            case UInt8(ascii: "I"), UInt8(ascii: "L"): out.append(UInt8(ascii: "1"))
            case _ where alphabet.contains(upper): out.append(upper)
            default: return nil
            }
        }
        return out.count == 8 ? String(decoding: out, as: UTF8.self) : nil
    }

    /// The player a live code moves, read without a write: a wrong code costs one indexed read.
    package func owner(of code: String, now: Int64) throws -> String? {
        guard
            let row = try pool.connection().first(
                "SELECT secret_hash, player, expires_ms FROM transfer_codes WHERE id = ?",
                [.text(String(code.prefix(3)))]),
            try row.decode(Columns.expires, as: Int64.self) >= now,
            Crypto.constantTimeEqual(
                Array(try row.decode(Columns.secretHash, as: String.self).utf8), Array(Self.hash(code).utf8))
        else { return nil }
        return try row.decode(Columns.player)
    }

    /// Uses the code: the device becomes its player, its own progress merged in; the code is gone.
    package func use(
        _ code: String, device: String, now: Int64
    ) throws -> Result<(player: Player, moved: PlayerMerge.Moved?), Refusal> {
        do {
            return .success(
                try pool.write { db in
                    guard
                        let owner = try db.value(
                            String.self,
                            "DELETE FROM transfer_codes WHERE id = ? AND secret_hash = ? AND expires_ms >= ? RETURNING player",
                            [.text(String(code.prefix(3))), .text(Self.hash(code)), .integer(now)])
                    else { throw Refusal.wrong }
                    guard owner != device else { throw Refusal.own }
                    return try PlayerMerge.takeOver(device: device, owner: owner, now: now, db)
                })
        } catch let refusal as Refusal {
            return .failure(refusal)
        }
    }

    private static func draw() -> String {
        // 40 random bits, five to a character.
        let bits = Crypto.randomBytes(5).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return String(
            decoding: (0..<8).map { alphabet[Int((bits >> UInt64(35 - 5 * $0)) & 31)] }, as: UTF8.self)
    }

    private static func hash(_ code: String) -> String { Base64URL.encode(Crypto.sha256(Array(code.utf8))) }

    package init(pool: DatabasePool) {
        self.pool = pool
    }
}
