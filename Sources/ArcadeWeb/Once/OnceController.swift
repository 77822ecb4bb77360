import ArcadeStore
import HTTP
import Localization
import Mastermind
import NameGame
import Once
import Templates

/// The once-store's pages: dismissing a card or banner, and "your progress".
struct OnceController: Sendable {
    let store: OnceStore
    let pages: Pages
    /// The rules of a new game, which Mastermind's How to play states (a phone has no room for them by the board).
    let mastermindRules: @Sendable () -> Rules
    /// The passkeys section of "your progress" (`PasskeyController.section`).
    let passkeys: @Sendable (Request, Visitor, LanguageStrings) throws -> TemplateValue
    /// How many people a player has due for review in the Name Game today (0 before they met anyone).
    /// People due in the Name Game by the end of today, and now.
    let reviewsDue: @Sendable (String) throws -> (today: Int, now: Int)

    func addRoutes(to routes: PlayerRoutes) {
        routes.actions.post("/once/dismiss", use: dismiss)
        // The tutorial cards, always reachable (a dismissed card is gone from the game page).
        routes.pages.get("/mastermind/help") { request, context in try help("mastermind", request, context) }
        routes.pages.get("/namegame/help") { request, context in try help("namegame", request, context) }
        routes.pages.get("/progress", use: progress)
    }

    func dismiss(_ request: Request, _ context: PlayerContext) throws -> Response {
        let form = request.form ?? FormFields()
        guard let task = form["task"], SiteTasks.dismissable.contains(task) else { throw PageError(.badRequest) }
        try store.perform(context.visitor) { once in
            task == SiteTasks.tryNameGame ? once.clearToDo(task) : once.markDone(task)
        }
        return .redirect(to: Self.localPath(form["back"]))
    }

    func help(_ game: String, _ request: Request, _ context: PlayerContext) throws -> Response {
        let t = pages.localizer.strings(for: context.visitor.language)
        let chosen = game == "namegame" ? request.query["mode"].flatMap(Mode.init) : nil
        let mode = chosen.map { "/\($0.rawValue)" } ?? ""
        let title = t.string("once.tutorial.\(game).title")
        // The mode's own rules after the game's (a review: Learn's help said nothing of meeting, typing or spacing),
        // a point a sentence (a later review: "one 20-line paragraph, nobody reads it").
        let modeHelp: TemplateValue =
            chosen.map { mode in
                let more =
                    [Mode.learn, .hint].contains(mode) ? t.sentenceGap + t.string("namegame.help.\(mode.rawValue)") : ""
                return .object([
                    "name": .string(t.string("namegame.mode.\(mode.rawValue)")),
                    "points": .list(
                        Self.sentences(t.string("namegame.mode.\(mode.rawValue).about") + more).map(
                            TemplateValue.string)),
                ])
            } ?? .null
        return pages.render(
            "help", title: title, for: context.visitor, path: "/\(game)/help", section: game,
            data: [
                "game": .string(game), "title": .string(title),
                "text": .string(t.string("once.tutorial.\(game).text")),
                "back": .string("/\(game)" + (game == "namegame" ? mode : "")),
                // Mastermind's help states the rules and shows what each peg means with example rows.
                "examples": .bool(game == "mastermind"), "mm": Self.rulesContext(mastermindRules()),
                "keys": Self.keys(game, t), "mode": modeHelp,
                // Where the faces come from (a review looked for a way to learn its own team).
                "people": game == "namegame" ? .string(t.string("namegame.help.people")) : .null,
            ])
    }

    /// A text's sentences: cut after a full stop, "!" or "?" and a space before a capital or an opening quote, and
    /// after "。", "！" or "？" (Japanese, no space) unless a closing bracket or quote follows.
    static func sentences(_ text: String) -> [String] {
        var result: [String] = []
        var current = ""
        let characters = Array(text)
        for (index, character) in characters.enumerated() {
            current.append(character)
            let next = index + 1 < characters.count ? characters[index + 1] : nil
            let after = index + 2 < characters.count ? characters[index + 2] : nil
            let ends =
                "。！？".contains(character)
                ? next.map { !"」』）)\"”".contains($0) } ?? false
                : ".!?".contains(character) && next == " "
                    && after.map { $0.isUppercase || "“„«\"(".contains($0) } ?? false
            if ends {
                result.append(current.trimmingSpaces)
                current = ""
            }
        }
        if !current.trimmingSpaces.isEmpty { result.append(current.trimmingSpaces) }
        return result
    }

