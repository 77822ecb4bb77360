import Crypto
import JSON

/// The site as WebAuthn knows it: the RP ID that credentials are scoped to, and the exact origins its pages run on.
public struct RelyingParty: Sendable {
    public let id: String
    public let origins: [String]

    public init(id: String, origins: [String]) {
        self.id = id
        self.origins = origins
    }
}

/// A new credential, checked: what the server stores to verify the assertions to come.
public struct Registration: Sendable {
    public let credentialID: [UInt8]
    /// The COSE key's bytes as the authenticator gave them.
    public let publicKey: [UInt8]
    public let signCount: UInt32
    public let userVerified: Bool
    public let backupEligible: Bool
    public let backedUp: Bool
    public let aaguid: [UInt8]
    /// The attestation format; statements other than "none" are recorded, not verified.
    public let format: String
}

/// A sign-in, checked: the new counter to store, and what the authenticator said of the user and the key.
public struct Assertion: Sendable {
    public let signCount: UInt32
    public let userVerified: Bool
    public let backedUp: Bool
}

/// The relying party's checks of W3C WebAuthn (Level 3, §7.1 and §7.2). Attestation statements are not verified:
/// the site trusts a passkey for being the user's, not for its maker.
public enum WebAuthn {
    static let maxClientDataJSON = 4096
    static let maxAttestationObject = 16384
    static let maxAuthenticatorData = 16384

    public static func verifyRegistration(
        clientDataJSON: [UInt8], attestationObject: [UInt8], challenge: [UInt8], relyingParty: RelyingParty,
        requireUserVerification: Bool
    ) throws(WebAuthnError) -> Registration {
        try checkClientData(clientDataJSON, type: "webauthn.create", challenge: challenge, relyingParty: relyingParty)
        guard attestationObject.count <= maxAttestationObject else { throw WebAuthnError(.tooLarge) }
        let object = try CBORDecoder.decode(attestationObject)
        guard let pairs = object.pairs, !hasDuplicateKeys(pairs), let format = object[.text("fmt")]?.text,
            let statement = object[.text("attStmt")]?.pairs, let authData = object[.text("authData")]?.bytes
        else { throw WebAuthnError(.malformed) }
        guard format != "none" || statement.isEmpty else { throw WebAuthnError(.badAttestation) }
        let data = try AuthenticatorData(authData)
        try data.check(relyingParty: relyingParty, requireUserVerification: requireUserVerification)
        guard let credential = data.credential else { throw WebAuthnError(.noCredential) }
        return Registration(
            credentialID: credential.id, publicKey: credential.publicKey, signCount: data.signCount,
            userVerified: data.userVerified, backupEligible: data.backupEligible, backedUp: data.backedUp,
            aaguid: credential.aaguid, format: format)
    }

    public static func verifyAssertion(
        clientDataJSON: [UInt8], authenticatorData: [UInt8], signature: [UInt8], challenge: [UInt8],
        relyingParty: RelyingParty, publicKey: [UInt8], storedSignCount: UInt32, requireUserVerification: Bool
    ) throws(WebAuthnError) -> Assertion {
        try checkClientData(clientDataJSON, type: "webauthn.get", challenge: challenge, relyingParty: relyingParty)
        guard authenticatorData.count <= maxAuthenticatorData else { throw WebAuthnError(.tooLarge) }
        let data = try AuthenticatorData(authenticatorData)
        try data.check(relyingParty: relyingParty, requireUserVerification: requireUserVerification)
        let key = try COSEKey(cbor: publicKey)
        guard key.verify(signature: signature, message: authenticatorData + Crypto.sha256(clientDataJSON)) else {
            throw WebAuthnError(.badSignature)
        }
        // A counter that does not grow suggests a cloned authenticator; many passkeys keep it at zero for good.
        if storedSignCount != 0 || data.signCount != 0 {
            guard data.signCount > storedSignCount else { throw WebAuthnError(.counterWentBack) }
        }
        return Assertion(signCount: data.signCount, userVerified: data.userVerified, backedUp: data.backedUp)
    }

