import COpenSSL
import Crypto
import Testing

@testable import WebAuthn

/// A software authenticator: a P-256 key made by OpenSSL for each test, signing as a passkey would.
final class Authenticator {
    let key: OpaquePointer
    let coseKey: [UInt8]
    let credentialID = Crypto.randomBytes(16)
    let aaguid = Array(0..<16 as Range<UInt8>)

    init() {
        let context = EVP_PKEY_CTX_new_from_name(nil, "EC", nil)
        defer { EVP_PKEY_CTX_free(context) }
        var key: OpaquePointer?
        precondition(EVP_PKEY_keygen_init(context) == 1 && EVP_PKEY_CTX_set_group_name(context, "P-256") == 1)
        precondition(EVP_PKEY_generate(context, &key) == 1)
        self.key = key!
        func coordinate(_ name: String) -> [UInt8] {
            var number: OpaquePointer?
            precondition(EVP_PKEY_get_bn_param(key, name, &number) == 1)
            defer { BN_free(number) }
            var out = [UInt8](repeating: 0, count: 32)
            precondition(BN_bn2binpad(number, &out, 32) == 32)
            return out
        }
        coseKey = ecKey(x: coordinate("qx"), y: coordinate("qy"))
    }

    deinit { EVP_PKEY_free(key) }

    func sign(_ message: [UInt8]) -> [UInt8] {
        let context = EVP_MD_CTX_new()
        defer { EVP_MD_CTX_free(context) }
        precondition(EVP_DigestSignInit(context, nil, EVP_sha256(), nil, key) == 1)
        var length = 0
        precondition(EVP_DigestSign(context, nil, &length, message, message.count) == 1)
        var signature = [UInt8](repeating: 0, count: length)
        precondition(EVP_DigestSign(context, &signature, &length, message, message.count) == 1)
        return Array(signature.prefix(length))
    }

    func authenticatorData(
        rpID: String = "arcade.example", flags: UInt8 = 0x05, signCount: UInt32 = 0, attested: Bool = false,
        extensions: Bool = false
    ) -> [UInt8] {
        var data = Crypto.sha256(Array(rpID.utf8)) + [flags | (attested ? 0x40 : 0) | (extensions ? 0x80 : 0)]
        data += bigEndian(UInt64(signCount), 4)
        if attested { data += aaguid + bigEndian(UInt64(credentialID.count), 2) + credentialID + coseKey }
        if extensions { data += encode(.map([(.text("credProtect"), .unsigned(2))])) }
        return data
    }
}

let relyingParty = RelyingParty(
    id: "arcade.example", origins: ["https://arcade.example", "https://www.arcade.example"])

func clientData(
    type: String, challenge: [UInt8], origin: String = "https://arcade.example", crossOrigin: String? = "false"
) -> [UInt8] {
    let cross = crossOrigin.map { ",\"crossOrigin\":\($0)" } ?? ""
    let challenge = Base64URL.encode(challenge)
    return Array("{\"type\":\"\(type)\",\"challenge\":\"\(challenge)\",\"origin\":\"\(origin)\"\(cross)}".utf8)
}

func attestationObject(_ authData: [UInt8], format: String = "none", statement: [(CBOR, CBOR)] = []) -> [UInt8] {
    encode(
        .map([
            (.text("fmt"), .text(format)), (.text("attStmt"), .map(statement)), (.text("authData"), .bytes(authData)),
        ]))
}

@Suite("Registration and assertion")
struct CeremonyTests {
    let authenticator = Authenticator()
    let challenge = Crypto.randomBytes(32)

    func register(
        clientDataJSON: [UInt8]? = nil, attestation: [UInt8]? = nil, requireUserVerification: Bool = true
    ) throws(WebAuthnError) -> Registration {
        try WebAuthn.verifyRegistration(
            clientDataJSON: clientDataJSON ?? clientData(type: "webauthn.create", challenge: challenge),
            attestationObject: attestation ?? attestationObject(authenticator.authenticatorData(attested: true)),
            challenge: challenge, relyingParty: relyingParty, requireUserVerification: requireUserVerification)
    }

