/// Why a passkey message was refused. One reason per check, so callers can log it and tests can pin it down; the
/// text deliberately carries no attacker-chosen detail.
public struct WebAuthnError: Error, Sendable, Equatable, CustomStringConvertible {
    public let reason: Reason

    public init(_ reason: Reason) { self.reason = reason }

    public var description: String { "WebAuthn: \(reason.rawValue)" }

    public enum Reason: String, Sendable {
        /// Not well-formed: bad CBOR, JSON or base64url, a missing or mistyped field, trailing bytes.
        case malformed
        /// Over a size, length or nesting limit.
        case tooLarge
        /// clientDataJSON's `type` is not the ceremony's.
        case wrongType
        case wrongChallenge
        case wrongOrigin
        case crossOrigin
        /// rpIdHash is not SHA-256 of the relying party's id.
        case wrongRelyingParty
        case userNotPresent
        case userNotVerified
        /// Registration without attested credential data.
        case noCredential
        /// Format "none" with a non-empty statement.
        case badAttestation
        case unsupportedAlgorithm
        case badKey
        case badSignature
        case counterWentBack
    }
}
