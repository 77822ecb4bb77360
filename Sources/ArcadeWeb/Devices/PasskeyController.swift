import ArcadeStore
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
    let site: WebAuthnSite
    /// Makes the cookie of the player a device signs in as.
    let identity: Identity
    /// Registrations and sign-ins per client address: each checks a signature, and a registration stores a row.
    let attempts: TokenBuckets
    /// Words no name may hold, from the hotfixable `names.refused` (comma-separated).
    let refusedWords: @Sendable () -> [String]
    let clock: @Sendable () -> Double

    func addRoutes(to routes: PlayerRoutes) {
        // Off the loop: a registration's options name the passkeys the player has (a read).
        routes.pages.running(.pool).get("/progress/passkeys/options", use: options)
        routes.actions.post("/progress/passkeys", use: register)
        routes.actions.post("/progress/passkeys/signin", use: signIn)
        routes.actions.post("/progress/passkeys/remove", use: remove)
        routes.actions.post("/progress/passkeys/leave", use: leave)
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

    func options(_ request: Request, _ context: PlayerContext) throws -> Response {
        let visitor = context.visitor
        let t = pages.localizer.strings(for: visitor.language)
        guard let party = site.relyingParty(request) else {
            // A player is not told about --public-host (a review read the admin's words on the progress page).
            return JSONAnswer.error(t.string("passkeys.unavailable.player"), status: .conflict)
        }
        let create = request.query["for"] == "create"
        let challenge = site.challenge(create ? .create : .get, session: visitor.sessionID, party: party)
        guard create else { return JSONAnswer.make(.object(challenge)) }
        let known = visitor.isNew ? [] : try store.passkeys(player: visitor.playerID)
        return JSONAnswer.make(
            .object(
                challenge + [
                    ("rpName", .string(t.string("site.name"))), ("userId", .string(visitor.playerID)),
                    (
                        "userName",
                        .string(t.string("passkeys.user.name", [.string(String(visitor.playerID.prefix(6)))]))
                    ),
                    ("userDisplayName", .string(t.string("passkeys.user.display"))),
                    ("exclude", .array(known.map { .string($0.id) })),
                ]))
    }

    func register(_ request: Request, _ context: PlayerContext) throws -> Response {
        let visitor = context.visitor
        let t = pages.localizer.strings(for: visitor.language)
        if let wait = Self.limited(attempts, request, t) { return wait }
        let checked: WebAuthnSite.Checked<Registration>
        switch site.registration(request, .create, session: visitor.sessionID, userVerification: false) {
        case .failure(let refused): return Self.refuse(refused, t, context.log)
        case .success(let value): checked = value
        }
        let registration = checked.value
        if let refusal = try store.add(
            player: visitor.player, id: Base64URL.encode(registration.credentialID), publicKey: registration.publicKey,
            signCount: registration.signCount, backedUp: registration.backedUp,
            device: AdminDevice.describe(userAgent: request.headers["User-Agent"] ?? ""), challenge: checked.challenge,
            expires: checked.expires, now: Int64(clock() * 1000))
        {
            return Self.refuse(WebAuthnSite.Refused(Self.message(for: refusal), log: refusal.rawValue), t, context.log)
        }
        once.cache.records[PlayerKey(visitor.playerID)] = nil
        return JSONAnswer.make(.object([("ok", .bool(true)), ("next", .string("/progress?passkey=added#passkeys"))]))
    }

    func signIn(_ request: Request, _ context: PlayerContext) throws -> Response {
        let visitor = context.visitor
        let t = pages.localizer.strings(for: visitor.language)
        if let wait = Self.limited(attempts, request, t) { return wait }
        let (id, party): (String, RelyingParty)
        switch site.assertionStart(request, .get, session: visitor.sessionID) {
        case .failure(let refused): return Self.refuse(refused, t, context.log)
        case .success(let value): (id, party) = value
        }
        guard let key = try store.key(credential: id) else {
            return Self.refuse(WebAuthnSite.Refused("unknown"), t, context.log)
        }
        // The passkey says whose it is too: it must be the player it was registered to.
        if let handle = request.form?["userHandle"], !handle.isEmpty, handle != key.player {
            return Self.refuse(WebAuthnSite.Refused("invalid"), t, context.log)
        }
        let checked: WebAuthnSite.Checked<Assertion>
        switch site.assertion(
            request, .get, session: visitor.sessionID, party: party, publicKey: key.publicKey,
            signCount: key.signCount, userVerification: false)
        {
        case .failure(let refused): return Self.refuse(refused, t, context.log)
        case .success(let value): checked = value
        }
        let outcome = try store.signIn(
            credential: id, signCount: checked.value.signCount, device: visitor.playerID,
            challenge: checked.challenge, expires: checked.expires, now: Int64(clock() * 1000))
        switch outcome {
        case .failure(let refusal):
            return Self.refuse(WebAuthnSite.Refused(Self.message(for: refusal), log: refusal.rawValue), t, context.log)
        case .success(let (player, moved)):
            for forgotten in [player.id, visitor.playerID] { once.cache.records[PlayerKey(forgotten)] = nil }
            let next = "/progress?passkey=" + PlayerMerge.status(moved) + "#passkeys"
            var response = JSONAnswer.make(.object([("ok", .bool(true)), ("next", .string(next))]))
            response.setCookie(identity.cookie(for: player))
            return response
        }
    }

    func remove(_ request: Request, _ context: PlayerContext) throws -> Response {
        let id = request.form?["id"] ?? ""
        // The only passkey: asked first, saying what it means (a review removed theirs with one tap, unwarned).
        let known = try store.passkeys(player: context.visitor.playerID)
        if request.form?["confirm"] != "1", known.count == 1, known[0].id == id {
            let t = pages.localizer.strings(for: context.visitor.language)
            return pages.render(
                "passkey-remove", title: t.string("passkeys.remove.title"), for: context.visitor,
                path: "/progress/passkeys/remove", section: "progress", data: ["id": .string(id)])
        }
        let removed = try store.remove(player: context.visitor.playerID, id: id)
        return .redirect(to: "/progress?passkey=" + (removed ? "removed" : "gone") + "#passkeys")
    }

    /// "Sign out on this device": the device starts afresh and the progress stays with the player's passkeys (a review
    /// had only Forget me, which wipes every device). Without a passkey there would be no way back: nothing changes.
    func leave(_ request: Request, _ context: PlayerContext) throws -> Response {
        let visitor = context.visitor
        guard !visitor.isNew, try !store.passkeys(player: visitor.playerID).isEmpty else {
            return .redirect(to: "/progress#passkeys")
        }
        var response = Response.redirect(to: "/progress?passkey=left#passkeys")
        response.setCookie(identity.cookie(for: Player(id: Identity.newID(), firstSeen: Int(clock()))))
        return response
    }

    /// The passkeys section of `/progress`, with the transfer code's beside it.
    func section(_ request: Request, _ visitor: Visitor, _ t: LanguageStrings) throws -> TemplateValue {
        let known = visitor.isNew ? [] : try store.passkeys(player: visitor.playerID)
        let said = request.query["passkey"].flatMap { Self.statuses.contains($0) ? $0 : nil }
        return .object([
            "available": .bool(site.relyingParty(request) != nil),
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
                    let added = UTCTime.day(Int(passkey.createdMs / 1000), t)
                    let used = passkey.lastUsedMs.map { UTCTime.day(Int($0 / 1000), t) }
                    return [
                        "id": .string(passkey.id),
                        "name": .string(t.string("passkeys.name", [.int(index + 1)])),
                        "device": passkey.device.map { .string($0) } ?? .null,
                        "added": .string(t.string("passkeys.added", [.string(added)])),
                        "used": used.map { .string(t.string("passkeys.used", [.string($0)])) } ?? .null,
                    ]
                }),
        ])
    }

    private static let statuses: Set = ["added", "removed", "gone", "signedin", "merged", "mergeddaily", "left"]
    private static let nameStatuses: Set = ["saved", "cleared", "invalid", "taken", "refused"]

    /// 429 in the person's words when this address has tried too often (checked before any work).
    static func limited(_ attempts: TokenBuckets, _ request: Request, _ t: LanguageStrings) -> Response? {
        guard let seconds = attempts.take(ClientAddress.limitKey(request.remoteAddress)) else { return nil }
        var response = JSONAnswer.error(t.string("passkeys.error.wait"), status: .tooManyRequests)
        response.headers.set("Retry-After", String(seconds))
        return response
    }

    /// A refusal in the person's words; nothing was stored. The reason (never a key or a challenge) is logged.
    static func refuse(_ refused: WebAuthnSite.Refused, _ t: LanguageStrings, _ log: RequestLog) -> Response {
        log.info("passkey refused: \(refused.log ?? refused.message)")
        return JSONAnswer.error(t.string("passkeys.error.\(refused.message)"), status: .badRequest)
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
