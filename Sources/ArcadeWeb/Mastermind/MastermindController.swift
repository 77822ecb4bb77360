import ArcadeStore
import Constants
import Crypto
import HTTP
import Localization
import Mastermind
import Storage
import Synchronization
import Templates

/// Mastermind on the web: complete without JavaScript (forms and 303s), and
/// with it, boards updated in place from a server-rendered fragment (the
/// request says `X-Fragment: board`). The secret appears only once the game is over.
struct MastermindController: Sendable {
    let store: MastermindStore
    let pages: Pages
    let once: OnceStore
    let solvers = MastermindSolvers()

    func addRoutes(to routes: PlayerRoutes) {
        // A board counts the codes left after each row and a finished one carries the solver's analysis: off the loop.
        let boards = routes.pages.running(.pool)
        boards.get("/mastermind", use: current)
        boards.get("/mastermind/daily", use: today)
        boards.get("/mastermind/daily/:n", use: pastDaily)
        routes.pages.get("/mastermind/archive", use: archive)
        routes.pages.get("/mastermind/giveup", use: confirmGiveUp)
        routes.pages.get("/mastermind/stats", use: statsPage)
        // Actions run off the loop: a first guess may ask random.org for the secret, a hint runs the solver.
        routes.actions.post("/mastermind/guess", use: guess)
        routes.creating.post("/mastermind/new", use: newGame)
        routes.creating.post("/mastermind/hint", use: hint)
        routes.actions.post("/mastermind/giveup", use: giveUp)
        routes.actions.post("/mastermind/codes-left", use: codesLeft)
        addChallengeRoutes(to: routes)
        addBoardRoutes(to: routes)
    }

    /// The "codes still possible" switch of the Game menu: off by default, remembered in a cookie until a new game, so
    /// it works without a script (a form and a 303 back to the board it was set on) and without an account.
    func codesLeft(_ request: Request, _ context: PlayerContext) throws -> Response {
        let on = request.form?["on"] == "1"
        let back = Self.boardPath(request.form?["back"] ?? "") ?? "/mastermind"
        var response: Response
        if isFragment(request) {
            let visitor = context.visitor
            let daily =
                back.split(separator: "/").last.flatMap { Int($0) } ?? (back.hasSuffix("daily") ? store.today : nil)
            let record =
                try daily.map { try store.daily(player: visitor.playerID, $0) ?? store.unstartedDaily($0) }
                ?? store.latest(player: visitor.playerID) ?? store.unstarted()
            response = try board(record, visitor, request, showLeft: on)
        } else {
            response = .redirect(to: back + "#board")
        }
        response.setCookie(
            SetCookie(name: LookCookies.codesLeft, value: on ? "1" : "", maxAge: on ? 365 * 86_400 : 0))
        return response
    }

    /// A board's own address, or nil: where the switch may send the player back to (never elsewhere).
    static func boardPath(_ path: String) -> String? {
        if path == "/mastermind" || path == "/mastermind/daily" { return path }
        let prefix = "/mastermind/daily/"
        guard path.hasPrefix(prefix) else { return nil }
        let number = path.dropFirst(prefix.count)
        return !number.isEmpty && number.count <= 9 && number.allSatisfy { ("0"..."9").contains($0) } ? path : nil
    }

    /// Looking writes nothing: a player's first board is unstarted until their first guess. `?hint=ask`: Hint's
    /// question, without a script.
    func current(_ request: Request, _ context: PlayerContext) throws -> Response {
        let record = try store.latest(player: context.visitor.playerID) ?? store.unstarted()
        return try board(record, context.visitor, request, askHint: request.query["hint"] == "ask" && hintCosts(record))
    }

    /// A hint that would keep this game's win out of the guess chart: asked first, once a game (a review: one tap
    /// took a win out of the chart for good, with no way back). An opening's hint tells nothing and costs nothing.
    private func hintCosts(_ record: MastermindStore.Record) -> Bool {
        record.game.outcome == .playing && record.daily == nil && !record.usedHint && !record.game.turns.isEmpty
    }

    /// The daily code: the same for everyone today; one game each; past days from the archive.
    func today(_ request: Request, _ context: PlayerContext) throws -> Response {
        try board(
            dailyRecord(store.today, context.visitor, hard: request.query["hard"] == "1"), context.visitor, request)
    }

    /// A player's game of a daily, or its unstarted board: in hard mode when asked (`?hard=1`, or the first guess's
    /// `hard` field), as Wordle's daily can be played (a review found hard mode only in free play). Chosen before the
    /// first guess only; that guess's row keeps it.
    private func dailyRecord(_ number: Int, _ visitor: Visitor, hard: Bool) throws -> MastermindStore.Record {
        if let record = try store.daily(player: visitor.playerID, number) { return record }
        var record = store.unstartedDaily(number)
        record.hard = hard
        return record
    }

    func pastDaily(_ request: Request, _ context: PlayerContext) throws -> Response {
        guard let number = Int(try request.parameter("n")), (0...store.today).contains(number) else {
            throw PageError(.notFound)
        }
        if number == store.today { return .redirect(to: "/mastermind/daily") }
        let record = try dailyRecord(number, context.visitor, hard: request.query["hard"] == "1")
        return try board(record, context.visitor, request)
    }

    func guess(_ request: Request, _ context: PlayerContext) throws -> Response {
        let visitor = context.visitor
        let form = request.form ?? FormFields()
        var random = SecureRandom()
        let game = form["game"].flatMap { Int64($0) }
        // A daily board says which day; one not yet come (or malformed) is refused like a stale page.
        let daily = form["daily"].map { Int($0).flatMap { (0...store.today).contains($0) ? $0 : nil } ?? -1 }
        let hard = form["hard"] == "1"
        let first =
            daily.map { number in
                var deal = store.dailyDeal(number)
                deal.hard = hard
                return deal
            } ?? (game == 0 ? store.deal() : nil)
        let result =
            daily == -1
            ? .failure(.stale)
            : try store.guess(
                player: visitor.player, game: game, turn: form["turn"].flatMap { Int($0) },
                form["guess"] ?? "", first: first, assisted: request.cookies[LookCookies.codesLeft] == "1",
                using: &random, ended: once.mastermindEnded(for: visitor))
        let path = daily.map { $0 == store.today ? "/mastermind/daily" : "/mastermind/daily/\($0)" } ?? "/mastermind"
        switch result {
        case .success(let record):
            // Without a script, land on what changed (a phone would otherwise show the page's top).
            let anchor = record.game.outcome == .playing ? "#board" : "#result"
            return try isFragment(request) ? board(record, visitor, request) : .redirect(to: path + anchor)
        case .failure(let refusal):
            // Nothing changed: show the current board with a clear message.
            let shown = daily.flatMap { $0 >= 0 ? $0 : nil }
            let record =
                try shown.map { try dailyRecord($0, visitor, hard: hard) }
                ?? store.latest(player: visitor.playerID) ?? store.unstarted()
            return try board(
                record, visitor, request, status: .unprocessableContent,
                error: message(refusal, language: visitor.language), value: form["guess"] ?? "")
        }
    }

