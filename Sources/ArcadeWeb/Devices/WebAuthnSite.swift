import ArcadeStore
import Crypto
import HTTP
import JSON
import WebAuthn

/// What players' and admins' passkeys share: the relying party a request belongs to, the challenges, and the checks of
/// a browser's answer as the forms of `Public/js/passkeys.js` post it (base64url fields). Failures are message keys
/// (`passkeys.error.*`), in the words a person reads.
struct WebAuthnSite: Sendable {
    let challenges: PasskeyChallenges
    /// `--public-host`: the relying party's id. Without it, only `localhost` can hold passkeys (a development site).
    let publicHost: String?
    let clock: @Sendable () -> Double

    /// The relying party a request's page belongs to: the public host over HTTPS, or a development site on
    /// localhost; nil where browsers would refuse passkeys (an IP address, another name).
    func relyingParty(_ request: Request) -> RelyingParty? {
        let host = (request.headers["Host"] ?? "").lowercased()
        let name = host.split(separator: ":", maxSplits: 1).first.map(String.init) ?? ""
        if let publicHost {
            // The public host's default port, or the port the page came from (a TLS port of its own).
            let origins = ["https://" + publicHost] + (name == publicHost && host != name ? ["https://" + host] : [])
            return RelyingParty(id: publicHost, origins: origins)
        }
        guard name == "localhost" else { return nil }
        return RelyingParty(id: "localhost", origins: ["http://" + host, "https://" + host])
    }

    /// A fresh challenge for the session, and the relying party's id: what `navigator.credentials.get` needs.
    func challenge(_ purpose: PasskeyChallenges.Purpose, session: String, party: RelyingParty) -> [(String, JSONValue)]
    {
        [
            ("challenge", .string(Base64URL.encode(challenges.make(purpose, session: session, now: clock())))),
            ("rpId", .string(party.id)),
        ]
    }

    /// A checked answer: the challenge used (to record in the write), and what the ceremony gave.
    struct Checked<Value> {
        let challenge: String
        let expires: Int64
        let value: Value
    }

    /// A registration posted by the page, checked; or the message key of why not.
    func registration(
        _ request: Request, _ purpose: PasskeyChallenges.Purpose, session: String, userVerification: Bool
    ) -> Result<Checked<Registration>, Refused> {
        let form = request.form ?? FormFields()
        guard let party = relyingParty(request) else { return .failure(Refused("unavailable")) }
        guard let challenge = challenges.check(form["challenge"], purpose, session: session, now: clock()),
            let id = form["id"], let clientData = field(form, "clientData"),
            let attestation = field(form, "attestation")
        else { return .failure(Refused("expired")) }
        do {
            let registration = try WebAuthn.verifyRegistration(
                clientDataJSON: clientData, attestationObject: attestation, challenge: challenge.bytes,
                relyingParty: party, requireUserVerification: userVerification)
            // Discoverable credentials' ids are short (browsers make 16 to 64 bytes): a long one only costs rows.
            guard registration.credentialID.count <= Self.maxIDBytes, Base64URL.encode(registration.credentialID) == id
            else { return .failure(Refused("invalid")) }
            return .success(Checked(challenge: challenge.text, expires: challenge.expires, value: registration))
        } catch {
            return .failure(Refused(Self.message(for: error.reason), log: error.reason.rawValue))
        }
    }

    /// The credential an assertion names, and its challenge, before the key is looked up.
    func assertionStart(
        _ request: Request, _ purpose: PasskeyChallenges.Purpose, session: String
    ) -> Result<(credential: String, party: RelyingParty), Refused> {
        let form = request.form ?? FormFields()
        guard let party = relyingParty(request) else { return .failure(Refused("unavailable")) }
        guard challenges.check(form["challenge"], purpose, session: session, now: clock()) != nil, let id = form["id"]
        else {
            return .failure(Refused("expired"))
        }
        return .success((id, party))
    }

    /// An assertion posted by the page, checked against the credential's stored key and counter.
    func assertion(
        _ request: Request, _ purpose: PasskeyChallenges.Purpose, session: String, party: RelyingParty,
        publicKey: [UInt8], signCount: UInt32, userVerification: Bool
    ) -> Result<Checked<Assertion>, Refused> {
        let form = request.form ?? FormFields()
        guard let challenge = challenges.check(form["challenge"], purpose, session: session, now: clock()),
            let clientData = field(form, "clientData"), let authData = field(form, "authData"),
            let signature = field(form, "signature")
        else { return .failure(Refused("expired")) }
        do {
            let assertion = try WebAuthn.verifyAssertion(
                clientDataJSON: clientData, authenticatorData: authData, signature: signature,
                challenge: challenge.bytes, relyingParty: party, publicKey: publicKey, storedSignCount: signCount,
                requireUserVerification: userVerification)
            return .success(Checked(challenge: challenge.text, expires: challenge.expires, value: assertion))
        } catch {
            return .failure(Refused(Self.message(for: error.reason), log: error.reason.rawValue))
        }
    }

    /// Why an answer was refused: a `passkeys.error.*` key, and what the log may say (a reason, never a key).
    struct Refused: Error {
        let message: String
        let log: String?
        init(_ message: String, log: String? = nil) {
            self.message = message
            self.log = log
        }
    }

    static let maxIDBytes = 255

    /// A base64url field (its length was checked against `FieldLimits.site` before the handler ran).
    private func field(_ form: FormFields, _ name: String) -> [UInt8]? { form[name].flatMap(Base64URL.decode) }

    static func message(for reason: WebAuthnError.Reason) -> String {
        switch reason {
        case .wrongOrigin, .wrongRelyingParty, .crossOrigin: "origin"
        case .wrongChallenge: "expired"
        case .counterWentBack: "counter"
        case .userNotPresent, .userNotVerified: "presence"
        case .unsupportedAlgorithm: "algorithm"
        default: "invalid"
        }
    }
}
