import ArcadeStore
import Cheats
import HTTP
import JSON
import Once
import Templates

/// `POST /cheats/actions`: one key press, swipe, tap burst or shake. The
/// answer says how far the player is into the closest cheat (never naming
/// a cheat not yet found) and which effects an action unlocked.
struct CheatController: Sendable {
    let store: CheatStore
    let once: OnceStore
    let pages: Pages
    let errors: ErrorPages
    let mastermind: MastermindStore
    let nameGame: NameGameStore
    let limiter = RateLimiter(perSecond: 30)

    /// A completed cheat: found (in the once-store) and its effect applied, each committed before the answer.
    private func complete(_ outcome: CheatMatcher.Outcome, _ visitor: Visitor, page: MastermindPage) throws -> Response
    {
        let found = try once.perform(visitor) { o in outcome.unlocked.flatMap { o.markDone(SiteTasks.cheat($0)) } }.once
        // On a Name Game round, Mastermind's reveal helps the round as "who is it?" does (a review found the most famous
        // code did nothing in the Name Game but point to the other game).
        let effects = outcome.unlocked.compactMap { store.book.entry($0)?.effect }.map {
            $0 == "mastermind.reveal" && page.round != nil && !page.onBoard ? "namegame.firstLetter" : $0
        }
        var (idle, revealed) = try act(effects, visitor, page: page)
        // Each completion of the CRT's code toggles it: on after an odd number of them, and said so (a blind review
        // heard "switches on" as it went off).
        let crtOn = found.count(SiteTasks.cheat("crt")) % 2 == 1
        if effects.contains("theme.crt"), !crtOn { idle["theme.crt"] = ".off" }
        // What the page says at once, without reloading: "Cheat unlocked: The Konami code".
        let t = pages.localizer.strings(for: visitor.language)
        // Found again, it is used, not unlocked (a review: a second Konami code said "Cheat unlocked" once more).
        let toasts = outcome.unlocked.map {
            t.string(
                found.count(SiteTasks.cheat($0)) == 1 ? "cheats.unlocked.named" : "cheats.used.named",
                [.string(t.string("cheats.name.\($0)"))])
        }
        // And what it did, in the same toast; with how many the player has found, for every open page's cabinet.
        // A revealed digit is named with its place: the box it lands in may hold a digit typed over it (a review on
        // a phone saw only a small badge on its own "4", and the toast did not say which).
        let did = effects.map { effect in
            if effect == "mastermind.reveal", idle[effect] == nil, let (position, digit) = revealed {
                return t.string("cheats.did.mastermind.reveal", [.int(position + 1), .string(digit)])
            }
            return t.string("cheats.did.\(effect)" + (idle[effect] ?? ""))
        }
        let count = store.book.tasks.filter { found.beenDone($0) }.count
        let first = outcome.unlocked.contains { found.count(SiteTasks.cheat($0)) == 1 }
        var response = answer(
            outcome, found: found, effects: effects, toasts: toasts,
            news: [
                ("did", .array(did.map { .string($0) })), ("found", .integer(Int64(count))),
                ("total", .integer(Int64(store.book.entries.count))), ("first", .bool(first)),
            ])
        if effects.contains("theme.crt") {
            // Switched off, it gives back the theme chosen before it (a low-vision review's high contrast became the
            // system's).
            let (on, before) = (crtOn, visitor.look.theme == "crt" ? "" : visitor.look.theme)
            let theme = on ? "crt" : visitor.look.themeBefore
            response.setCookie(
                SetCookie(name: LookCookies.theme, value: theme, maxAge: theme.isEmpty ? 0 : 365 * 86_400))
            response.setCookie(
                SetCookie(
                    name: LookCookies.themeBefore, value: on ? before : "",
                    maxAge: on && !before.isEmpty ? 365 * 86_400 : 0))
            // Found once, retro stays in the theme chooser.
            response.setCookie(SetCookie(name: LookCookies.retro, value: "1", maxAge: 365 * 86_400))
        }
        return response
    }

    /// The games' effects, each on the game on the page. Effects with nothing to act on (a finished game, no round
    /// open) say so rather than claim what they did not do (a review: a finished game's Konami code said a digit was
    /// revealed): their keys map to the words' suffix.
    private func act(
        _ effects: [String], _ visitor: Visitor, page: MastermindPage
    ) throws -> (idle: [String: String], revealed: (Int, String)?) {
        var idle: [String: String] = [:]
        var revealed: (Int, String)?
        // Only the game on the page the code was entered on: from any other page a reveal or a head start would be
        // spent unseen on a game left open elsewhere (a review's Konami on the home page marked its game as hinted).
        if effects.contains("mastermind.reveal"), !page.onBoard {
            idle["mastermind.reveal"] = ".elsewhere"
        } else if effects.contains("mastermind.reveal") {
            var random = SystemRandomNumberGenerator()
            // On the unstarted board, the reveal starts the game it reveals a digit of.
            if !page.daily, try mastermind.latest(player: visitor.playerID) == nil {
                _ = try mastermind.start(player: visitor.player, mastermind.deal())
            }
            switch page.daily
                ? .daily : try mastermind.reveal(player: visitor.playerID, game: page.game, using: &random)
            {
            case .revealed(let position, let digit): revealed = (position, digit)
            // Said to work again in the next game (a review read "nothing to reveal" as the cheat spent).
            case .finished: idle["mastermind.reveal"] = ".none"
            case .used: idle["mastermind.reveal"] = ".again"
            case .daily: idle["mastermind.reveal"] = ".daily"
            }
        }
        if effects.contains("namegame.firstLetter") {
            if let round = page.round {
                let helped = try nameGame.cheat(player: visitor.playerID, round: round)
                // On an introduction it helps the question that follows (a review saw nothing change on the card).
                if !helped || page.intro { idle["namegame.firstLetter"] = helped ? ".intro" : ".none" }
            } else {
                idle["namegame.firstLetter"] = ".elsewhere"
            }
        }
        return (idle, revealed)
    }

