import Cheats
import HTTP
import Localization
import Mastermind
import Templates

/// `/`: the games (each a card with its own picture), today's daily code, who to review, the cheats found; and
/// `/theme`: the theme chooser.
struct HomeController: Sendable {
    let pages: Pages
    let once: OnceStore
    let secureCookies: Bool
    let mastermind: MastermindStore
    let nameGame: NameGameStore
    let people: PeopleStore
    let cheats: CheatBook

    func addRoutes(to routes: PlayerRoutes) {
        // Off the event loop: the page reads the player's daily game, their cards and their cheats.
        routes.pages.running(.pool).get("/", use: home)
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
                    "description": .string(t.string("home.game.mastermind")), "isMastermind": true,
                ],
                [
                    "slug": "namegame", "href": "/namegame", "name": .string(t.string("namegame.title")),
                    "description": .string(t.string("home.game.namegame")), "isNameGame": true,
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
            shared: ["catalog": catalog],
            data: [
                "once": banners, "daily": try daily(visitor, t), "review": try review(visitor, t),
                "cabinet": try cabinet(visitor, t),
            ])
    }

    /// Today's daily code: how the player did, their streak, and the time until the next one (UTC midnight).
    private func daily(_ visitor: Visitor, _ t: LanguageStrings) throws -> TemplateValue {
        let today = mastermind.today
        let outcome = try mastermind.daily(player: visitor.playerID, today)?.game.outcome ?? .playing
        let stats = try mastermind.dailyStats(player: visitor.playerID)
        let seconds = 86_400 - Int(mastermind.clock()) % 86_400
        return [
            "title": .string(MastermindController.dailyTitle(today, t)),
            "state": .string(
                t.string(outcome == .won ? "home.daily.won" : outcome == .lost ? "home.daily.lost" : "home.daily.open")),
            "outcome": .string(outcome.rawValue),
            "streak": .string(t.string("home.daily.streak", [.int(stats.currentStreak)])),
            "streakCount": .int(stats.currentStreak), "seconds": .int(seconds),
            "countdown": .string(Self.clockFace(seconds)),
        ]
    }

    /// The Name Game: how many people are due today, once the player has met anyone.
    private func review(_ visitor: Visitor, _ t: LanguageStrings) throws -> TemplateValue {
        let cards = try nameGame.cards(player: visitor.playerID)
        guard !cards.isEmpty else { return ["start": .string(t.string("home.review.start"))] }
        let due = NameGameController.mastery(nameGame, people: people.directory.people, cards: cards).due
        return ["count": .int(due), "line": .string(t.string("home.review", [.int(due)]))]
    }

    /// The cheats found so far by name; the rest as silhouettes.
    private func cabinet(_ visitor: Visitor, _ t: LanguageStrings) throws -> TemplateValue {
        let record = try once.perform(visitor).once
        let items: [TemplateValue] = cheats.entries.map { entry in
            let name = entry.code.name
            guard record.beenDone(SiteTasks.cheat(name)) else {
                return ["found": false, "label": .string(t.string("home.cheats.unknown"))]
            }
            return ["found": true, "slug": .string(name), "label": .string(t.string("cheats.name.\(name)"))]
        }
        let found = cheats.entries.count { record.beenDone(SiteTasks.cheat($0.code.name)) }
        return [
            "items": .list(items), "found": .int(found),
            "count": .string(t.string("cheats.count", [.int(found), .int(cheats.entries.count)])),
        ]
    }

    /// Seconds as h:mm:ss, what the countdown shows before its script ticks (and without one).
    static func clockFace(_ seconds: Int) -> String {
        let minutes = seconds / 60 % 60
        let rest = seconds % 60
        return "\(seconds / 3600):\(minutes < 10 ? "0" : "")\(minutes):\(rest < 10 ? "0" : "")\(rest)"
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
