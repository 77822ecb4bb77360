import ArcadeStore
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
/// A class: each request's middleware and handler pass it along, and a copy of a struct retained every string in it.
final class Visitor: PlayerSession {
    static let playerCookie = "arcade_player"
    static let sessionCookie = "arcade_session"
    static let languageCookie = "arcade_lang"

    let player: Player
    let sessionID: String
    let language: String
    let csrfToken: String
    /// Cookies the response must set.
    let cookies: [SetCookie]
    /// What the layout shows around a page: the theme, retro and shortcuts from plain cookies (only cosmetic, so a
    /// page needs no lookup), then the update banner or an admin's flash as middleware adds them.
    let look: PageLook
    /// The player id was made for this request: nothing is stored for it, so nothing need be looked up
    /// (or cached: a crawler would fill the caches with visitors who never return).
    let isNew: Bool

    init(
        player: Player, sessionID: String, language: String, csrfToken: String, cookies: [SetCookie] = [],
        look: PageLook = PageLook(), isNew: Bool = false
    ) {
        self.player = player
        self.sessionID = sessionID
        self.language = language
        self.csrfToken = csrfToken
        self.cookies = cookies
        self.look = look
        self.isNew = isNew
    }

    /// The chosen theme (`light`, `dark`, `contrast`, or `crt` from the cheat; "" follows the system).
    var theme: String { look.theme }
    /// The retro cheat was found: the chooser offers retro.
    var retroUnlocked: Bool { look.retroUnlocked }

    /// This visitor with `change` made to the page's look.
    func with(_ change: (inout PageLook) throws -> Void) rethrows -> Visitor {
        var look = look
        try change(&look)
        return Visitor(
            player: player, sessionID: sessionID, language: language, csrfToken: csrfToken, cookies: cookies,
            look: look, isNew: isNew)
    }
}
