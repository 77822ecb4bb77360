import Templates

/// What the layout shows around a page for this request, beyond the page itself: the CRT theme and the
/// update banner. RouteKit sets it around a handler (a task-local, so handlers need not pass it on) and
/// `Pages.render` reads it as template data.
struct PageLook: Sendable {
    var crtTheme = false
    /// The update banner's data (`level`, `message`, `dismissible`, `back`), shown on 200 pages only.
    var banner: TemplateValue? = nil

    @TaskLocal static var current = PageLook()
}