    func registrationRefusal(
        clientDataJSON: [UInt8]? = nil, attestation: [UInt8]? = nil, requireUserVerification: Bool = true
    ) -> WebAuthnError.Reason? {
        do {
            _ = try register(
                clientDataJSON: clientDataJSON, attestation: attestation,
                requireUserVerification: requireUserVerification)
            return nil
        } catch {
            return error.reason
        }
    }

    /// Signs what it is given unless told otherwise, so each refusal below is for the one thing changed.
    func assert(
        clientDataJSON: [UInt8]? = nil, authenticatorData: [UInt8]? = nil, signature: [UInt8]? = nil,
        storedSignCount: UInt32 = 0, requireUserVerification: Bool = true
    ) throws(WebAuthnError) -> Assertion {
        let clientDataJSON = clientDataJSON ?? clientData(type: "webauthn.get", challenge: challenge)
        let authenticatorData = authenticatorData ?? authenticator.authenticatorData()
        let signature = signature ?? authenticator.sign(authenticatorData + Crypto.sha256(clientDataJSON))
        return try WebAuthn.verifyAssertion(
            clientDataJSON: clientDataJSON, authenticatorData: authenticatorData, signature: signature,
            challenge: challenge, relyingParty: relyingParty, publicKey: try register().publicKey,
            storedSignCount: storedSignCount, requireUserVerification: requireUserVerification)
    }

    func assertionRefusal(
        clientDataJSON: [UInt8]? = nil, authenticatorData: [UInt8]? = nil, signature: [UInt8]? = nil,
        storedSignCount: UInt32 = 0, requireUserVerification: Bool = true
    ) -> WebAuthnError.Reason? {
        do {
            _ = try assert(
                clientDataJSON: clientDataJSON, authenticatorData: authenticatorData, signature: signature,
                storedSignCount: storedSignCount, requireUserVerification: requireUserVerification)
            return nil
        } catch {
            return error.reason
        }
    }

