import HTTP
import Templates

/// `/`: the games, and `/theme`: the theme chooser.
struct HomeController: Sendable {
    let pages: Pages
    let once: OnceStore
    let secureCookies: Bool

    func addRoutes(to routes: PlayerRoutes) {
        routes.pages.get("/", use: home)
        // A cookie (cosmetic, so pages need no lookup); nothing to commit, so on the loop.
        routes.actions.running(.loop).post("/theme", use: chooseTheme)
    }

    func home(_ request: Request, _ context: PlayerContext) throws -> Response {
        let visitor = context.visitor
        let t = pages.localizer.strings(for: visitor.language)
        // The games and their count depend only on the language: built once.
        let catalog = pages.perLanguage("home.games", visitor.language) { t in
            let games: [TemplateValue] = [
                [
                    "slug": "mastermind", "href": "/mastermind", "name": .string(t.string("mastermind.title")),
                    "description": .string(t.string("home.game.mastermind")),
                ],
                [
                    "slug": "namegame", "href": "/namegame", "name": .string(t.string("namegame.title")),
                    "description": .string(t.string("home.game.namegame")),
                ],
            ]
            return [
                "games": .list(games), "hasGames": .bool(!games.isEmpty),
                "count": .string(t.string("home.games.count", [.int(games.count)])),
            ]
        }
        let banners = try OnceController.banners(once, visitor, game: nil, back: "/", t: t, whatsNew: true)
        return pages.render(
            "home", title: t.string("home.title"), for: visitor, path: "/", section: "home",
            shared: ["catalog": catalog], data: ["once": banners])
    }

    func chooseTheme(_ request: Request, _ context: PlayerContext) throws -> Response {
        let form = request.form ?? FormFields()
        let chosen = form["theme"] ?? ""
        guard chosen.isEmpty || PageLook.choices.contains(chosen) || (chosen == "crt" && context.visitor.retroUnlocked)
        else { throw PageError(.unprocessableContent) }
        var response = Response.redirect(to: OnceController.localPath(form["back"]))
        response.setCookie(
            SetCookie(
                name: LookCookies.theme, value: chosen, maxAge: chosen.isEmpty ? 0 : 365 * 86_400,
                secure: secureCookies, sameSite: .lax))
        return response
    }
}
