import Crypto
import HTTP
import JSON
import Localization
import Logger
import Templates
import WebAuthn

/// "Keep my progress on all my devices": a passkey registered to the player on `/progress`, and "I've played before",
/// which signs a device in with one and makes it that player, merging what the device had (`PlayerMerge`). The
/// browser's side is `Public/js/passkeys.js`; the forms post base64url fields, so the CSRF check is the site's own.
struct PasskeyController: Sendable {
    let store: PasskeyStore
    let once: OnceStore
    let pages: Pages
    let challenges: PasskeyChallenges
    /// Makes the cookie of the player a device signs in as.
    let identity: Identity
    /// Registrations and sign-ins per client address: each checks a signature, and a registration stores a row.
    let attempts: TokenBuckets
    /// Words no name may hold, from the hotfixable `names.refused` (comma-separated).
    let refusedWords: @Sendable () -> [String]
    /// `--public-host`: the relying party's id. Without it, only `localhost` can hold passkeys (a development site).
    let publicHost: String?
    let clock: @Sendable () -> Double

    func addRoutes(to routes: PlayerRoutes) {
        // Off the loop: a registration's options name the passkeys the player has (a read).
        routes.pages.running(.pool).get("/progress/passkeys/options", use: options)
        routes.actions.post("/progress/passkeys", use: register)
        routes.actions.post("/progress/passkeys/signin", use: signIn)
        routes.actions.post("/progress/passkeys/remove", use: remove)
        routes.actions.post("/progress/name", use: setName)
    }

    /// A name for today's board, or none (an empty field): back to "your progress", saying how it went.
    func setName(_ request: Request, _ context: PlayerContext) throws -> Response {
        let typed = request.form?["name"] ?? ""
        let said: String
        do {
            let name = typed.allSatisfy(\.isWhitespace) ? nil : try DisplayName(typed)
            if let name, name.holdsRefused(refusedWords()) { throw DisplayName.Problem.refused }
            said =
                try store.setDisplayName(name, player: context.visitor.player)?.rawValue
                ?? (name == nil ? "cleared" : "saved")
        } catch let problem as DisplayName.Problem {
            said = problem.rawValue
        }
        return .redirect(to: "/progress?name=\(said)#name")
    }

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

    func options(_ request: Request, _ context: PlayerContext) throws -> Response {
        let visitor = context.visitor
        let t = pages.localizer.strings(for: visitor.language)
        guard let party = relyingParty(request) else {
            return JSONAnswer.error(t.string("passkeys.unavailable"), status: .conflict)
        }
        let create = request.query["for"] == "create"
        let challenge = Base64URL.encode(
            challenges.make(create ? .create : .get, session: visitor.sessionID, now: clock()))
        guard create else {
            return JSONAnswer.make(.object([("challenge", .string(challenge)), ("rpId", .string(party.id))]))
        }
        let known = visitor.isNew ? [] : try store.passkeys(player: visitor.playerID)
        return JSONAnswer.make(
            .object([
                ("challenge", .string(challenge)), ("rpId", .string(party.id)),
                ("rpName", .string(t.string("site.name"))),
                ("userId", .string(visitor.playerID)),
                ("userName", .string(t.string("passkeys.user.name", [.string(String(visitor.playerID.prefix(6)))]))),
                ("userDisplayName", .string(t.string("passkeys.user.display"))),
                ("exclude", .array(known.map { .string($0.id) })),
            ]))
    }

    func register(_ request: Request, _ context: PlayerContext) throws -> Response {
        let visitor = context.visitor
        let t = pages.localizer.strings(for: visitor.language)
        if let wait = limited(request, t) { return wait }
        let form = request.form ?? FormFields()
        guard let party = relyingParty(request) else { return refuse("unavailable", t) }
        guard let (challenge, expires) = challenge(form, .create, visitor),
            let id = form["id"], let clientData = field(form, "clientData"),
            let attestation = field(form, "attestation")
        else { return refuse("expired", t) }
        let registration: Registration
        do {
            registration = try WebAuthn.verifyRegistration(
                clientDataJSON: clientData, attestationObject: attestation, challenge: challenge,
                relyingParty: party, requireUserVerification: false)
        } catch {
            return refuse(Self.message(for: error.reason), t, log: error.reason.rawValue)
        }
        // Discoverable credentials' ids are short (browsers make 16 to 64 bytes): a long one only costs rows.
        guard registration.credentialID.count <= Self.maxIDBytes, Base64URL.encode(registration.credentialID) == id
        else { return refuse("invalid", t) }
        if let refusal = try store.add(
            player: visitor.player, id: id, publicKey: registration.publicKey, signCount: registration.signCount,
            backedUp: registration.backedUp, challenge: Base64URL.encode(challenge), expires: expires,
            now: Int64(clock() * 1000))
        {
            return refuse(Self.message(for: refusal), t, log: refusal.rawValue)
        }
        once.cache.records[PlayerKey(visitor.playerID)] = nil
        return JSONAnswer.make(.object([("ok", .bool(true)), ("next", .string("/progress?passkey=added#passkeys"))]))
    }

