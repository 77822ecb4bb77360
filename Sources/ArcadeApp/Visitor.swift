import Crypto
import HTTP
import Localization
import Storage
#if canImport(Glibc)
import Glibc
#endif

/// Who is asking, as far as the site knows: an anonymous player (signed,
/// long-lived cookie), a browser session (signed session cookie), the
/// language, and the CSRF token tied to the session. A tampered or forged
/// cookie is ignored: its bearer becomes a new player.
struct Visitor: Sendable {
    static let playerCookie = "arcade_player"
    static let sessionCookie = "arcade_session"
    static let languageCookie = "arcade_lang"

    let playerID: String
    let sessionID: String
    let language: String
    let csrfToken: String
    /// Cookies the response must set.
    var cookies: [SetCookie] = []
    /// The CRT theme cheat is on (a plain cookie: it is only cosmetic).
    var crtTheme = false
}

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
        let player: String
        if let known = cookies[Visitor.playerCookie].flatMap(signer.verify), Self.isID(known) {
            player = known
        } else {
            player = Self.newID()
            // Committed before the response that hands out the cookie.
            try pool.connection().execute("INSERT OR IGNORE INTO players (id, first_seen) VALUES (?, ?)",
                                          [.text(player), .integer(Int64(time(nil)))])
            toSet.append(SetCookie(name: Visitor.playerCookie, value: signer.sign(player), maxAge: 2 * 365 * 86_400,
                                   secure: secureCookies, sameSite: .lax))
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
        return Visitor(playerID: player, sessionID: session, language: language, csrfToken: csrfToken(session: session),
                       cookies: toSet, crtTheme: cookies[RouteKit.themeCookie] == "crt")
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

    func csrfToken(session: String) -> String {
        if let known = tokens[session] { return known }
        let token = Base64URL.encode(csrfKey.authenticate("csrf|" + session))
        tokens[session] = token
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

    static func isID(_ text: String) -> Bool {
        text.utf8.count == 22 && Base64URL.decode(text)?.count == 16
    }
}
