import ArcadeStore
import Cheats
import HTTP
import Localization
import Mastermind
import Templates

/// `/`: the games (each a card with its own picture), today's daily code, who to review, the cheats found; and
/// `/theme`: the theme chooser (and the single-key shortcuts setting beside it).
/// A class, unlike the other controllers: the busiest page's handler then shares it rather than copying every store
/// it holds on each request.
final class HomeController: Sendable {
    let pages: Pages
    let once: OnceStore
    let secureCookies: Bool
    let mastermind: MastermindStore
    let nameGame: NameGameStore
    let people: PeopleStore
    let cheats: CheatBook
    let summaries: HomeSummaries

    init(
        pages: Pages, once: OnceStore, secureCookies: Bool, mastermind: MastermindStore, nameGame: NameGameStore,
        people: PeopleStore, cheats: CheatBook, summaries: HomeSummaries
    ) {
        self.pages = pages
        self.once = once
        self.secureCookies = secureCookies
        self.mastermind = mastermind
        self.nameGame = nameGame
        self.people = people
        self.cheats = cheats
        self.summaries = summaries
    }

    func addRoutes(to routes: PlayerRoutes) {
        // What the page shows of the player's games is kept in memory (`HomeSummaries`), their cheats in the
        // once-store's cache: on SQLite it stays on the loop; its middleware may read, so it is placed as a read.
        routes.pages.get("/", use: home)
        // A cookie (cosmetic, so pages need no lookup); nothing to commit, so no wait on the pool.
        routes.actions.running(.reads).post("/theme", use: chooseTheme)
    }

    func home(_ request: Request, _ context: PlayerContext) throws -> Response {
        let visitor = context.visitor
        // The strings are needed only when something is made afresh (a summary, a banner).
        func strings() -> LanguageStrings { pages.localizer.strings(for: visitor.language) }
        // The games and their count depend only on the language: built when the page's layout is prepared (`shared`
        // is asked for then only). Each game names both flags, so the prepared page has no lookup left for the one a
        // game lacks (it would search the request's fields).
        func catalog() -> TemplateValue {
            let t = strings()
            let games: [TemplateValue] = [
                [
                    "slug": "mastermind", "href": "/mastermind", "name": .string(t.string("mastermind.title")),
                    "description": .string(t.string("home.game.mastermind")), "isMastermind": true,
                    "isNameGame": false,
                ],
                [
                    "slug": "namegame", "href": "/namegame", "name": .string(t.string("namegame.title")),
                    "description": .string(t.string("home.game.namegame")), "isNameGame": true, "isMastermind": false,
                ],
            ]
            return [
                "games": .list(games), "hasGames": .bool(!games.isEmpty),
                "count": .string(t.string("home.games.count", [.int(games.count)])),
            ]
        }
        let snapshot = try once.perform(visitor)
        let found = cheats.tasks.map { snapshot.once.beenDone($0) }
        let summary = try summaries.summary(
            player: visitor.playerID, isNew: visitor.isNew, day: mastermind.today, language: visitor.language,
            strings: pages.versions(), found: found
        ) { now in try summarize(visitor, found: found, strings(), now) }
        // Last: the banners may queue a write (the what's-new note seen).
        let banners = try OnceController.banners(
            once, visitor, snapshot: snapshot, game: nil, back: "/", t: strings(), whatsNew: true)
        let seconds = mastermind.secondsToNextDaily
        return pages.render(
            "home", title: summary.title, for: visitor, path: "/", section: "home",
            shared: ["catalog": catalog()],
            data: TemplateFields(
                owning: [
                    ("once", banners), ("review", .string(summary.review)), ("cabinet", .string(summary.cabinet)),
                    ("dailyHTML", .string(summary.daily)), ("dailyOutcome", .string(summary.outcome)),
                    ("dailySeconds", .int(seconds)),
                    ("dailyCountdown", .string(MastermindController.clockText(seconds))),
                ], room: Pages.chromeFields))
    }

    /// How far today's daily is: solved, played, begun (a review, two guesses in, read "Not played yet today"), or not.
    static func dailyState(_ outcome: Game.Outcome, begun: Int, of attempts: Int, _ t: LanguageStrings) -> String {
        if begun > 0 {
            return t.string("home.daily.begun", [.string(t.string("mastermind.used", [.int(begun), .int(attempts)]))])
        }
        return t.string(outcome == .won ? "home.daily.won" : outcome == .lost ? "home.daily.lost" : "home.daily.open")
    }