    /// A new game starts without the codes-left aid, which counts as a hint: left on, it made every later game a hinted
    /// one, the player unaware (a review: "one curious tap quietly keeps every later win out of your chart").
    func newGame(_ request: Request, _ context: PlayerContext) throws -> Response {
        let record = try store.start(player: context.visitor.player, store.deal(hard: request.form?["hard"] == "1"))
        var response =
            try isFragment(request)
            ? board(record, context.visitor, request, showLeft: false) : .redirect(to: "/mastermind")
        if request.cookies[LookCookies.codesLeft] != nil {
            response.setCookie(SetCookie(name: LookCookies.codesLeft, value: "", maxAge: 0))
        }
        return response
    }

    /// The solver can take tens of milliseconds: off the event loop, as every action.
    func hint(_ request: Request, _ context: PlayerContext) throws -> Response {
        let visitor = context.visitor
        // Asking for a hint on the unstarted board starts the game.
        let record = try store.latest(player: visitor.playerID) ?? store.start(player: visitor.player, store.deal())
        guard record.game.outcome == .playing else {
            return try isFragment(request) ? board(record, visitor, request) : .redirect(to: "/mastermind")
        }
        if hintCosts(record) && request.form?["confirm"] != "1" {
            return try isFragment(request)
                ? board(record, visitor, request, askHint: true) : .redirect(to: "/mastermind?hint=ask")
        }
        let history = record.game.turns.map { ($0.guess, $0.feedback) }
        // With two guesses left a hint is a code that could win: a probe that cannot be the code, however much it
        // rules out, read as the game holding back (a review, row 9, six codes left).
        let fitting = record.hard || record.game.attemptsLeft <= 2
        // A digit the Konami code revealed is known: the hint plays the codes with it in place (a review's late hint
        // ignored it and named a probe that told the last codes nothing apart).
        let known = record.revealed.map { (position: $0, digit: record.game.secret.digits[$0]) }
        // A code that could win, where one costs little against the best probe (a review: "it can't be the code itself"
        // read as a hint that spends a guess and can never win).
        if let hint = solvers.solver(record.game.rules).nextGuess(
            after: history, fitting: fitting, known: known, preferFitting: true)
        {
            // Before any row it is an opening, which tells nothing of the code: not counted against the win (a review
            // lost a win from its chart for "a strong next guess is 0 1 2 3").
            _ = try store.recordHint(player: visitor.playerID, game: record.id, hint: hint, free: history.isEmpty)
        }
        guard isFragment(request) else { return .redirect(to: "/mastermind") }
        return try board(try store.latest(player: visitor.playerID) ?? record, visitor, request)
    }

    /// Giving up asks first (a page, so it works without a script), then shows the code and counts a loss.
    func confirmGiveUp(_ request: Request, _ context: PlayerContext) throws -> Response {
        let visitor = context.visitor
        guard let record = try store.latest(player: visitor.playerID), record.game.outcome == .playing else {
            return .redirect(to: "/mastermind")
        }
        let t = pages.localizer.strings(for: visitor.language)
        return pages.render(
            "mastermind-giveup", title: t.string("mastermind.giveup.title"), for: visitor,
            path: "/mastermind/giveup", section: "mastermind", data: ["game": .int(Int(record.id))])
    }

    /// With a script, the board comes back in place and its results open as a card, as a win's and a loss's do (a
    /// review: give-up alone ended on a page of its own).
    func giveUp(_ request: Request, _ context: PlayerContext) throws -> Response {
        if let id = request.form?["game"].flatMap({ Int64($0) }) {
            _ = try store.giveUp(
                player: context.visitor.playerID, game: id, ended: once.mastermindEnded(for: context.visitor))
        }
        guard isFragment(request), let record = try store.latest(player: context.visitor.playerID) else {
            return .redirect(to: "/mastermind#result")
        }
        return try board(record, context.visitor, request)
    }

    func statsPage(_ request: Request, _ context: PlayerContext) throws -> Response {
        let visitor = context.visitor
        let (stats, daily, counts) = try store.snapshot {
            (
                try store.stats(player: visitor.playerID), try store.dailyStats(player: visitor.playerID),
                try store.dailyDistribution(player: visitor.playerID)
            )
        }
        let t = pages.localizer.strings(for: visitor.language)
        var dailyFields = chart(counts, lost: daily.lost, title: "daily-distribution", t: t)
        for (name, value) in [
            ("played", daily.played), ("wins", daily.wins), ("currentStreak", daily.currentStreak),
            ("longestStreak", daily.longestStreak),
        ] {
            dailyFields[name] = .int(value)
        }
        return pages.render(
            "mastermind-stats", title: t.string("stats.title"), for: visitor, path: "/mastermind/stats",
            section: "mastermind",
            data: [
                "stats": statsContext(stats, t: t),
                "daily": .object(dailyFields),
            ])
    }

    private func isFragment(_ request: Request) -> Bool { request.headers["X-Fragment"] == "board" }

    private func message(_ refusal: MastermindStore.Refusal, language: String) -> String {
        let t = pages.localizer.strings(for: language)
        switch refusal {
        case .invalid(.wrongLength(let expected, let got)):
            return t.string("mastermind.error.length", [.int(expected), .int(got)])
        case .invalid(.outOfRange(let digit, let low, let high)):
            return t.string("mastermind.error.range", [.int(low), .int(high), .string(String(digit))])
        case .invalid(.notADigit(let ch)): return t.string("mastermind.error.digit", [.string(String(ch))])
        case .finished: return t.string("mastermind.error.finished")
        case .stale: return t.string("mastermind.error.stale")
        case .contradicts(let row, let feedback):
            return t.string("mastermind.error.hard", [.int(row + 1), .int(feedback.red), .int(feedback.blue)])
        case .repeated(let row):
            return t.string("mastermind.error.repeated", [.int(row + 1)])
        }
    }

