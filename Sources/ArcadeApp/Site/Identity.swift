import Crypto
import HTTP
import Localization
import Storage
#if canImport(Glibc)
import Glibc
#endif

/// Identifies visitors and guards state-changing requests.
struct Identity: Sendable {
    let signer: Signer
    let csrfKey: HMACKey
    let pool: DatabasePool
    let negotiation: LanguageNegotiation
    let secureCookies: Bool
    /// Session → CSRF token, so a returning visitor costs no HMAC.
    let tokens = BoundedCache<String, String>(limit: 50_000)

    func visitor(for request: Request) throws -> Visitor {
        let cookies = request.cookies
        var toSet: [SetCookie] = []
        let player: Player
        if let known = cookies[Visitor.playerCookie].flatMap(signer.verify).flatMap(Self.player) {
            player = known
        } else {
            // Nothing is written for a visitor who only looks: the id and its first-seen time travel
            // in the signed cookie, and the row is made by the player's first action.
            player = Player(id: Self.newID(), firstSeen: Int(time(nil)))
            toSet.append(SetCookie(name: Visitor.playerCookie, value: signer.sign("\(player.id).\(player.firstSeen)"),
                                   maxAge: 2 * 365 * 86_400, secure: secureCookies, sameSite: .lax))
        }
        let session: String
        if let known = cookies[Visitor.sessionCookie].flatMap(signer.verify), Self.isID(known) {
            session = known
        } else {
            session = Self.newID()
            toSet.append(SetCookie(name: Visitor.sessionCookie, value: signer.sign(session), secure: secureCookies, sameSite: .lax))
        }
        let (language, switched) = self.language(for: request, cookies: cookies)
        if switched {
            toSet.append(SetCookie(name: Visitor.languageCookie, value: language, maxAge: 365 * 86_400,
                                   secure: secureCookies, sameSite: .lax))
        }
        let isNew = toSet.first?.name == Visitor.playerCookie
        return Visitor(player: player, sessionID: session, language: language,
                       csrfToken: csrfToken(session: session, remember: !isNew),
                       cookies: toSet, theme: PageLook.theme(cookies[RouteKit.themeCookie]),
                       retroUnlocked: cookies[RouteKit.retroCookie] == "1" || cookies[RouteKit.themeCookie] == "crt", isNew: isNew)
    }

    /// The page language: `?lang=` (a switch, to remember), the remembered
    /// choice, or the browser's preference. Needs no database, so even a
    /// failure page can speak the visitor's language.
    func language(for request: Request, cookies: [String: String]? = nil) -> (String, switched: Bool) {
        if let asked = request.query["lang"], let chosen = negotiation.match(asked) { return (chosen, true) }
        if let remembered = (cookies ?? request.cookies)[Visitor.languageCookie], let chosen = negotiation.match(remembered) {
            return (chosen, false)
        }
        return (negotiation.negotiate(request.headers["Accept-Language"]), false)
    }

    func csrfToken(session: String, remember: Bool = true) -> String {
        if let known = tokens[session] { return known }
        let token = Base64URL.encode(csrfKey.authenticate("csrf|" + session))
        if remember { tokens[session] = token }
        return token
    }

    /// Whether a POST carries the token of the session it comes from, in the
    /// form field `csrf` or the `X-CSRF-Token` header.
    func passesCSRF(_ request: Request) -> Bool {
        guard let session = request.cookies[Visitor.sessionCookie].flatMap(signer.verify) else { return false }
        let sent = request.headers["X-CSRF-Token"] ?? request.form?["csrf"] ?? ""
        return Crypto.constantTimeEqual(Array(sent.utf8), Array(csrfToken(session: session).utf8))
    }

    static func newID() -> String { Base64URL.encode(Crypto.randomBytes(16)) }

    /// A player cookie's signed value: `ID.FIRSTSEEN`, or a bare id from before first-seen times travelled
    /// in it (such a player has a row, so the time given here is never stored).
    static func player(_ value: String) -> Player? {
        let parts = value.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), isID(String(parts[0])) else { return nil }
        if parts.count == 1 { return Player(id: String(parts[0]), firstSeen: Int(time(nil))) }
        guard parts[1].utf8.count <= 12, let seconds = Int(parts[1]), seconds >= 0 else { return nil }
        return Player(id: String(parts[0]), firstSeen: seconds)
    }

    static func isID(_ text: String) -> Bool {
        text.utf8.count == 22 && Base64URL.decode(text)?.count == 16
    }
}