    /// What the page shows of the player's games: today's daily code (how they did, their streak), how many people
    /// are due for review (once they have met anyone), and the cheats found by name, the rest as silhouettes.
    private func summarize(
        _ visitor: Visitor, found: [Bool], _ t: LanguageStrings, _ now: Double
    ) throws -> HomeSummaries.Summary {
        let today = mastermind.today
        let player = visitor.playerID
        // A newcomer has played nothing yet: nothing to look up.
        let game = visitor.isNew ? nil : try mastermind.daily(player: player, today)?.game
        let outcome = game?.outcome ?? .playing
        // A daily begun says so, not "Not played yet today" (a review, two guesses in).
        let begun = outcome == .playing ? game?.turns.count ?? 0 : 0
        let streak = visitor.isNew ? 0 : try mastermind.dailyStats(player: player).currentStreak
        let cards = visitor.isNew ? [:] : try nameGame.cards(player: player)
        let due =
            cards.isEmpty
            ? nil : NameGameController.mastery(nameGame, people: people.directory.team, cards: cards).due
        let language = visitor.language
        let strings = pages.versions()
        let key = "\(language)|\(strings)|"
        let daily = try summaries.panel(key + "daily|\(today)|\(outcome.rawValue)|\(begun)|\(streak)") {
            try pages.html(
                "home-daily", language: language,
                data: [
                    "title": .string(t.string("home.daily.today", [.int(today + 1)])),
                    "state": .string(Self.dailyState(outcome, begun: begun, of: game?.rules.attempts ?? begun, t)),
                    "streak": .string(t.string("home.daily.streak", [.int(streak)])), "streakCount": .int(streak),
                    // Unplayed, today's code is the card's first call (a review: the daily ritual was a side door).
                    "open": .bool(outcome != .won && outcome != .lost),
                ])
        }
        let review = try summaries.panel(key + "review|\(due ?? -1)") {
            let line: TemplateValue =
                if let due { ["count": .int(due), "line": .string(t.string("home.review", [.int(due)]))] } else {
                    ["count": .null, "start": .string(t.string("home.review.start"))]
                }
            return try pages.html("home-review", language: language, data: ["review": line])
        }
        let cabinet = try summaries.panel(key + "cabinet|" + String(found.map { $0 ? "1" : "0" })) {
            let items: [TemplateValue] = zip(cheats.entries, found).map { entry, found in
                let name = entry.code.name
                guard found else { return ["found": false, "label": .string(t.string("home.cheats.unknown"))] }
                return ["found": true, "slug": .string(name), "label": .string(t.string("cheats.name.\(name)"))]
            }
            let count = found.count { $0 }
            return try pages.html(
                "home-cabinet", language: language,
                data: [
                    "cabinet": [
                        "items": .list(items), "found": .int(count),
                        "count": .string(t.string("cheats.count", [.int(count), .int(cheats.entries.count)])),
                    ]
                ])
        }
        return HomeSummaries.Summary(
            day: today, language: language, strings: strings, computed: now, found: found, outcome: outcome.rawValue,
            title: t.string("home.title"), daily: daily, review: review, cabinet: cabinet)
    }

    func chooseTheme(_ request: Request, _ context: PlayerContext) throws -> Response {
        let form = request.form ?? FormFields()
        let chosen = form["theme"] ?? ""
        guard chosen.isEmpty || PageLook.choices.contains(chosen) || (chosen == "crt" && context.visitor.retroUnlocked)
        else { throw PageError(.unprocessableContent) }
        // The chooser's second setting: single-key shortcuts on or off (WCAG 2.1.4). Absent from older forms.
        let keys = form["keys"]
        let sound = form["sound"]
        guard keys == nil || keys == "on" || keys == "off", sound == nil || sound == "on" || sound == "off" else {
            throw PageError(.unprocessableContent)
        }
        var response = Response.redirect(to: OnceController.localPath(form["back"]))
        response.setCookie(
            SetCookie(
                name: LookCookies.theme, value: chosen, maxAge: chosen.isEmpty ? 0 : 365 * 86_400,
                secure: secureCookies, sameSite: .lax))
        if let keys {
            let off = keys == "off"
            response.setCookie(
                SetCookie(
                    name: LookCookies.keys, value: off ? "off" : "", maxAge: off ? 365 * 86_400 : 0,
                    secure: secureCookies, sameSite: .lax))
        }
        // And the third: the games' sounds.
        if let sound {
            let off = sound == "off"
            response.setCookie(
                SetCookie(
                    name: LookCookies.sound, value: off ? "off" : "", maxAge: off ? 365 * 86_400 : 0,
                    secure: secureCookies, sameSite: .lax))
        }
        return response
    }
}