    /// The board page, or just the board for a script. The codes-left aid is never on for a daily, one code for
    /// everyone compared (a review: switched on in free play it counted the daily's codes, and nothing marked it).
    private func board(
        _ record: MastermindStore.Record, _ visitor: Visitor, _ request: Request, status: Status = .ok,
        error: String? = nil, value: String = "", showLeft: Bool? = nil, askHint: Bool = false
    ) throws -> Response {
        let t = pages.localizer.strings(for: visitor.language)
        // A database that fails is said (503, the error page), not shown as a player with no games (a code review).
        let stats = try store.stats(player: visitor.playerID)
        var context = boardContext(
            record, language: visitor.language, error: error, value: value, stats: stats, link: link(request, record),
            showLeft: record.daily == nil && (showLeft ?? (request.cookies[LookCookies.codesLeft] == "1")))
        if case .object(var fields) = context {
            if let number = record.daily { try dailyFields(number, record, visitor, t: t, into: &fields) }
            // A free game over can be played by a friend; a challenge's own game leads back to see how both did.
            if record.daily == nil, record.id != 0, record.game.outcome != .playing {
                fields["challenge"] = .string(challengePath(record.challenge ?? record.id))
                fields["challengeTaken"] = .bool(record.challenge != nil)
                // A friend's code played to its end says who won, in the card (a review: only behind "See how you
                // compare", at its foot).
                // Their rows in pegs beside the player's: the challenge promised each other's rows once the game is
                // over (a review met only the two scores, the rows behind a link under "How each guess did").
                if let source = record.challenge, let (owner, theirs) = try store.challengeSource(source) {
                    fields["challengeVerdict"] = .string(verdict(record, theirs, t))
                    fields["challengeFriend"] = .string(
                        try store.displayName(of: owner) ?? t.string("mastermind.challenge.friend"))
                    fields["challengeRows"] = .list(rowsContext(theirs.game, remaining: [], showLeft: false, t: t))
                }
            }
            // The first win invites the player to the Name Game in its results, once (the moment it is earned); the
            // game's page has no banner for it (two reviews counted the other game pushed at them in every card and
            // over the board).
            if record.game.outcome == .won && record.daily == nil && stats.wins == 1
                && ((try? once.perform(visitor).once.needToDo(SiteTasks.tryNameGame)) ?? false)
            {
                fields["tryNameGame"] = .bool(true)
            }
            if askHint { fields["hintAsk"] = .bool(true) }
            context = .object(fields)
        }
        if isFragment(request) {
            return pages.fragment(
                "mastermind-board", status: status, for: visitor,
                data: ["mm": context])
        }
        let banners =
            (try? OnceController.banners(
                once, visitor, game: "mastermind", back: "/mastermind",
                t: pages.localizer.strings(for: visitor.language))) ?? .null
        let title =
            record.daily.map { Self.dailyTitle($0, t) } ?? t.string("mastermind.title")
        return pages.render(
            "mastermind", status: status, title: title, for: visitor,
            path: "/mastermind", section: "mastermind",
            data: ["mm": context, "once": banners, "heading": .string(title)])
    }

    /// A daily's board: its streak, its own chart, the way back to free play and the time to the next.
    private func dailyFields(
        _ number: Int, _ record: MastermindStore.Record, _ visitor: Visitor, t: LanguageStrings,
        into fields: inout TemplateFields
    ) throws {
        let daily = try store.dailyStats(player: visitor.playerID)
        fields["daily"] = .int(number)
        fields["isDaily"] = .bool(true)
        fields["isToday"] = .bool(number == store.today)
        fields["currentStreak"] = .int(daily.currentStreak)
        fields["longestStreak"] = .int(daily.longestStreak)
        // The dailies' own chart, this one's bar marked (a review: Wordle's chart after every daily, ours none).
        let counts = try store.dailyDistribution(player: visitor.playerID)
        let won = record.game.outcome == .won && !record.usedHint
        fields["hasDistribution"] = .bool(record.game.outcome != .playing && !counts.isEmpty)
        // A record among the dailies (not "first": free play may have had wins before).
        let best = won ? Self.record(counts, turns: record.game.turns.count) : nil
        fields["record"] = best.flatMap { $0 == "mastermind.record.first" ? nil : .string(t.string($0)) } ?? .null
        fields["compact"] = compactDistribution(
            counts, highlight: won ? record.game.turns.count : nil, lost: daily.lost,
            lostNow: record.game.outcome == .lost,
            t: t)
        // Everyone's figures on this daily, once this player's game is over (a review: Wordle's daily is a shared
        // ritual, ours a private one): how many played, the share who cracked it, and their average guesses.
        if record.game.outcome != .playing, let everyone = try? store.everyone(daily: number), everyone.played > 0 {
            fields["everyone"] = .object([
                "played": .int(everyone.played),
                "cracked": .int(Int((Double(everyone.wins) * 100 / Double(everyone.played)).rounded())),
                "average": everyone.wins > 0 ? .double(Double(everyone.winGuesses) / Double(everyone.wins)) : .null,
            ])
        }
        // New game from a daily's results: back to a free game in play, else a new one (a review's New game
        // opened the free game it had finished, and needed a second New game).
        fields["freeInPlay"] = .bool((try? store.latest(player: visitor.playerID))?.game.outcome == .playing)
        if number == store.today {
            let left = store.secondsToNextDaily
            fields["nextDaily"] = .int(left)
            fields["nextDailyText"] = .string(t.string("mastermind.daily.next", [.string(Self.clockText(left))]))
        }
    }