    func progress(_ request: Request, _ context: PlayerContext) throws -> Response {
        let visitor = context.visitor
        let once = try store.perform(visitor).once
        let t = pages.localizer.strings(for: visitor.language)
        // Cheats have their own page, which keeps unfound ones secret. Only what a player would call an achievement,
        // in words; bookkeeping marks (a card dismissed, a reminder done) stay out, and never show as keys.
        let shown = [
            SiteTasks.mastermindPlayed, SiteTasks.mastermindWon, SiteTasks.nameGamePlayed,
            SiteTasks.tutorial("mastermind"), SiteTasks.tutorial("namegame"), SiteTasks.whatsNew,
        ]
        let done: [TemplateValue] = shown.filter { once.count($0) > 0 }.map { task in
            let count = once.count(task)
            return [
                "task": .string(task), "count": .int(count),
                "text": .string(t.string("progress.task.\(task)", [.int(count)])),
            ]
        }
        // Only the site's own to-dos, in words: one a client set through the once API is its own bookkeeping, and
        // its key is no sentence (a review read "Still to do: my.key").
        let worded = [SiteTasks.tryNameGame: "progress.todo.namegame.try"]
        var todo: [TemplateValue] = once.record.toDos.keys.sorted().filter { once.needToDo($0) }.compactMap { task in
            worded[task].map { ["task": .string(task), "text": .string(t.string($0)), "href": "/namegame"] }
        }
        // People due in the Name Game are waiting too (a review: "Nothing is waiting for you" beside 24 due).
        let due = visitor.isNew ? (today: 0, now: 0) : try reviewsDue(visitor.playerID)
        if due.today > 0 {
            todo.append([
                "task": "namegame.review",
                "text": .string(
                    due.now > 0
                        ? t.string("progress.todo.namegame.review", [.int(due.now)])
                        : t.string("progress.todo.namegame.later", [.int(due.today)])),
                "href": "/namegame/learn",
            ])
        }
        return pages.render(
            "progress", title: t.string("progress.title"), for: visitor, path: "/progress",
            section: "progress",
            data: [
                "done": .list(done), "hasDone": .bool(!done.isEmpty), "todo": .list(todo),
                "hasToDo": .bool(!todo.isEmpty), "forgotten": .bool(request.query["forgotten"] == "1"),
                "passkeys": try passkeys(request, visitor, t),
            ])
    }

    /// What the examples' rules line reads (the board's own context has the same names).
    static func rulesContext(_ rules: Rules) -> TemplateValue {
        .object([
            "length": .int(rules.length), "digitMin": .int(rules.digitMin), "digitMax": .int(rules.digitMax),
            "attempts": .int(rules.attempts),
        ])
    }

    /// The Name Game's keys, for How to play: shown only where there is a keyboard (the CSS decides), after the
    /// language's gap between sentences (none in Japanese: a native reader saw a stray space).
    static func keys(_ game: String, _ t: LanguageStrings) -> TemplateValue {
        game == "namegame"
            ? ["gap": .string(t.sentenceGap), "text": .string(t.string("once.tutorial.namegame.keys"))] : .null
    }

    /// Only a path on this site: never `//elsewhere` or a full URL.
    static func localPath(_ text: String?) -> String {
        guard let text, text.hasPrefix("/"), !text.hasPrefix("//"), !text.contains("\\"),
            text.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F })
        else { return "/" }
        return text
    }

    /// What a page that shows no banner (most views) renders its banners from: built once.
    private static let noBanners: TemplateValue = ["whatsNew": false, "reminder": false]

    /// The banners and cards for a page (from `snapshot`, when the page has read the player's record already). The
    /// what's-new note is marked as seen here, so it appears once per version.
    static func banners(
        _ store: OnceStore, _ visitor: Visitor, snapshot known: OnceStore.Snapshot? = nil, game: String?, back: String,
        t strings: @autoclosure () -> LanguageStrings, whatsNew: Bool = false, tutorialCard: Bool = true
    ) throws -> TemplateValue {
        var showWhatsNew = false
        let snapshot = try known ?? store.perform(visitor)
        if whatsNew && snapshot.sawEarlierVersion && !snapshot.once.beenDone(SiteTasks.whatsNew, scope: .version) {
            showWhatsNew = true
            // A page view may be on an event loop: the mark is queued, not waited for.
            try store.perform(visitor, wait: false) { $0.markDone(SiteTasks.whatsNew) }
        }
        let once = snapshot.once
        // Not on a game's page: two reviews counted the other game pushed at them there, over the board.
        let reminder = once.needToDo(SiteTasks.tryNameGame) && game == nil
        let tutorial = game.map { SiteTasks.showsTutorial(once, game: $0) } ?? false
        if !showWhatsNew && !reminder && !tutorial { return Self.noBanners }
        var context: TemplateFields = [
            "whatsNew": .bool(showWhatsNew), "version": .string(store.siteVersion), "reminder": .bool(reminder),
            "back": .string(back),
        ]
        if !tutorialCard && tutorial {
            // The game teaches on its own screen (a line on the round): no card or dialog before play.
            context["howto"] = .bool(true)
        } else if let game, tutorial {
            let t = strings()
            context["tutorial"] = .object([
                "task": .string(SiteTasks.tutorial(game)), "title": .string(t.string("once.tutorial.\(game).title")),
                "text": .string(t.string("once.tutorial.\(game).text")), "examples": .bool(game == "mastermind"),
                "keys": keys(game, t),
            ])
        }
        return .object(context)
    }
}
