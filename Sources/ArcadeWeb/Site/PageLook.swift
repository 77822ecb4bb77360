import Templates

/// What the layout shows around a page for this request, beyond the page itself: the theme and the update banner.
/// The visitor's cookies give the theme (`Identity`); a middleware (`UpdateNotice`, `AdminSession`) adds what it
/// knows to the context's visitor (`Visitor.with`), and `Pages.render` reads the visitor's.
struct PageLook: Sendable {
    /// The theme class on <html> ("" follows the system's light or dark setting).
    var theme = ""
    /// The theme the retro cheat switched away from (`LookCookies.themeBefore`), "" for the system's.
    var themeBefore = ""
    /// Retro is offered in the chooser once its cheat was found.
    var retroUnlocked = false
    /// Single-key shortcuts are off: `data-shortcuts="off"` on <html> tells the scripts, the chooser shows it.
    var shortcutsOff = false
    /// The games' sounds are off: `data-sound="off"` on <html> tells the scripts, the chooser shows it.
    var soundOff = false
    /// Hints mode slowed down (`LookCookies.hints`).
    var slowHints = false
    /// The update banner's data (`level`, `message`, `dismissible`, `back`), shown on 200 pages only.
    var banner: TemplateValue? = nil
    /// What the last admin change did ("Saved."), shown once on the next page; set by `AdminSession`.
    var flash: String? = nil

    /// The themes a player may choose; `crt` (retro) comes from its cheat.
    static let choices = ["light", "dark", "contrast", "contrast-light"]

    /// A theme cookie's value, if it names a theme.
    static func theme(_ cookie: String?) -> String {
        guard let cookie, choices.contains(cookie) || cookie == "crt" else { return "" }
        return cookie
    }
}