    func boardContext(
        _ record: MastermindStore.Record, language: String, error: String?, value: String,
        stats: MastermindStore.Stats, link: String = "", showLeft: Bool = false
    ) -> TemplateValue {
        let t = pages.localizer.strings(for: language)
        let game = record.game
        let rules = game.rules
        // Exact, so bounded: rules an admin made huge get no counts rather than a slow page.
        let solver = rules.codeCount <= Self.countLimit ? solvers.solver(rules) : nil
        let remaining = solver.map { solvers.remaining(game, $0) } ?? []
        let rows = rowsContext(game, remaining: remaining, showLeft: showLeft, t: t)
        let outcome = game.outcome
        let upcoming: [Int] =
            outcome == .playing ? Array(stride(from: game.turns.count + 2, through: rules.attempts, by: 1)) : []
        var fields: TemplateFields = [
            "gameId": .int(Int(record.id)), "turn": .int(game.turns.count), "attemptsLeft": .int(game.attemptsLeft),
            "showLeft": .bool(showLeft), "path": .string(boardPath(record)),
            "attempts": .int(rules.attempts), "length": .int(rules.length), "digitMin": .int(rules.digitMin),
            "digitMax": .int(rules.digitMax),
            // The keys mark what the rows show by a player's own bookkeeping, as Wordle's keyboard does; all that the
            // codes still possible prove only with the aid on (a review: by row 9 the keys had done the deducing).
            "keys": keysContext(game, solver: showLeft ? solver : nil, t: t),
            "outcome": .string(outcome.rawValue), "isPlaying": .bool(outcome == .playing),
            "isOver": .bool(outcome != .playing),
            "isWon": .bool(outcome == .won), "isLost": .bool(outcome == .lost), "rows": .list(rows),
            "gaveUp": .bool(outcome == .lost && game.forfeited), "started": .bool(record.id != 0),
            // No guess yet: the mode can still change (the Game menu offers the other), and there is nothing to give up.
            "fresh": .bool(game.turns.isEmpty),
            "usedHint": .bool(record.usedHint), "hint": record.hint.map { .string($0) } ?? .null,
            "error": error.map { .string($0) } ?? .null, "value": .string(value),
            "hard": .bool(record.hard),
            // A friend's code says so while it is played (a review: it looked like any game until its end).
            "challengePlaying": .bool(record.challenge != nil && outcome == .playing),
            "currentStreak": .int(stats.currentStreak), "longestStreak": .int(stats.longestStreak),
            // The rest of the board: the row being typed, then one empty slot per attempt still to come.
            "nextNumber": .int(game.turns.count + 1),
            "cells": .list(Array(repeating: .bool(true), count: rules.length)),
            "upcoming": .list(upcoming.map { .int($0) }),
            "announcement": .string(
                Self.announcement(game, hard: record.hard, left: showLeft ? remaining.last : nil, t)),
            "announcementBeforeResults": .string(Self.beforeResults(game, t)),
            // The row being typed, said by the script: its sentences with a slot it fills ("Your guess: {row}").
            "earRow": .string(t.string("mastermind.ear.row", [.string("{row}")])),
            "earDeleted": .string(t.string("mastermind.ear.deleted", [.string("{digit}")])),
            // Notes by ear: which place they go to, how to move it, and a note taken back (a blind review).
            "earNotes": .object([
                "on": .string(t.string("mastermind.ear.notesOn", [.string("{place}")])),
                "place": .string(t.string("mastermind.ear.notePlace", [.string("{place}"), .string("{digits}")])),
                "empty": .string(t.string("mastermind.ear.notePlaceEmpty", [.string("{place}")])),
                "removed": .string(t.string("mastermind.ear.noteRemoved", [.string("{digit}"), .string("{place}")])),
            ]),
        ]
        fields.merge(resultFields(record, stats: stats, link: link, solver: solver, remaining: remaining, t: t))
        return .object(fields)
    }

    /// The fields of a game's end, and of the help that needs the secret (nothing of it while the game is open).
    private func resultFields(
        _ record: MastermindStore.Record, stats: MastermindStore.Stats, link: String, solver: Solver?,
        remaining: [Int], t: LanguageStrings
    ) -> TemplateFields {
        let game = record.game
        let outcome = game.outcome
        let rules = game.rules
        let highlight = outcome == .won && !record.usedHint ? game.turns.count : nil
        var fields = hintFields(record, solver: solver, remaining: remaining, t: t)
        fields.merge([
            // The secret is in the page state only once the game is over.
            "secret": outcome == .playing ? .null : .string(game.secret.description),
            "secretSpoken": outcome == .playing ? .null : .string(Self.spoken(game.secret.description, t)),
            // A loss shows the code on the board, under the rows it is compared with (a review: the loss was flat, and
            // the card over the board hid the rows while it named the code).
            "secretDigits": outcome == .lost ? .list(game.secret.digits.map { .string(String($0)) }) : .null,
            // The cheat's reveal: position (1-based) and digit, shown while playing and marked on the result.
            "revealed": record.revealed.map { position in
                .object([
                    "position": .int(position + 1),
                    "digit": .string(
                        String(Array(game.secret.description)[min(position, game.secret.description.count - 1)])),
                ])
            } ?? .null,
            "share": outcome == .playing ? .null : .string(shareText(record, t: t, link: link)),
            // Its rows are symbols a screen reader reads out one by one ("heavy minus sign" four times a row, a
            // blind review): said in words instead.
            "shareSaid": outcome == .playing
                ? .null : .string(t.string("mastermind.share.said", [.string(shareHeadline(record, t: t))])),
            "hasDistribution": .bool(outcome != .playing && stats.distribution.contains { $0 > 0 }),
            // A win with a hint is kept out of the chart: said, or the chart looks as if the win went uncounted.
            "hintedWin": .bool(outcome == .won && record.usedHint),
            // A win's title says how well it went, as Wordle's does (a review: the same "Cracked in 5 guesses" three
            // times on one screen); a hinted one is only cracked.
            "praise": outcome == .won
                ? .string(t.string(record.usedHint ? "mastermind.won.title" : Self.praise(game.turns.count))) : .null,
            // …and says it is a win too, to the ear: a blind review heard the card named only "Splendid!".
            "praiseSaysWin": .bool(outcome == .won && !record.usedHint),
            "record": highlight.flatMap { Self.record(stats.distribution, turns: $0) }.map { .string(t.string($0)) }
                ?? .null,
            "compact": outcome == .playing
                ? .null
                : compactDistribution(
                    stats.distribution, highlight: highlight, lost: stats.lost, lostNow: outcome == .lost, t: t),
            // How close the rows came, where the game knows (a review: the loss's words were flat); else praise for
            // the rows, which needs rows to praise (a review gave up after one and read "every row").
            "encourage": .string(
                remaining.last.map {
                    $0 == 1 ? t.string("mastermind.lost.leftOne") : t.string("mastermind.lost.left", [.int($0)])
                }
                    ?? t.string(
                        game.turns.count >= 3 && Self.everyRowNarrowed(remaining, rules)
                            ? "mastermind.lost.encourage" : "mastermind.lost.encourage.plain")),
            "analysis": outcome == .playing || rules.codeCount > Self.analysisLimit || solver == nil
                ? .null : analysis(record, solver: solver!, remaining: remaining, t: t),
        ])
        return fields
    }

