import Crypto
import Storage

/// An admin's optional second factor: time-based codes (RFC 6238: SHA-1, six digits, 30 s, one step either side,
/// each code once) and ten single-use recovery codes, of which only hashes are kept.
extension AdminStore {
    package static let recoveryCodeCount = 10

    /// `admin_recovery_codes`: the hashes of an admin's unused recovery codes.
    package enum RecoveryCodes: TableRecord {
        package static let table = "admin_recovery_codes"
        package enum Columns: String, ColumnName { case admin, codeHash = "code_hash" }
    }

    /// Whether the account asks for a code after its password.
    package func hasTwoFactor(_ admin: Admin) throws -> Bool {
        try pool.connection().value(
            Int.self, "SELECT id FROM admins WHERE id = ? AND totp_secret IS NOT NULL", [SQLValue(admin.id)]) != nil
    }

    /// The secret being set up (made on the first call, kept until confirmed or replaced by a new set-up).
    package func pendingSecret(_ admin: Admin, renew: Bool = false) throws -> [UInt8] {
        let fresh = Crypto.randomBytes(20)
        return try pool.write { db in
            if !renew,
                let pending = try db.value(
                    [UInt8].self, "SELECT totp_pending FROM admins WHERE id = ?", [SQLValue(admin.id)])
            {
                return pending
            }
            try db.execute("UPDATE admins SET totp_pending = ? WHERE id = ?", [.blob(fresh), SQLValue(admin.id)])
            return fresh
        }
    }

    /// The set-up secret already made, if any (a page shows it without writing).
    package func existingPendingSecret(_ admin: Admin) throws -> [UInt8]? {
        try pool.connection().value([UInt8].self, "SELECT totp_pending FROM admins WHERE id = ?", [SQLValue(admin.id)])
    }

    /// Turns the second factor on when `code` fits the secret being set up: the recovery codes, shown once; nil for
    /// a wrong code (or no set-up under way).
    package func confirmTwoFactor(_ admin: Admin, code: String) throws -> [String]? {
        let now = clock()
        let codes = (0..<Self.recoveryCodeCount).map { _ in Self.newRecoveryCode() }
        return try pool.write { db in
            guard
                let secret = try db.value(
                    [UInt8].self, "SELECT totp_pending FROM admins WHERE id = ?", [SQLValue(admin.id)]),
                let step = OneTimePassword.matchingStep(code, secret: secret, at: now, after: nil)
            else { return nil }
            try db.execute(
                "UPDATE admins SET totp_secret = ?, totp_step = ?, totp_pending = NULL WHERE id = ?",
                [.blob(secret), .integer(step), SQLValue(admin.id)])
            try Self.storeRecoveryCodes(db, codes, for: admin.id)
            try Self.audit(
                db, at: now, admin.name, action: "enable two-factor", target: admin.name, before: nil, after: nil)
            return codes
        }
    }

    /// Ten new recovery codes in place of the old ones.
    package func renewRecoveryCodes(_ admin: Admin) throws -> [String] {
        let now = clock()
        let codes = (0..<Self.recoveryCodeCount).map { _ in Self.newRecoveryCode() }
        try pool.write { db in
            try Self.storeRecoveryCodes(db, codes, for: admin.id)
            try Self.audit(
                db, at: now, admin.name, action: "renew recovery codes", target: admin.name, before: nil, after: nil)
        }
        return codes
    }

    /// Turns the second factor off for `name` (their own choice, or the command line's for a lost phone).
    package func disableTwoFactor(name: String, by actor: String) throws -> Bool {
        let now = clock()
        return try pool.write { db in
            guard let id = try db.value(Int.self, "SELECT id FROM admins WHERE name = ?", [.text(name)]) else {
                return false
            }
            try db.execute(
                "UPDATE admins SET totp_secret = NULL, totp_step = NULL, totp_pending = NULL WHERE id = ?",
                [SQLValue(id)])
            try db.execute("DELETE FROM admin_recovery_codes WHERE admin = ?", [SQLValue(id)])
            try Self.audit(db, at: now, actor, action: "disable two-factor", target: name, before: nil, after: nil)
            return true
        }
    }

    /// A sign-in's second step: a six-digit code from the app (a step after the last one used), or a recovery
    /// code (deleted as it is used). Which it was, or nil when neither fits.
    package func checkSecondFactor(_ admin: Admin, code: String) throws -> String? {
        let now = clock()
        return try pool.write { db in
            guard
                let row = try db.first(
                    "SELECT totp_secret, totp_step FROM admins WHERE id = ?" + db.forUpdate, [SQLValue(admin.id)]),
                let secret: [UInt8] = try row.decodeIfPresent("totp_secret")
            else { return nil }
            let used: Int64? = try row.decodeIfPresent("totp_step")
            if let step = OneTimePassword.matchingStep(code, secret: secret, at: now, after: used) {
                try db.execute("UPDATE admins SET totp_step = ? WHERE id = ?", [.integer(step), SQLValue(admin.id)])
                return "password + code"
            }
            guard let normalized = Self.normalizedRecoveryCode(code) else { return nil }
            let hash = SQLValue.blob(Crypto.sha256(Array(normalized.utf8)))
            guard
                try db.value(
                    Int.self, "SELECT admin FROM admin_recovery_codes WHERE admin = ? AND code_hash = ?",
                    [SQLValue(admin.id), hash]) != nil
            else { return nil }
            try db.execute(
                "DELETE FROM admin_recovery_codes WHERE admin = ? AND code_hash = ?", [SQLValue(admin.id), hash])
            return "password + recovery code"
        }
    }

    package func recoveryCodesLeft(_ admin: Admin) throws -> Int {
        try pool.connection().scalar(
            Int.self, "SELECT COUNT(*) AS n FROM admin_recovery_codes WHERE admin = ?", [SQLValue(admin.id)])
    }

    /// 50 random bits as ten base32 letters, grouped 5-5 for reading aloud.
    private static func newRecoveryCode() -> String {
        let letters = Base32.encode(Crypto.randomBytes(7)).prefix(10).lowercased()
        return String(letters.prefix(5)) + "-" + String(letters.suffix(5))
    }

    /// Upper case without dashes or spaces; nil unless ten base32 letters remain.
    package static func normalizedRecoveryCode(_ code: String) -> String? {
        let letters = code.uppercased().filter { $0 != "-" && $0 != " " }
        guard letters.count == 10, Base32.decode(letters) != nil else { return nil }
        return letters
    }

    private static func storeRecoveryCodes(_ db: Database, _ codes: [String], for id: Int) throws {
        try db.execute("DELETE FROM admin_recovery_codes WHERE admin = ?", [SQLValue(id)])
        for code in codes {
            try db.execute(
                RecoveryCodes.insert { row in
                    row[.admin] = id
                    row[.codeHash] = Crypto.sha256(Array(normalizedRecoveryCode(code)!.utf8))
                })
        }
    }
}
