import ArcadeStore
import Crypto
import HTTP
import Localization
import Mastermind
import Templates

/// "Challenge a friend": a finished game's link plays its code again for whoever opens it. The link names the game
/// by its id sealed with the site's key (not guessable, and nothing of the code in it); the friend sees the score to
/// beat, never the rows, until their own game is over; then both see each other's rows.
extension MastermindController {
    func addChallengeRoutes(to routes: PlayerRoutes) {
        // Off the loop: a challenge page reads games and their guesses.
        routes.pages.running(.pool).get("/mastermind/challenge/:token", use: challengePage)
        routes.creating.post("/mastermind/challenge/:token", use: takeChallenge)
    }

    /// The link of game `id`'s challenge.
    func challengePath(_ id: Int64) -> String {
        let bytes = (0..<8).map { UInt8(truncatingIfNeeded: id >> (56 - 8 * $0)) } + seal(id)
        return "/mastermind/challenge/" + Base64URL.encode(bytes)
    }

    /// The game a challenge link names, if the site sealed it.
    func challengeID(_ token: String) -> Int64? {
        guard token.utf8.count == 24, let bytes = Base64URL.decode(token), bytes.count == 18 else { return nil }
        let id = bytes[..<8].reduce(Int64(0)) { $0 << 8 | Int64($1) }
        return Crypto.constantTimeEqual(Array(bytes[8...]), seal(id)) ? id : nil
    }

    private func seal(_ id: Int64) -> [UInt8] {
        Array(store.dailyKey.authenticate("mastermind-challenge|\(id)").prefix(10))
    }

    /// The source game of the request's challenge, or 404 (a forged link, or a game gone).
    private func source(_ request: Request) throws -> (id: Int64, player: String, record: MastermindStore.Record) {
        guard let id = challengeID(try request.parameter("token")), let (player, record) = try store.challengeSource(id)
        else { throw PageError(.notFound, "mastermind.challenge.gone") }
        return (id, player, record)
    }

    func challengePage(_ request: Request, _ context: PlayerContext) throws -> Response {
        let visitor = context.visitor
        let t = pages.localizer.strings(for: visitor.language)
        let (id, owner, record) = try source(request)
        let mine = owner == visitor.playerID
        let taken = mine || visitor.isNew ? nil : try store.challengeTaken(player: visitor.playerID, source: id)
        // The rows (and so the code) only for players whose own game of this code is over.
        let done = mine || (taken.map { $0.game.outcome != .playing } ?? false)
        let friends = done ? try store.challengers(of: id).filter { $0.id != taken?.id } : []
        // Who won, said against the viewer's own game (a review saw two boards side by side and no result): a friend
        // reads it first against the sender, the sender under each friend's board.
        let own = mine ? record : taken
        func side(_ record: MastermindStore.Record, _ name: String, _ index: Int) -> TemplateValue {
            .object([
                "index": .int(index), "name": .string(name), "score": .string(score(record, t)),
                "verdict": own.flatMap { [$0.id, id].contains(record.id) ? nil : verdict($0, record, t) }.map {
                    .string($0)
                } ?? .null,
                "length": .int(record.game.rules.length),
                "rows": .list(rowsContext(record.game, remaining: [], showLeft: false, t: t)),
            ])
        }
        var games: [(MastermindStore.Record, String)] = []
        if done {
            games.append((record, t.string(mine ? "mastermind.challenge.you" : "mastermind.challenge.friend")))
            if let taken { games.append((taken, t.string("mastermind.challenge.you"))) }
            games += friends.enumerated().map { ($1, t.string("mastermind.challenge.other", [.int($0 + 1)])) }
        }
        let lead = done && !mine ? taken.map { verdict($0, record, t) } : nil
        let sides = games.enumerated().map { index, game in side(game.0, game.1, index) }
        let link = Self.origin(request).map { $0 + challengePath(id) } ?? challengePath(id)
        return pages.render(
            "mastermind-challenge", title: t.string("mastermind.challenge.title"), for: visitor,
            path: challengePath(id), section: "mastermind",
            data: [
                "mine": .bool(mine), "link": .string(link), "path": .string(challengePath(id)),
                "score": .string(score(record, t)), "hard": .bool(record.hard),
                // Who sent it, by the name they chose (a review read "A friend" from a friend with a name).
                "beat": .string(
                    try store.displayName(of: owner).map {
                        t.string("mastermind.challenge.beat.named", [.string($0), .string(score(record, t))])
                    } ?? t.string("mastermind.challenge.beat", [.string(score(record, t))])),
                "playing": .bool(taken?.game.outcome == .playing), "open": .bool(!mine && taken == nil),
                "done": .bool(done), "verdict": lead.map { .string($0) } ?? .null, "sides": .list(sides),
                "waiting": .bool(mine && friends.isEmpty),
                // The game's rules for a friend who has never played (a review: the landing said only what to beat).
                "rules": .string(
                    t.string(
                        "mastermind.intro",
                        [
                            .int(record.game.rules.length), .int(record.game.rules.digitMin),
                            .int(record.game.rules.digitMax), .int(record.game.rules.attempts),
                        ])),
            ])
    }