    /// A hint's words, said and shown. One that cannot be the code says why it is offered (a review: "a strong next
    /// guess is 0055", which the rows had ruled out, read as a mistake); and what it costs, not only on the results
    /// (another felt tricked). With one or two codes left that fit every row, one that could be the code is a nudge
    /// first, the guess folded under it (a review: the late hint "5 5 4 4" was the code, the deduction taken away).
    private func hintFields(
        _ record: MastermindStore.Record, solver: Solver?, remaining: [Int], t: LanguageStrings
    ) -> TemplateFields {
        let game = record.game
        let hint = record.hint.flatMap { try? Code($0, rules: game.rules) }
        let ruledOut = hint.map { game.contradiction($0) != nil }
        // Why it is strong, in a number (a review: the hint gave no reason it could check); an opening says why in
        // words.
        let most =
            game.turns.isEmpty
            ? nil
            : hint.flatMap { hint in
                solver.map { $0.mostLeft(after: game.turns.map { ($0.guess, $0.feedback) }, guess: hint) }
            }
        let reason = [
            ruledOut == true ? t.string("mastermind.hint.probe") : "",
            most.map { t.string("mastermind.hint.most", [.int($0)]) } ?? "",
        ].filter { !$0.isEmpty }
        // Before any row the hint is an opening, and says what makes it one (a review: "a strong next guess is 0 1 2 3"
        // teaches nothing, and is worth almost nothing).
        let text = game.turns.isEmpty ? "mastermind.hint.opening" : "mastermind.hint.text"
        // What it costs, said with it: a chart entry, or nothing before the first row (a review could not tell whether
        // its unasked opening hint had counted) unless the game is helped already (a later one read "a hint is free"
        // after Konami's digit, which "counts as a hint").
        let price =
            record.usedHint ? "mastermind.hint.cost" : game.turns.isEmpty ? "mastermind.hint.free" : nil
        func hintWords(_ hint: String, shown: String) -> String {
            t.sentences([t.string(text, [.string(shown)])] + reason + [price.map { t.string($0) } ?? ""])
        }
        let nudge: TemplateValue =
            ruledOut == false && (1...2).contains(remaining.last ?? 0)
            ? .string(t.string(remaining.last == 1 ? "mastermind.hint.one" : "mastermind.hint.two")) : .null
        return [
            "hintNudge": nudge, "hintSpaced": record.hint.map { .string(Self.spaced($0)) } ?? .null,
            "hintSpoken": record.hint.map { .string(hintWords($0, shown: Self.spoken($0, t))) } ?? .null,
            // Its digits apart on the board too: a blind review reading the board back heard "0525" as a number.
            // Why it is offered apart: a phone's line short of room leaves it out, as it does the cost.
            "hintLine": record.hint.map { .string(t.string(text, [.string(Self.spaced($0))])) }
                ?? .null,
            "hintProbe": reason.isEmpty ? .null : .string(t.sentenceGap + t.sentences(reason)),
            // Its cost apart: a phone leaves it out of the line (a review: four lines of hint covered rows 9 and 10).
            // Shown only when it is news: a hint that costs the chart asked first, in those words (a review read the
            // card, two lines of it the question it had just answered, over the rows below the one being typed).
            "hintCost": record.hint.flatMap { _ in price == "mastermind.hint.cost" ? nil : price }
                .map { .string(t.sentenceGap + t.string($0)) } ?? .null,
        ]
    }

    /// A win's word by the guesses it took, from a first-guess fluke to the last try.
    /// What a win without help is among the player's own (`counts`: wins by guesses, this one's included): the first,
    /// a new fewest, or the fewest again, as a key of its words; nil otherwise. A three-row win and a ten-row one got
    /// the same card (a review: "paperwork"); a record is the moment a player remembers.
    static func record(_ counts: [Int], turns: Int) -> String? {
        guard turns >= 1, turns <= counts.count, counts[turns - 1] > 0 else { return nil }
        if counts.reduce(0, +) == 1 { return "mastermind.record.first" }
        guard counts[..<(turns - 1)].allSatisfy({ $0 == 0 }) else { return nil }
        return counts[turns - 1] == 1 ? "mastermind.record.best" : "mastermind.record.equal"
    }

    static func praise(_ turns: Int) -> String {
        switch turns {
        case ...1: "mastermind.praise.genius"
        case 2...3: "mastermind.praise.brilliant"
        case 4: "mastermind.praise.impressive"
        case 5: "mastermind.praise.splendid"
        case 6...7: "mastermind.praise.great"
        default: "mastermind.praise.phew"
        }
    }

    /// Where the results card opens (with a script), it says the ending; the live region says only what the card does
    /// not (a blind review heard a win twice, 2 s apart): the last row played, a win's too (a keyboard review heard
    /// every row's pegs but the winning one's, then 2 s of nothing), and a give-up's code as it turns over.
    static func beforeResults(_ game: Game, _ t: LanguageStrings) -> String {
        if game.forfeited { return t.string("mastermind.ear.code", [.string(spoken(game.secret.description, t))]) }
        // The last row without the guesses left, which an ended game has none of to play (reviews heard "Guesses
        // left: 0" after a win, then "Guesses left: 4", as noise), and the ending in two words, at once: the card's
        // title came 1.3 s later, after a silence (a blind review; Wordle says it in the same line).
        guard game.outcome != .playing, let last = game.turns.last else { return "" }
        return t.sentences(
            rowSaid(last, game, t, final: true),
            t.string(game.outcome == .won ? "mastermind.ear.ended.won" : "mastermind.ear.ended.lost"))
    }

    /// What a screen reader is told of the board as it loads: the rules of a new game, the last row (with the codes
    /// still possible, `left`, when the aid is on: a blind review had to leave the game to read them), or the end.
    static func announcement(_ game: Game, hard: Bool, left: Int? = nil, _ t: LanguageStrings) -> String {
        let rules = game.rules
        // An ending says what the card says first: the code, or the guesses a win took (a blind review heard only
        // "You cracked the code!" and had to read on to learn the code of a loss).
        let stop = t.language == "ja" ? "。" : "."
        switch game.outcome {
        // A give-up is said as one (a blind review heard "Out of tries." with nine tries left).
        // A last row that ran out of guesses is said too, before the code (a blind review heard the loss and never
        // how close that row had come).
        case .lost:
            return t.sentences(
                game.forfeited ? "" : game.turns.last.map { rowSaid($0, game, t, final: true) } ?? "",
                t.string(game.forfeited ? "mastermind.gaveup.title" : "mastermind.lost.title"),
                t.string("mastermind.ear.code", [.string(spoken(game.secret.description, t))]))
        case .won:
            return t.sentences(
                t.string("mastermind.won.title"),
                t.string("mastermind.used", [.int(game.turns.count), .int(rules.attempts)]) + stop)
        case .playing: break
        }
        guard let last = game.turns.last else {
            // A board with no row yet (a new game) says its rules: after New game a review heard nothing at all; and
            // hard mode's (a blind review learnt of it from a refused guess).
            let said = t.string(
                "mastermind.rules.short",
                [.int(rules.length), .int(rules.digitMin), .int(rules.digitMax), .int(rules.attempts)])
            guard hard else { return said }
            let japanese = t.language == "ja"
            return said + (japanese ? "" : " ") + t.string("mastermind.hard.label") + (japanese ? "。" : ".")
        }
        return t.sentences(rowSaid(last, game, t), left.map { t.string("mastermind.ear.left", [.int($0)]) } ?? "")
    }

