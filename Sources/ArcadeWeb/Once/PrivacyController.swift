import ArcadeStore
import HTTP
import JSON

/// A player's own data, from "Your progress": all of it as one JSON file, and "forget me", which deletes every row
/// of theirs after a confirmation page and clears their cookies. Plain links and forms: no script needed.
struct PrivacyController: Sendable {
    let once: OnceStore
    let pages: Pages
    let secureCookies: Bool

    func addRoutes(to routes: PlayerRoutes) {
        // Off the loop: it reads every row of the player's (bounded, but many).
        routes.pages.running(.pool).get("/progress/data", use: download)
        routes.pages.get("/progress/forget", use: confirm)
        routes.actions.post("/progress/forget", use: forget)
    }

    func download(_ request: Request, _ context: PlayerContext) throws -> Response {
        let player = context.visitor.playerID
        var response = JSONAnswer.make(try once.export(player))
        response.headers.set("Content-Disposition", "attachment; filename=\"arcade-my-data.json\"")
        response.headers.set("Cache-Control", "no-store")
        return response
    }

    func confirm(_ request: Request, _ context: PlayerContext) throws -> Response {
        let t = pages.localizer.strings(for: context.visitor.language)
        return pages.render(
            "forget", title: t.string("privacy.forget.title"), for: context.visitor, path: "/progress/forget",
            section: "progress")
    }

    func forget(_ request: Request, _ context: PlayerContext) throws -> Response {
        let player = context.visitor.playerID
        try once.forget(player)
        var response = Response.redirect(to: "/progress?forgotten=1")
        // The browser forgets them too: the next visit is a stranger's.
        for name in [
            Visitor.playerCookie, Visitor.sessionCookie, Visitor.languageCookie, LookCookies.theme,
            LookCookies.retro, LookCookies.codesLeft, LookCookies.keys, LookCookies.hints, LookCookies.sound,
        ] {
            response.setCookie(SetCookie(name: name, value: "", maxAge: 0, secure: secureCookies, sameSite: .lax))
        }
        return response
    }
}
