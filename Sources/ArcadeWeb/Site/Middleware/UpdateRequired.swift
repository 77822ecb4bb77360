import HTTP

/// On the game routes: a high update rule gives way to "update required" instead of the game. Its one button reloads
/// this page (once the player has updated, it is the game again); links to other games would lead back here.
struct UpdateRequired: Middleware {
    let pages: Pages

    func handle(_ request: Request, context: PlayerContext, next: Next<PlayerContext>) throws -> Response {
        guard let notice = context.notice, notice.rule.restriction == .high else { return try next(request, context) }
        let visitor = context.visitor.with { $0.banner = nil }
        let text =
            notice.message.isEmpty
            ? pages.localizer.string("update.required.text", language: visitor.language)
            : notice.message
        // Said in a header too, so an open page's script (told of a change by the live stream) can tell by a HEAD.
        // The page says it already; the banner other pages carry would say it twice.
        var response = pages.render(
            "update-required", title: pages.localizer.string("update.required.title", language: visitor.language),
            for: visitor, path: OnceController.localPath(request.target), section: "closed",
            data: ["message": .string(text)])
        response.headers.set("X-Arcade-Update", "required")
        return response
    }
}