    private func answer(
        _ outcome: CheatMatcher.Outcome, found: Once, effects: [String], toasts: [String] = [],
        news: [(String, JSONValue)] = []
    ) -> Response {
        // A cheat's name is only told once the player has found it.
        let closest = outcome.closest.flatMap { found.beenDone(SiteTasks.cheat($0)) ? $0 : nil }
        return JSONAnswer.make(
            .object(
                [
                    ("state", .string(outcome.unlocked.isEmpty ? outcome.state.rawValue : "matched")),
                    ("cheat", closest.map { .string($0) } ?? .null),
                    ("progress", .integer(Int64(outcome.progress))), ("length", .integer(Int64(outcome.length))),
                    ("unlocked", .array(effects.map { .string($0) })), ("toasts", .array(toasts.map { .string($0) })),
                    ("keys", .array(outcome.nextKeys.map { .string($0) })),
                ] + news))
    }

    /// The game on the page an action came from, if any: the Mastermind board a reveal is for (game 0: the unstarted
    /// board), or the Name Game round a head start is for.
    struct MastermindPage: Sendable {
        var game: Int64? = nil
        var daily = false
        var onBoard = false
        var round: Int64? = nil
        /// The round's page introduces its person: the question comes after.
        var intro = false

        init(_ form: FormFields) {
            onBoard = form["game"] != nil
            game = form["game"].flatMap { Int64($0) }.flatMap { $0 > 0 ? $0 : nil }
            daily = form["daily"] == "1"
            round = form["round"].flatMap { Int64($0) }
            intro = form["intro"] == "1"
        }
    }

    func addRoutes(to routes: PlayerRoutes) {
        // The site's most frequent write (every key press on every page): it holds no thread while its
        // commit is grouped with others'; only a completion (rare) finishes on a pool thread. Its start reads (the
        // player's record): on the loop on SQLite, on the pool on PostgreSQL.
        routes.actions.running(.reads).deferred(.post, "/cheats/actions", use: action)
        routes.pages.get("/cheats", use: list)
        routes.pages.get("/credits", use: credits)
    }

    func action(_ request: Request, _ context: PlayerContext, _ reply: Reply) throws {
        let visitor = context.visitor
        let later = Later(reply: reply, request: request, visitor: visitor, errors: errors)
        let form = request.form ?? FormFields()
        let page = MastermindPage(form)
        let action: Action
        do {
            action = try Action(kind: form["kind"] ?? "", value: form["value"] ?? "")
        } catch {
            return later.send(JSONAnswer.error("\(error)", status: .badRequest))
        }
        let found = try once.perform(visitor).once
        let now = once.clock()
        guard limiter.allow(visitor.playerID, at: now) else {
            SiteMetrics.refusals.add(["cheats_rate_limited"])
            var response = JSONAnswer.error("more than \(limiter.limit) actions a second", status: .tooManyRequests)
            response.headers.set("Retry-After", "1")
            return later.send(response)
        }
        store.record(action, player: visitor.player, at: now) { result in
            switch result {
            case .failure(let error):
                later.fail(error)
            case .success(let outcome) where outcome.unlocked.isEmpty:
                later.send(answer(outcome, found: found, effects: []))
            case .success(let outcome):
                later.sendBlocking { try complete(outcome, visitor, page: page) }
            }
        }
    }

    /// How many cheats the player has found; only found ones are named, with how to enter them.
    func list(_ request: Request, _ context: PlayerContext) throws -> Response {
        let visitor = context.visitor
        let record = try once.perform(visitor).once
        let t = pages.localizer.strings(for: visitor.language)
        let found: [TemplateValue] = store.book.entries.filter { record.beenDone($0.task) }.map {
            entry in
            [
                "name": .string(t.string("cheats.name.\(entry.code.name)")), "hint": .string(t.string(entry.hint)),
                "slug": .string(entry.code.name),
            ]
        }
        // Those not found yet are only hinted at (a review found no way to discover three of the four).
        let unfound: [TemplateValue] = store.book.entries.filter { !record.beenDone($0.task) }.map {
            ["clue": .string(t.string("cheats.clue.\($0.code.name)"))]
        }
        let total = store.book.entries.count
        return pages.render(
            "cheats", title: t.string("cheats.title"), for: visitor, path: "/cheats", section: "cheats",
            data: [
                "found": .list(found), "hasFound": .bool(!found.isEmpty), "unfound": .list(unfound),
                "hasUnfound": .bool(!unfound.isEmpty),
                "count": .string(t.string("cheats.count", [.int(found.count), .int(total)])),
                "foundCount": .int(found.count), "total": .int(total),
            ])
    }

    /// Hidden until the credits cheat is found: a plain 404 before.
    func credits(_ request: Request, _ context: PlayerContext) throws -> Response {
        let visitor = context.visitor
        guard try once.perform(visitor).once.beenDone(SiteTasks.cheat("credits")) else { throw PageError(.notFound) }
        let t = pages.localizer.strings(for: visitor.language)
        return pages.render(
            "credits", title: t.string("credits.title"), for: visitor, path: "/credits",
            section: "cheats")
    }
}
