import ArcadeStore
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
    var clock: @Sendable () -> Double = WallClock.system
    let negotiation: LanguageNegotiation
    let secureCookies: Bool
    /// Whether the request comes from a signed-in admin: only they may choose the pseudo-locale.
    var isAdmin: @Sendable (Request) -> Bool = { _ in false }
    /// A returning visitor's two signed cookies → who they are: one lookup instead of two signature checks, two
    /// parses and a token. The site's only cache of verified cookies (each player costs its memory once).
    let returning = BoundedCache<SignedPair, Returning>(limit: 50_000)
    struct SignedPair: Hashable, Sendable {
        let player, session: String

        /// The signatures' tails (see `tailFingerprint`): the entries are pairs the site signed.
        func hash(into hasher: inout Hasher) {
            hasher.combine(player.tailFingerprint)
            hasher.combine(session.tailFingerprint)
        }
    }
    struct Returning: Sendable { let player: Player, session: String, csrfToken: String }

    func visitor(for request: Request) throws -> Visitor {
        let cookies = request.cookies
        let (language, switched) = self.language(for: request, cookies: cookies)
        var toSet: [SetCookie] = []
        if switched {
            toSet.append(
                SetCookie(
                    name: Visitor.languageCookie, value: language, maxAge: 365 * 86_400,
                    secure: secureCookies, sameSite: .lax))
        }
        let theme = PageLook.theme(cookies[LookCookies.theme])
        let look = PageLook(
            theme: theme, themeBefore: PageLook.theme(cookies[LookCookies.themeBefore]),
            retroUnlocked: cookies[LookCookies.retro] == "1" || theme == "crt",
            shortcutsOff: cookies[LookCookies.keys] == "off", soundOff: cookies[LookCookies.sound] == "off",
            slowHints: cookies[LookCookies.hints] == "slow")
        let pair = Self.pair(cookies)
        if let pair, let known = returning[pair] {
            return Visitor(
                player: known.player, sessionID: known.session, language: language, csrfToken: known.csrfToken,
                cookies: toSet, look: look)
        }
        let player: Player
        var isNew = false
        if let known = cookies[Visitor.playerCookie].flatMap(signer.verify).flatMap({
            Self.player($0, now: Int(clock()))
        }) {
            player = known
        } else {
            // Nothing is written for a visitor who only looks: the id and its first-seen time travel
            // in the signed cookie, and the row is made by the player's first action.
            player = Player(id: Self.newID(), firstSeen: Int(clock()))
            isNew = true
            toSet.append(cookie(for: player))
        }
        let session: String
        var sessionIsNew = false
        if let known = cookies[Visitor.sessionCookie].flatMap(signer.verify), Self.isID(known) {
            session = known
        } else {
            session = Self.newID()
            sessionIsNew = true
            toSet.append(
                SetCookie(
                    name: Visitor.sessionCookie, value: signer.sign(session), secure: secureCookies, sameSite: .lax))
        }
        let token = csrfToken(session: session)
        if let pair, !isNew, !sessionIsNew {
            returning[pair] = Returning(player: player, session: session, csrfToken: token)
        }
        return Visitor(
            player: player, sessionID: session, language: language, csrfToken: token,
            cookies: toSet, look: look, isNew: isNew)
    }

    /// The cookie that makes a browser `player` (a new visitor, or a device signed in as another player).
    func cookie(for player: Player) -> SetCookie {
        SetCookie(
            name: Visitor.playerCookie, value: signer.sign("\(player.id).\(player.firstSeen)"),
            maxAge: 2 * 365 * 86_400, secure: secureCookies, sameSite: .lax)
    }

    /// The page language: `?lang=` (a switch, to remember), the remembered
    /// choice, or the browser's preference. Needs no database, so even a
    /// failure page can speak the visitor's language.
    /// The pseudo-locale (`en-XA`) is an admin's only, checked when asked for: anyone else gets the language it
    /// falls back to.
    func language(for request: Request, cookies: Cookies? = nil) -> (String, switched: Bool) {
        let remembered = (cookies ?? request.cookies)[Visitor.languageCookie]
        if let asked = request.query["lang"] {
            if asked == PseudoLocale.tag, isAdmin(request) { return (asked, true) }
            if let chosen = negotiation.match(asked) { return (chosen, true) }
        }
        if let remembered {
            if remembered == PseudoLocale.tag, isAdmin(request) { return (remembered, false) }
            if let chosen = negotiation.match(remembered) { return (chosen, false) }
        }
        return (negotiation.negotiate(request.headers["Accept-Language"]), false)
    }

    static func pair(_ cookies: Cookies) -> SignedPair? {
        cookies[Visitor.playerCookie].flatMap { player in
            cookies[Visitor.sessionCookie].map { SignedPair(player: player, session: $0) }
        }
    }

    func csrfToken(session: String) -> String { Base64URL.encode(csrfKey.authenticate("csrf|" + session)) }

    /// Whether a POST carries the token of the session it comes from, in the
    /// form field `csrf` or the `X-CSRF-Token` header.
    /// `token`: one a multipart form carried, where `request.form` cannot see it.
    func passesCSRF(_ request: Request, token: String? = nil) -> Bool {
        let cookies = request.cookies
        let expected: String
        if let pair = Self.pair(cookies), let known = returning[pair] {
            expected = known.csrfToken
        } else {
            guard let session = cookies[Visitor.sessionCookie].flatMap(signer.verify) else { return false }
            expected = csrfToken(session: session)
        }
        let sent = request.headers["X-CSRF-Token"] ?? request.form?["csrf"] ?? token ?? ""
        return Crypto.constantTimeEqual(Array(sent.utf8), Array(expected.utf8))
    }

    static func newID() -> String { Base64URL.encode(Crypto.randomBytes(16)) }

    /// A player cookie's signed value: `ID.FIRSTSEEN`, or a bare id from before first-seen times travelled
    /// in it (such a player has a row, so the time given here is never stored).
    static func player(_ value: String, now: Int) -> Player? {
        guard let dot = value.utf8.firstIndex(of: UInt8(ascii: ".")) else {
            return isID(value) ? Player(id: value, firstSeen: now) : nil
        }
        let id = String(value[..<dot])
        let rest = value.utf8[value.utf8.index(after: dot)...]
        guard isID(id), rest.count <= 12, let seconds = Int(Substring(rest)), seconds >= 0 else { return nil }
        return Player(id: id, firstSeen: seconds)
    }

    /// 16 bytes in unpadded base64url: 22 characters, the last carrying 2 bits and 4 zero bits.
    static func isID(_ text: String) -> Bool {
        let utf8 = text.utf8
        guard utf8.count == 22, let last = utf8.last, "AQgw".utf8.contains(last) else { return false }
        return utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "_"):
                true
            default: false
            }
        }
    }
}
