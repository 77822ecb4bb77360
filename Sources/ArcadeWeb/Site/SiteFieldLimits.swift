import HTTP

extension FieldLimits {
    /// What each of the site's form fields may hold (characters). Checked by
    /// every action before its handler runs; longer is a localized 422.
    static let site = FieldLimits(
        byName: [
            "csrf": 128, "key": 200, "value": 4000, "password": 1024, "name": 64, "back": 512, "q": 200,
            "guess": 32, "answer": 64, "choice": 64,
            // A note on someone met: 140 characters (`NameGameStore.maxNote`), of up to four bytes each.
            "note": 560,
            // A passkey's answer, base64url: a credential id (at most 255 bytes kept), the client data and
            // authenticator data (8 KiB each), an attestation (24 KiB with its statement) and a signature (1 KiB).
            "id": 344, "challenge": 64, "clientData": 10_923, "authData": 10_923, "attestation": 32_768,
            "signature": 1_366, "userHandle": 128,
        ],
        byPrefix: [("message_", 2000), ("app_message_", 2000), ("os_message_", 2000)],
        otherwise: 64)
}
