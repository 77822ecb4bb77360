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
final class Visitor: Sendable {
    static let playerCookie = "arcade_player"
    static let sessionCookie = "arcade_session"
    static let languageCookie = "arcade_lang"

    let player: Player
    let sessionID: String
    let language: String
    let csrfToken: String
    /// Cookies the response must set.
    let cookies: [SetCookie]
    /// The chosen theme (`light`, `dark`, `contrast`, or `crt` from the cheat; "" follows the system): a plain
    /// cookie, since it is only cosmetic and a page then needs no lookup.
    let theme: String
    /// The retro cheat was found (a plain cookie too): the chooser offers retro.
    let retroUnlocked: Bool
    /// Single-key shortcuts are off (a plain cookie: `LookCookies.keys`).
    let shortcutsOff: Bool
    /// The player id was made for this request: nothing is stored for it, so nothing need be looked up
    /// (or cached: a crawler would fill the caches with visitors who never return).
    let isNew: Bool

    init(
        player: Player, sessionID: String, language: String, csrfToken: String, cookies: [SetCookie] = [],
        theme: String = "", retroUnlocked: Bool = false, shortcutsOff: Bool = false, isNew: Bool = false
    ) {
        self.player = player
        self.sessionID = sessionID
        self.language = language
        self.csrfToken = csrfToken
        self.cookies = cookies
        self.theme = theme
        self.retroUnlocked = retroUnlocked
        self.shortcutsOff = shortcutsOff
        self.isNew = isNew
    }

    var playerID: String { player.id }
}