    /// A scored row as it is said: digit by digit, as the row being typed is ("0123" would be read as a number).
    private static func rowSaid(_ turn: Turn, _ game: Game, _ t: LanguageStrings, final: Bool = false) -> String {
        let digits = turn.guess.description.map(String.init).joined(separator: t.string("mastermind.ear.separator"))
        return t.string(
            final ? "mastermind.row.final" : "mastermind.row.announce",
            [.string(digits), .int(turn.feedback.red), .int(turn.feedback.blue), .int(game.attemptsLeft)])
    }

    /// A code inside a sentence, its digits apart ("4 4 5 5", no-break spaces): read out as four digits, not as
    /// four thousand four hundred and fifty-five (a blind review of the analysis).
    static func spaced(_ code: String) -> String { code.map(String.init).joined(separator: "\u{00A0}") }

    /// A code digit by digit, as the row being typed is said: "4455" was read as four thousand four hundred and
    /// fifty-five (a blind review).
    static func spoken(_ code: String, _ t: LanguageStrings) -> String {
        code.map(String.init).joined(separator: t.string("mastermind.ear.separator"))
    }

    /// Whether every row played left fewer codes than the one before: only then may a loss praise the rows.
    static func everyRowNarrowed(_ remaining: [Int], _ rules: Rules) -> Bool {
        guard !remaining.isEmpty else { return false }
        return zip([rules.codeCount] + remaining, remaining).allSatisfy { $1 < $0 }
    }

    /// The rows played, each with its pegs and what a screen reader says of them.
    private func boardPath(_ record: MastermindStore.Record) -> String {
        record.daily.map { $0 == store.today ? "/mastermind/daily" : "/mastermind/daily/\($0)" } ?? "/mastermind"
    }

    /// `remaining` is always in the row's data; shown (and labelled) only when the player switched it on.
    func rowsContext(_ game: Game, remaining: [Int], showLeft: Bool, t: LanguageStrings) -> [TemplateValue] {
        let pegLabel: [Peg: String] = [
            .red: t.string("mastermind.peg.red"), .blue: t.string("mastermind.peg.blue"),
            .gray: t.string("mastermind.peg.gray"),
        ]
        return game.turns.enumerated().map { index, turn in
            let summary = t.string("mastermind.row.summary", [.int(turn.feedback.red), .int(turn.feedback.blue)])
            // The winning row's count goes without saying (a review read "1 left" beside the solved code).
            let showLeft = showLeft && turn.guess != game.secret
            return .object([
                "number": .int(index + 1), "newest": .bool(index == game.turns.count - 1),
                "won": .bool(index == game.turns.count - 1 && game.outcome == .won),
                // Numbered: a list of bare codes was hard to go back over by ear (a blind review, seven rows on).
                "guess": .string(turn.guess.description),
                "spoken": .string(
                    t.string(
                        "mastermind.row.spoken", [.int(index + 1), .string(Self.spoken(turn.guess.description, t))])),
                "red": .int(turn.feedback.red),
                "digits": .list(turn.guess.digits.map { .string(String($0)) }),
                "blue": .int(turn.feedback.blue), "gray": .int(turn.feedback.gray), "summary": .string(summary),
                "remaining": index < remaining.count ? .int(remaining[index]) : .null,
                "remainingText": showLeft && index < remaining.count
                    ? .string(t.string("mastermind.row.remaining", [.int(remaining[index])])) : .null,
                "remainingShort": index < remaining.count
                    ? .string(t.string("mastermind.row.left", [.int(remaining[index])])) : .null,
                // Shown sorted, right places first (as a Mastermind player sets them): in their stored, shuffled
                // order two reviews in a row read them as places ("the first and last digits are right").
                "pegs": .list(
                    Peg.allCases.flatMap { kind in turn.pegs.filter { $0 == kind } }.map {
                        .object(["kind": .string($0.rawValue), "label": .string(pegLabel[$0]!)])
                    }),
            ])
        }
    }

    /// The keypad; as Wordle's keyboard, the digits the rows show out of the code and those they show in it: by every
    /// code still fitting them, or (rules too large to list) by a player's bookkeeping.
    private func keysContext(_ game: Game, solver: Solver?, t: LanguageStrings) -> TemplateValue {
        let known = solver.map { solvers.known(game, $0) } ?? game.digitsKnown
        return .list(
            (game.rules.digitMin...game.rules.digitMax).map { digit in
                let absent = known.absent.contains(UInt8(digit))
                let present = known.present.contains(UInt8(digit))
                return .object([
                    "digit": .int(digit), "absent": .bool(absent), "present": .bool(present),
                    "label": absent
                        ? .string(t.string("mastermind.key.absent", [.int(digit)]))
                        : present ? .string(t.string("mastermind.key.present", [.int(digit)])) : .null,
                    // The place is the cursor's, filled in by the page's script (a blind review: "ruled out here" named none).
                    "notedLabel": .string(t.string("mastermind.key.noted", [.int(digit), .string("{place}")])),
                ])
            })
    }

    /// A daily's name as players read it: days are stored from 0 (the site's first day), shown from #1.
    static func dailyTitle(_ day: Int, _ t: LanguageStrings) -> String {
        t.string("mastermind.daily.title", [.int(day + 1)])
    }

    /// What a player can paste anywhere: the game, N/10 (X/10 for a loss, `*` in hard mode), then each row's
    /// pegs red, then blue, then none: pegs are counts, and a grid like Wordle's would otherwise read as places.
    /// No digit of any guess or of the code.
    func shareText(_ record: MastermindStore.Record, t: LanguageStrings, link: String = "") -> String {
        let game = record.game
        var lines = [shareHeadline(record, t: t)]
        // No match is a dash, not a white circle: white is "right digit, wrong place" to a Mastermind player (a review).
        let symbol: [Peg: String] = [.red: "🔴", .blue: "🟦", .gray: "➖"]
        lines += game.turns.map { turn in
            [(Peg.red, turn.feedback.red), (.blue, turn.feedback.blue), (.gray, turn.feedback.gray)]
                .map { String(repeating: symbol[$0.0]!, count: $0.1) }.joined()
        }
        if !link.isEmpty { lines.append(link) }
        return lines.joined(separator: "\n")
    }

