import Templates

/// What the layout shows around a page for this request, beyond the page itself: the CRT theme and the update banner.
/// A middleware (`UpdateNotice`, `AdminSession`, …) sets it around a handler (a task-local, so handlers need not pass
/// it on) and `Pages.render` reads it as template data.
struct PageLook: Sendable {
    /// The theme class on <html> ("" follows the system's light or dark setting).
    var theme = ""
    /// Retro is offered in the chooser once its cheat was found.
    var retroUnlocked = false
    /// Single-key shortcuts are off: `data-shortcuts="off"` on <html> tells the scripts, the chooser shows it.
    var shortcutsOff = false
    /// The update banner's data (`level`, `message`, `dismissible`, `back`), shown on 200 pages only.
    var banner: TemplateValue? = nil
    /// What the last admin change did ("Saved."), shown once on the next page; set by `AdminSession`.
    var flash: String? = nil

    @TaskLocal static var current = PageLook()

    /// The themes a player may choose; `crt` (retro) comes from its cheat.
    static let choices = ["light", "dark", "contrast", "contrast-light"]

    /// A theme cookie's value, if it names a theme.
    static func theme(_ cookie: String?) -> String {
        guard let cookie, choices.contains(cookie) || cookie == "crt" else { return "" }
        return cookie
    }
}
