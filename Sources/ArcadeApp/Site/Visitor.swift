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

    let player: Player
    let sessionID: String
    let language: String
    let csrfToken: String
    /// Cookies the response must set.
    var cookies: [SetCookie] = []
    /// The chosen theme (`light`, `dark`, `contrast`, or `crt` from the cheat; "" follows the system): a plain
    /// cookie, since it is only cosmetic and a page then needs no lookup.
    var theme = ""
    /// The retro cheat was found (a plain cookie too): the chooser offers retro.
    var retroUnlocked = false
    /// The player id was made for this request: nothing is stored for it, so nothing need be looked up
    /// (or cached: a crawler would fill the caches with visitors who never return).
    var isNew = false

    var playerID: String { player.id }
}