    /// The share text's first line: the game, its score and its marks. Hard mode keeps its star; a hint is said in
    /// words (a win with help is not the same score). Each language's headline is one sentence of its own, its marks
    /// bringing their own spacing (none after Japanese text).
    func shareHeadline(_ record: MastermindStore.Record, t: LanguageStrings) -> String {
        let game = record.game
        let score = game.outcome == .won ? String(game.turns.count) : "X"
        let hard = record.hard ? t.string("mastermind.share.hard") : ""
        let marks = hard + (record.usedHint ? t.string("mastermind.share.hint") : "")
        let scoreText = "\(score)/\(game.rules.attempts)\(record.hard ? "*" : "")"
        return record.daily.map {
            t.string("mastermind.share.daily", [.int($0 + 1), .string(scoreText), .string(marks)])
        } ?? t.string("mastermind.share.game", [.string(scoreText), .string(marks)])
    }

    /// Codes at most this many get exact counts per row; at most `analysisLimit`, the solver's analysis.
    static let countLimit = 100_000
    static let analysisLimit = 20_000

    /// The game's own address, for the share text: the Host the player used (behind a proxy, its forwarded scheme).
    /// A free game's is its challenge, so a friend plays the same code (a review: the share led to a new game, as
    /// Wordle's never does); the daily's, the daily.
    private func link(_ request: Request, _ record: MastermindStore.Record) -> String {
        guard let origin = Self.origin(request) else { return "" }
        return origin + (record.daily == nil ? challengePath(record.challenge ?? record.id) : "/mastermind/daily")
    }