    func signIn(_ request: Request, _ context: PlayerContext) throws -> Response {
        let visitor = context.visitor
        let t = pages.localizer.strings(for: visitor.language)
        if let wait = limited(request, t) { return wait }
        let form = request.form ?? FormFields()
        guard let party = relyingParty(request) else { return refuse("unavailable", t) }
        guard let (challenge, expires) = challenge(form, .get, visitor), let id = form["id"],
            let clientData = field(form, "clientData"), let authData = field(form, "authData"),
            let signature = field(form, "signature")
        else { return refuse("expired", t) }
        guard let key = try store.key(credential: id) else { return refuse("unknown", t) }
        // The passkey says whose it is too: it must be the player it was registered to.
        if let handle = form["userHandle"], !handle.isEmpty, handle != key.player { return refuse("invalid", t) }
        let assertion: Assertion
        do {
            assertion = try WebAuthn.verifyAssertion(
                clientDataJSON: clientData, authenticatorData: authData, signature: signature, challenge: challenge,
                relyingParty: party, publicKey: key.publicKey, storedSignCount: key.signCount,
                requireUserVerification: false)
        } catch {
            return refuse(Self.message(for: error.reason), t, log: error.reason.rawValue)
        }
        let outcome = try store.signIn(
            credential: id, signCount: assertion.signCount, device: visitor.playerID,
            challenge: Base64URL.encode(challenge), expires: expires, now: Int64(clock() * 1000))
        switch outcome {
        case .failure(let refusal):
            return refuse(Self.message(for: refusal), t, log: refusal.rawValue)
        case .success(let (player, moved)):
            for forgotten in [player.id, visitor.playerID] { once.cache.records[PlayerKey(forgotten)] = nil }
            let next = "/progress?passkey=" + (moved == nil ? "signedin" : "merged") + "#passkeys"
            var response = JSONAnswer.make(.object([("ok", .bool(true)), ("next", .string(next))]))
            response.setCookie(identity.cookie(for: player))
            return response
        }
    }

    func remove(_ request: Request, _ context: PlayerContext) throws -> Response {
        let id = request.form?["id"] ?? ""
        let removed = try store.remove(player: context.visitor.playerID, id: id)
        return .redirect(to: "/progress?passkey=" + (removed ? "removed" : "gone") + "#passkeys")
    }

    /// The passkeys section of `/progress`, with the transfer code's beside it.
    func section(_ request: Request, _ visitor: Visitor, _ t: LanguageStrings) throws -> TemplateValue {
        let known = visitor.isNew ? [] : try store.passkeys(player: visitor.playerID)
        let said = request.query["passkey"].flatMap { Self.statuses.contains($0) ? $0 : nil }
        return .object([
            "available": .bool(relyingParty(request) != nil),
            "transfer": TransferController.section(request, visitor, t),
            "name": .string(visitor.isNew ? "" : try store.displayName(player: visitor.playerID) ?? ""),
            "nameSaid": request.query["name"].flatMap { Self.nameStatuses.contains($0) ? $0 : nil }.map {
                .string(t.string("names.status.\($0)"))
            } ?? .null,
            "nameRefused": .bool(["invalid", "taken", "refused"].contains(request.query["name"] ?? "")),
            "status": said.map { .string(t.string("passkeys.status.\($0)")) } ?? .null,
            "hasPasskeys": .bool(!known.isEmpty),
            "passkeys": .list(
                known.enumerated().map { index, passkey in
                    let added = String(UTCTime.format(Int(passkey.createdMs / 1000)).prefix(10))
                    let used = passkey.lastUsedMs.map { String(UTCTime.format(Int($0 / 1000)).prefix(10)) }
                    return [
                        "id": .string(passkey.id),
                        "name": .string(t.string("passkeys.name", [.int(index + 1)])),
                        "added": .string(t.string("passkeys.added", [.string(added)])),
                        "used": used.map { .string(t.string("passkeys.used", [.string($0)])) } ?? .null,
                    ]
                }),
        ])
    }

    private static let statuses: Set = ["added", "removed", "gone", "signedin", "merged"]
    private static let nameStatuses: Set = ["saved", "cleared", "invalid", "taken", "refused"]

    static let maxIDBytes = 255

    /// 429 in the player's words when this address has tried too often (checked before any work).
    private func limited(_ request: Request, _ t: LanguageStrings) -> Response? {
        guard let seconds = attempts.take(ClientAddress.limitKey(request.remoteAddress)) else { return nil }
        var response = JSONAnswer.error(t.string("passkeys.error.wait"), status: .tooManyRequests)
        response.headers.set("Retry-After", String(seconds))
        return response
    }

    /// A challenge this session asked for `purpose`, still fresh, and when it expires.
    private func challenge(
        _ form: FormFields, _ purpose: PasskeyChallenges.Purpose, _ visitor: Visitor
    ) -> ([UInt8], Int64)? {
        guard let bytes = field(form, "challenge"),
            let expires = challenges.check(bytes, purpose, session: visitor.sessionID, now: clock())
        else { return nil }
        return (bytes, expires)
    }

    /// A base64url field (its length was checked against `FieldLimits.site` before the handler ran).
    private func field(_ form: FormFields, _ name: String) -> [UInt8]? { form[name].flatMap(Base64URL.decode) }

    /// A refusal in the player's words; nothing was stored. The reason (never a key or a challenge) is logged.
    private func refuse(_ message: String, _ t: LanguageStrings, log reason: String? = nil) -> Response {
        Log.info("passkey refused: \(reason ?? message)")
        return JSONAnswer.error(t.string("passkeys.error.\(message)"), status: .badRequest)
    }

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

    static func message(for refusal: PasskeyStore.Refusal) -> String {
        switch refusal {
        case .replayed: "expired"
        case .duplicate: "duplicate"
        case .unknown: "unknown"
        case .counter: "counter"
        case .tooMany: "many"
        }
    }
}