    func takeChallenge(_ request: Request, _ context: PlayerContext) throws -> Response {
        let visitor = context.visitor
        let (id, owner, record) = try source(request)
        // Taken already (or one's own): the page says where things stand.
        let taken = try store.challengeTaken(player: visitor.playerID, source: id)
        if owner == visitor.playerID || taken != nil {
            return .redirect(to: challengePath(id))
        }
        let game = record.game
        _ = try store.start(
            player: visitor.player,
            MastermindStore.Deal(rules: game.rules, secret: game.secret, hard: record.hard, challenge: id))
        return .redirect(to: "/mastermind")
    }

    /// "You win: 4/10 against 6/10.": `own` against `other`, fewer guesses winning among solved games.
    func verdict(_ own: MastermindStore.Record, _ other: MastermindStore.Record, _ t: LanguageStrings) -> String {
        func guesses(_ record: MastermindStore.Record) -> Int? {
            record.game.outcome == .won ? record.game.turns.count : nil
        }
        let scores: [FormatArgument] = [.string(score(own, t)), .string(score(other, t))]
        let key: String
        switch (guesses(own), guesses(other)) {
        case (nil, nil): key = "none"
        case (nil, _): key = "lose"
        case (_, nil): key = "win"
        // In as many guesses, the one without a hint wins (a review's hinted 6/10 was "a tie" with a clean one).
        case (let mine?, let theirs?) where mine == theirs && own.usedHint != other.usedHint:
            key = own.usedHint ? "lose" : "win"
        case (let mine?, let theirs?): key = mine == theirs ? "tie" : mine < theirs ? "win" : "lose"
        }
        return t.string("mastermind.challenge.verdict." + key, key == "tie" ? [scores[0]] : scores)
    }

    /// "3/10", "X/10" for a game not won, a star for hard mode: the share text's score; "with a hint" where one was
    /// used (a review: a hinted 6/10 stood beside a clean one unmarked).
    private func score(_ record: MastermindStore.Record, _ t: LanguageStrings) -> String {
        let game = record.game
        let score =
            "\(game.outcome == .won ? String(game.turns.count) : "X")/\(game.rules.attempts)\(record.hard ? "*" : "")"
        return record.usedHint ? t.string("mastermind.challenge.hinted", [.string(score)]) : score
    }

    /// The site's address as the player used it, for a link to copy (nil without a plain Host).
    static func origin(_ request: Request) -> String? {
        guard let host = request.headers["Host"], !host.isEmpty, host.allSatisfy({ !$0.isWhitespace && $0 != "/" })
        else { return nil }
        return (request.headers["X-Forwarded-Proto"] == "https" ? "https" : "http") + "://" + host
    }
}