    /// "HH:MM:SS" for the countdown to the next daily, on the board and the home page (their scripts keep it live).
    static func clockText(_ seconds: Int) -> String {
        let s = max(0, seconds)
        // Digits straight into bytes: the home page shows this on every view, and interpolation cost several times
        // as much. Hours beyond 99 keep all their digits.
        func put(_ n: Int, _ bytes: inout [UInt8]) {
            if n >= 10 { put(n / 10, &bytes) }
            bytes.append(UInt8(ascii: "0") + UInt8(n % 10))
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(12)
        func part(_ n: Int, _ bytes: inout [UInt8]) {
            if !bytes.isEmpty { bytes.append(UInt8(ascii: ":")) }
            if n < 10 { bytes.append(UInt8(ascii: "0")) }
            put(n, &bytes)
        }
        part(s / 3600, &bytes)
        part(s / 60 % 60, &bytes)
        part(s % 60, &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// After the game, one step per guess: how many codes it left, what the solver would have played from the same
    /// position and how many that would have left (against this secret), and a one-line verdict.
    func analysis(
        _ record: MastermindStore.Record, solver: Solver, remaining: [Int], t: LanguageStrings
    ) -> TemplateValue {
        let game = record.game
        let moves = solvers.best(game, solver, hard: record.hard)
        var matched = 0
        let steps: [TemplateValue] = game.turns.enumerated().map { index, turn in
            let left = index < remaining.count ? remaining[index] : 0
            // The winning row is not weighed against the solver (a review read "the solver would have played 3532,
            // leaving 2" under the guess that had already won).
            if turn.guess == game.secret {
                matched += 1
                return .object([
                    "number": .int(index + 1), "guess": .string(turn.guess.description), "left": .int(left),
                    "verdict": .string("cracked"), "best": .null, "bestLeft": .null, "solverText": .null,
                    "verdictText": .null,
                    "text": .string(
                        t.string(
                            "mastermind.analysis.cracked",
                            [.int(index + 1), .string(Self.spaced(turn.guess.description))])),
                ])
            }
            guard let move = moves[index] else { return .null }
            if move.playedExpected <= move.expected * 1.001 { matched += 1 }
            return step(index + 1, turn.guess, left: left, move, secret: game.secret, t: t)
        }
        return .object([
            "steps": .list(steps),
            "summary": .string(t.string("mastermind.analysis.summary", [.int(matched), .int(game.turns.count)])),
        ])
    }

    /// A row that did not win, weighed against the solver's move from the same position.
    private func step(
        _ number: Int, _ guess: Code, left: Int, _ move: MastermindSolvers.Step, secret: Code, t: LanguageStrings
    ) -> TemplateValue {
        let best = move.guess
        let (played, solverAverage) = (move.playedExpected, move.expected)
        let verdict = move.verdict
        let luck = move.luck(left: left, strong: best == guess || verdict == "better" || verdict == "best")
        let verdictText = t.string(best == guess ? "mastermind.analysis.same" : "mastermind.analysis.\(verdict)")
        let bothWays =
            luck == nil
            ? Self.bothWays(
                verdict, same: best == guess, left: left, solverLeft: move.left, averages: (played, solverAverage), t: t
            )
            : nil
        return .object([
            "number": .int(number), "guess": .string(guess.description), "left": .int(left),
            "best": .string(best.description), "bestLeft": .int(move.left), "verdict": .string(verdict),
            "luck": luck.map { .string($0) } ?? .null,
            "text": .string(
                t.string(
                    "mastermind.analysis.step", [.int(number), .string(Self.spaced(guess.description)), .int(left)])),
            // The solver's guess is named only when it differs (a review read "the solver would have played
            // 0 1 2 3" right after playing 0 1 2 3).
            // A solver's pick that was the code says so, not that it "would have left 1" (a review).
            "solverText": best == guess
                ? .null
                : .string(
                    best == secret
                        ? t.string("mastermind.analysis.solver.won", [.string(Self.spaced(best.description))])
                        : t.string(
                            "mastermind.analysis.solver", [.string(Self.spaced(best.description)), .int(move.left)])),
            "verdictText": .string(
                // The luck first: after the numbers of this game, it says why the average may read otherwise (a
                // review read "the solver's pick leaves fewer" under a row that had left fewer, the luck last); luck
                // that is "too" follows the verdict it adds to (a language review read it before).
                luck.map { luck in
                    let words = t.string("mastermind.analysis.\(luck)", [.int(Int(played.rounded()))])
                    return luck.hasSuffix("Too") ? t.sentences(verdictText, words) : t.sentences(words, verdictText)
                }
                    // Both ways with its averages says the solver's pick is better: "worse" would say it again (a
                    // language review, in every language).
                    ?? bothWays.map { verdict == "worse" ? $0 : t.sentences($0, verdictText) } ?? verdictText),
        ])
    }

    /// Where this game's counts and the averages point different ways, a sentence that says both. A row that left
    /// fewer than the solver's pick would have, yet does less well on average (a review read "625 left; the solver's
    /// would have left 976. Nearly as good as the solver's pick." as a contradiction); and the other way round, a row
    /// as good as the solver's on average, or nearly, that left more this time (two reviews read "185 … 47. As good as
    /// the solver's pick." and "34 … 5. Nearly as good"). Not "it leaves 10 to the solver's 10" (an English reader).
    private static func bothWays(
        _ verdict: String, same: Bool, left: Int, solverLeft: Int, averages: (mine: Double, solver: Double),
        t: LanguageStrings
    ) -> String? {
        let (mine, solvers) = (Int(averages.mine.rounded()), Int(averages.solver.rounded()))
        if (verdict == "close" || verdict == "worse") && left < solverLeft {
            return mine == solvers ? nil : t.string("mastermind.analysis.here", [.int(mine), .int(solvers)])
        }
        guard !same, verdict != "worse", left > solverLeft else { return nil }
        return mine == solvers
            ? t.string("mastermind.analysis.thisTimeSame")
            : t.string("mastermind.analysis.thisTime", [.int(mine), .int(solvers)])
    }

    /// The results card's distribution: at most five bars, always the same ones, as Wordle's are (a review saw them
    /// move with the player's most common count): 4 to 8 guesses, where most wins fall with ten tries, the first and
    /// last bars holding everything below and above ("≤4", "≥8"); this game's bar, wherever it falls, marked. Where
    /// `lost` counts games, a last bar holds those not cracked, marked when this one was (a review: after a loss the
    /// card charted wins only, as if it had not happened). No wins, no chart: only a loss's would be drawn.
    func compactDistribution(
        _ counts: [Int], highlight: Int?, lost: Int = 0, lostNow: Bool = false, t: LanguageStrings
    ) -> TemplateValue {
        guard counts.contains(where: { $0 > 0 }) else { return .list([]) }
        let n = counts.count
        let first = n <= 5 ? 1 : min(4, n - 4)
        let last = min(n, first + 4)
        let buckets: [(label: String, range: ClosedRange<Int>)] = (first...last).map { guesses in
            if guesses == first && first > 1 { return ("≤\(guesses)", 1...guesses) }
            if guesses == last && last < n { return ("≥\(guesses)", guesses...n) }
            return ("\(guesses)", guesses...guesses)
        }
        let sums = buckets.map { bucket in bucket.range.reduce(0) { $0 + counts[$1 - 1] } }
        let most = max(1, lost, sums.max() ?? 1)
        return .list(
            zip(buckets, sums).map { bucket, count in
                // The noun agrees with the bucket's bound: "≤2 guesses", "1 guess".
                let bound = bucket.range.lowerBound == 1 ? bucket.range.upperBound : bucket.range.lowerBound
                // An open bucket in words ("4 guesses or fewer"): a screen reader said "less-than-or-equal 4".
                let text =
                    bucket.range.count > 1
                    ? t.string(
                        bucket.range.lowerBound == 1 ? "mastermind.dist.atMost" : "mastermind.dist.atLeast",
                        [.int(bound), .int(count)])
                    : t.string("mastermind.dist.item", [.string(bucket.label), .int(count), .int(bound)])
                return Self.bar(
                    bucket.label, count: count, most: most, text: text,
                    current: highlight.map { bucket.range.contains($0) } ?? false)
            } + Self.lostBar(lost, most: most, current: lostNow, t: t))
    }

    /// One bar of a guess chart (`mastermind-bar`): its label, count, and words for a screen reader.
    static func bar(
        _ label: String, count: Int, most: Int, text: String, current: Bool = false, lost: Bool = false
    ) -> TemplateValue {
        .object([
            "label": .string(label), "count": .int(count), "most": .int(most), "current": .bool(current),
            "lost": .bool(lost), "text": .string(text),
        ])
    }

    /// A chart's last bar, the games not cracked; none while there are none.
    static func lostBar(_ lost: Int, most: Int, current: Bool, t: LanguageStrings) -> [TemplateValue] {
        lost > 0
            ? [
                bar(
                    "✕", count: lost, most: most, text: t.string("mastermind.dist.lost", [.int(lost)]),
                    current: current, lost: true)
            ]
            : []
    }

    /// The last 30 dailies before `?before=` (default today), each with how this player did.
    func archive(_ request: Request, _ context: PlayerContext) throws -> Response {
        let visitor = context.visitor
        let t = pages.localizer.strings(for: visitor.language)
        let today = store.today
        let before = min(today, max(0, request.query["before"].flatMap { Int($0) } ?? today))
        let days = Array(stride(from: before - 1, through: max(0, before - 30), by: -1))
        var outcomes: [Int: String] = [:]
        if let oldest = days.last, let newest = days.first {
            outcomes = try store.dailyOutcomes(player: visitor.playerID, from: oldest, through: newest)
        }
        let list: [TemplateValue] = days.map { day in
            let outcome = outcomes[day] ?? "none"
            return .object([
                "number": .int(day), "href": .string("/mastermind/daily/\(day)"), "outcome": .string(outcome),
                "label": .string(Self.dailyTitle(day, t)),
                "status": .string(t.string("mastermind.archive.\(outcome)")),
            ])
        }
        let older = (days.last ?? 0) > 0 ? "/mastermind/archive?before=\(days.last!)" : nil
        return pages.render(
            "mastermind-archive", title: t.string("mastermind.archive.title"), for: visitor,
            path: "/mastermind/archive", section: "mastermind",
            data: [
                "days": .list(list), "hasDays": .bool(!list.isEmpty), "todayTitle": .string(Self.dailyTitle(today, t)),
                "older": older.map { .string($0) } ?? .null,
            ])
    }

    func statsContext(_ stats: MastermindStore.Stats, t: LanguageStrings) -> TemplateValue {
        var fields = chart(stats.distribution, lost: stats.lost, title: "distribution", t: t)
        for (name, value) in [
            ("played", stats.played), ("wins", stats.wins), ("winPercent", stats.winPercent),
            ("currentStreak", stats.currentStreak), ("longestStreak", stats.longestStreak),
            ("hintWins", stats.hintWins), ("hardWins", stats.hardWins),
        ] {
            fields[name] = .int(value)
        }
        fields["hasGames"] = .bool(stats.played > 0)
        return .object(fields)
    }

    /// A guess distribution's bars under the heading whose id is `title`: the results card's (a review saw the same
    /// win in a "≤4" bar there and a "2" bar here, and had to work out which was which).
    func chart(_ counts: [Int], lost: Int, title: String, t: LanguageStrings) -> TemplateFields {
        // Only wins without help are charted: a chart of zeros says nothing.
        [
            "bars": compactDistribution(counts, highlight: nil, lost: lost, t: t), "chartTitle": .string(title),
            "hasBars": .bool(counts.contains { $0 > 0 }),
        ]
    }
}