    @Test func registrationIsAccepted() throws {
        let registration = try register()
        #expect(registration.credentialID == authenticator.credentialID)
        #expect(registration.publicKey == authenticator.coseKey)
        #expect(try COSEKey(cbor: registration.publicKey).algorithm == -7)
        #expect(registration.signCount == 0)
        #expect(registration.userVerified && !registration.backupEligible && !registration.backedUp)
        #expect(registration.aaguid == authenticator.aaguid)
        #expect(registration.format == "none")

        let synced = try register(
            attestation: attestationObject(
                authenticator.authenticatorData(flags: 0x1d, signCount: 7, attested: true, extensions: true),
                format: "packed", statement: [(.text("alg"), int(-7)), (.text("sig"), .bytes([1, 2, 3]))]))
        #expect(synced.backupEligible && synced.backedUp && synced.signCount == 7)
        #expect(synced.publicKey == authenticator.coseKey, "the key alone, without the extensions after it")
        #expect(synced.format == "packed")
        let other = clientData(type: "webauthn.create", challenge: challenge, origin: "https://www.arcade.example")
        #expect(registrationRefusal(clientDataJSON: other) == nil, "the second origin")
        #expect(
            registrationRefusal(
                clientDataJSON: clientData(type: "webauthn.create", challenge: challenge, crossOrigin: nil)) == nil)
    }

    @Test func registrationClientDataIsChecked() {
        let create = "webauthn.create"
        #expect(
            registrationRefusal(clientDataJSON: clientData(type: create, challenge: Crypto.randomBytes(32)))
                == .wrongChallenge)
        #expect(
            registrationRefusal(clientDataJSON: clientData(type: create, challenge: challenge.dropLast()))
                == .wrongChallenge)
        #expect(
            registrationRefusal(
                clientDataJSON: clientData(type: create, challenge: challenge, origin: "https://evil.example"))
                == .wrongOrigin)
        #expect(
            registrationRefusal(
                clientDataJSON: clientData(type: create, challenge: challenge, origin: "https://arcade.example:443"))
                == .wrongOrigin)
        #expect(
            registrationRefusal(clientDataJSON: clientData(type: create, challenge: challenge, crossOrigin: "true"))
                == .crossOrigin)
        #expect(
            registrationRefusal(clientDataJSON: clientData(type: create, challenge: challenge, crossOrigin: "1"))
                == .malformed)
        #expect(
            registrationRefusal(clientDataJSON: clientData(type: "webauthn.get", challenge: challenge)) == .wrongType)
        var repeated = clientData(type: create, challenge: challenge)
        repeated.removeLast()
        repeated += Array(",\"origin\":\"https://evil.example\"}".utf8)
        #expect(registrationRefusal(clientDataJSON: repeated) == .malformed, "a repeated member")
        #expect(registrationRefusal(clientDataJSON: Array("{\"type\":".utf8)) == .malformed)
        #expect(registrationRefusal(clientDataJSON: [UInt8](repeating: 0x20, count: 5000)) == .tooLarge)
    }

    @Test func registrationAuthenticatorDataIsChecked() {
        let data = authenticator.authenticatorData
        #expect(
            registrationRefusal(attestation: attestationObject(data("evil.example", 0x05, 0, true, false)))
                == .wrongRelyingParty)
        #expect(
            registrationRefusal(attestation: attestationObject(data("arcade.example", 0x04, 0, true, false)))
                == .userNotPresent)
        #expect(
            registrationRefusal(attestation: attestationObject(data("arcade.example", 0x01, 0, true, false)))
                == .userNotVerified)
        #expect(
            registrationRefusal(
                attestation: attestationObject(data("arcade.example", 0x01, 0, true, false)),
                requireUserVerification: false) == nil)
        #expect(
            registrationRefusal(attestation: attestationObject(data("arcade.example", 0x05, 0, false, false)))
                == .noCredential)
        #expect(
            registrationRefusal(attestation: attestationObject(data("arcade.example", 0x15, 0, true, false)))
                == .malformed, "BS without BE")
        #expect(
            registrationRefusal(attestation: attestationObject(authenticator.authenticatorData(attested: true) + [0]))
                == .malformed, "a trailing byte")
        #expect(
            registrationRefusal(
                attestation: attestationObject(Array(authenticator.authenticatorData(attested: true).dropLast())))
                == .malformed)
        #expect(
            registrationRefusal(attestation: attestationObject(Array(authenticator.authenticatorData().prefix(36))))
                == .malformed)
        #expect(
            registrationRefusal(
                attestation: attestationObject(
                    authenticator.authenticatorData(attested: true), statement: [(.text("x"), .null)]))
                == .badAttestation)
        #expect(
            registrationRefusal(attestation: attestationObject(authenticator.authenticatorData(attested: true)) + [0])
                == .malformed)
        #expect(registrationRefusal(attestation: [UInt8](repeating: 0, count: 17000)) == .tooLarge)
    }

    @Test func credentialIDLengthIsBounded() {
        var data = authenticator.authenticatorData(attested: true)
        data[53] = 0x04  // length 1024 (+ 16)
        #expect(registrationRefusal(attestation: attestationObject(data)) == .tooLarge)
        data[53] = 0x00
        data[54] = 0xff  // 255 bytes claimed, fewer present
        #expect(registrationRefusal(attestation: attestationObject(data)) == .malformed)
    }

    @Test func assertionIsAccepted() throws {
        let assertion = try assert()
        #expect(assertion.signCount == 0 && assertion.userVerified && !assertion.backedUp)
        let counted = try assert(
            authenticatorData: authenticator.authenticatorData(flags: 0x1d, signCount: 6), storedSignCount: 5)
        #expect(counted.signCount == 6 && counted.backedUp)
        #expect(assertionRefusal(authenticatorData: authenticator.authenticatorData(signCount: 1)) == nil, "from zero")
        #expect(assertionRefusal(authenticatorData: authenticator.authenticatorData(extensions: true)) == nil)
        #expect(
            assertionRefusal(
                authenticatorData: authenticator.authenticatorData(flags: 0x01), requireUserVerification: false) == nil)
    }

    @Test func assertionIsChecked() {
        let get = "webauthn.get"
        #expect(
            assertionRefusal(clientDataJSON: clientData(type: get, challenge: Crypto.randomBytes(32)))
                == .wrongChallenge)
        #expect(
            assertionRefusal(
                clientDataJSON: clientData(type: get, challenge: challenge, origin: "http://arcade.example"))
                == .wrongOrigin)
        #expect(
            assertionRefusal(clientDataJSON: clientData(type: get, challenge: challenge, crossOrigin: "true"))
                == .crossOrigin)
        #expect(
            assertionRefusal(clientDataJSON: clientData(type: "webauthn.create", challenge: challenge)) == .wrongType)
        #expect(
            assertionRefusal(authenticatorData: authenticator.authenticatorData(rpID: "arcade.example.evil"))
                == .wrongRelyingParty)
        #expect(assertionRefusal(authenticatorData: authenticator.authenticatorData(flags: 0x04)) == .userNotPresent)
        #expect(assertionRefusal(authenticatorData: authenticator.authenticatorData(flags: 0x01)) == .userNotVerified)
        #expect(assertionRefusal(authenticatorData: authenticator.authenticatorData() + [0]) == .malformed)
    }

    @Test func assertionSignatureIsChecked() {
        let clientDataJSON = clientData(type: "webauthn.get", challenge: challenge)
        let data = authenticator.authenticatorData()
        let signature = authenticator.sign(data + Crypto.sha256(clientDataJSON))
        #expect(assertionRefusal(signature: signature) == nil)
        #expect(assertionRefusal(signature: flipped(signature, at: signature.count - 1)) == .badSignature)
        #expect(assertionRefusal(signature: flipped(signature, at: 8)) == .badSignature)
        #expect(assertionRefusal(signature: Vectors.ecSignature) == .badSignature, "another key's")
        #expect(
            assertionRefusal(signature: authenticator.sign(data + clientDataJSON)) == .badSignature,
            "the JSON itself, not its hash")
        // Signed over other data than is presented: a raised counter, then other client data.
        #expect(
            assertionRefusal(authenticatorData: authenticator.authenticatorData(signCount: 9), signature: signature)
                == .badSignature)
        let other = clientData(type: "webauthn.get", challenge: challenge, crossOrigin: nil)
        #expect(assertionRefusal(clientDataJSON: other, signature: signature) == .badSignature)
    }

    @Test func counterMustGrow() {
        func refusal(stored: UInt32, new: UInt32) -> WebAuthnError.Reason? {
            assertionRefusal(
                authenticatorData: authenticator.authenticatorData(signCount: new), storedSignCount: stored)
        }
        #expect(refusal(stored: 5, new: 5) == .counterWentBack)
        #expect(refusal(stored: 5, new: 3) == .counterWentBack)
        #expect(refusal(stored: 5, new: 0) == .counterWentBack)
        #expect(refusal(stored: 5, new: 6) == nil)
        #expect(refusal(stored: 0, new: 0) == nil)
        #expect(refusal(stored: UInt32.max - 1, new: UInt32.max) == nil)
    }

    @Test func storedKeyIsChecked() {
        let clientDataJSON = clientData(type: "webauthn.get", challenge: challenge)
        let data = authenticator.authenticatorData()
        func refusal(publicKey: [UInt8]) -> WebAuthnError.Reason? {
            do {
                _ = try WebAuthn.verifyAssertion(
                    clientDataJSON: clientDataJSON, authenticatorData: data,
                    signature: authenticator.sign(data + Crypto.sha256(clientDataJSON)), challenge: challenge,
                    relyingParty: relyingParty, publicKey: publicKey, storedSignCount: 0,
                    requireUserVerification: true)
                return nil
            } catch {
                return error.reason
            }
        }
        #expect(refusal(publicKey: authenticator.coseKey) == nil)
        #expect(refusal(publicKey: ecKey()) == .badSignature, "another key")
        #expect(refusal(publicKey: []) == .malformed)
    }
}