    static func checkClientData(
        _ bytes: [UInt8], type: String, challenge: [UInt8], relyingParty: RelyingParty
    ) throws(WebAuthnError) {
        guard bytes.count <= maxClientDataJSON else { throw WebAuthnError(.tooLarge) }
        let json: JSONValue
        do {
            json = try JSONParser.parse(bytes)
        } catch {
            throw WebAuthnError(.malformed)
        }
        // Browsers never repeat a member; a repeated one could be read one way here and another way elsewhere.
        guard let members = json.members, Set(members.map(\.0)).count == members.count,
            let actualType = json["type"]?.string, let encoded = json["challenge"]?.string,
            let origin = json["origin"]?.string
        else { throw WebAuthnError(.malformed) }
        guard actualType == type else { throw WebAuthnError(.wrongType) }
        guard let actualChallenge = Base64URL.decode(encoded) else { throw WebAuthnError(.wrongChallenge) }
        guard Crypto.constantTimeEqual(actualChallenge, challenge) else { throw WebAuthnError(.wrongChallenge) }
        guard relyingParty.origins.contains(origin) else { throw WebAuthnError(.wrongOrigin) }
        if let crossOrigin = json["crossOrigin"] {
            // An embedding page on another origin could have asked for this ceremony.
            guard let flag = crossOrigin.bool else { throw WebAuthnError(.malformed) }
            guard !flag else { throw WebAuthnError(.crossOrigin) }
        }
    }

    static func hasDuplicateKeys(_ pairs: [(CBOR, CBOR)]) -> Bool {
        pairs.indices.contains { i in pairs[(i + 1)...].contains { $0.0 == pairs[i].0 } }
    }
}

/// Authenticator data (WebAuthn §6.1), parsed whole: every byte is accounted for.
struct AuthenticatorData {
    struct Credential {
        let aaguid: [UInt8]
        let id: [UInt8]
        let publicKey: [UInt8]
    }

    let rpIDHash: [UInt8]
    let flags: UInt8
    let signCount: UInt32
    let credential: Credential?

    var userPresent: Bool { flags & 0x01 != 0 }
    var userVerified: Bool { flags & 0x04 != 0 }
    var backupEligible: Bool { flags & 0x08 != 0 }
    var backedUp: Bool { flags & 0x10 != 0 }

    init(_ bytes: [UInt8]) throws(WebAuthnError) {
        guard bytes.count >= 37 else { throw WebAuthnError(.malformed) }
        rpIDHash = Array(bytes[0..<32])
        flags = bytes[32]
        signCount = bytes[33..<37].reduce(0) { $0 << 8 | UInt32($1) }
        var position = 37
        if flags & 0x40 != 0 {
            guard bytes.count >= position + 18 else { throw WebAuthnError(.malformed) }
            let aaguid = Array(bytes[position..<position + 16])
            let idLength = Int(bytes[position + 16]) << 8 | Int(bytes[position + 17])
            position += 18
            guard idLength <= 1023 else { throw WebAuthnError(.tooLarge) }
            guard idLength > 0, bytes.count >= position + idLength else { throw WebAuthnError(.malformed) }
            let id = Array(bytes[position..<position + idLength])
            position += idLength
            // The key is followed by extensions, if any, so its end is only known by decoding it.
            let (item, used) = try CBORDecoder.decodePrefix(bytes[position...])
            guard used <= COSEKey.maxSize else { throw WebAuthnError(.tooLarge) }
            _ = try COSEKey(item: item)
            credential = Credential(aaguid: aaguid, id: id, publicKey: Array(bytes[position..<position + used]))
            position += used
        } else {
            credential = nil
        }
        if flags & 0x80 != 0 {
            // Extension outputs are not used, but must be one well-formed map.
            let (item, used) = try CBORDecoder.decodePrefix(bytes[position...])
            guard item.pairs != nil else { throw WebAuthnError(.malformed) }
            position += used
        }
        guard position == bytes.count else { throw WebAuthnError(.malformed) }
    }

    func check(relyingParty: RelyingParty, requireUserVerification: Bool) throws(WebAuthnError) {
        guard Crypto.constantTimeEqual(rpIDHash, Crypto.sha256(Array(relyingParty.id.utf8))) else {
            throw WebAuthnError(.wrongRelyingParty)
        }
        guard userPresent else { throw WebAuthnError(.userNotPresent) }
        guard userVerified || !requireUserVerification else { throw WebAuthnError(.userNotVerified) }
        // §7.1: a key that is not backup eligible cannot be backed up.
        guard backupEligible || !backedUp else { throw WebAuthnError(.malformed) }
    }
}
