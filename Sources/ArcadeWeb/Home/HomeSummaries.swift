import ArcadeStore
import Crypto
import HTTP
import Templates

/// What the home page shows of a player's games (today's daily, the streak, the people due), kept in memory so the
/// page is served on the event loop without a query. Any action of the player forgets it (`ForgetHomeSummary`, on
/// every action route); a change made through another instance, or a card falling due, shows within `lifetime`.
final class HomeSummaries: Sendable {
    /// The page's data for one player in one language, as of `computed`.
    /// A class: every view of the home page reads one, and copying a struct retained each of its strings.
    final class Summary: Sendable {
        let day: Int
        let language: String
        /// The strings' hotfix version it was made with.
        let strings: Int
        let computed: Double
        /// Which cheats the player had found, in the book's order.
        let found: [Bool]
        /// How today's daily went (`won`, `lost` or `playing`).
        let outcome: String
        /// The page's title in the summary's language and strings (kept here so a view need not look it up).
        let title: String
        /// The panels, rendered: today's daily (without its countdown), the review line and the cheat cabinet. Each
        /// is shared by every player who sees the same (see `panel`), so a summary costs a player a few words.
        let daily, review, cabinet: String

        init(
            day: Int, language: String, strings: Int, computed: Double, found: [Bool], outcome: String, title: String,
            daily: String, review: String, cabinet: String
        ) {
            self.day = day
            self.language = language
            self.strings = strings
            self.computed = computed
            self.found = found
            self.outcome = outcome
            self.title = title
            self.daily = daily
            self.review = review
            self.cabinet = cabinet
        }
    }

    static let lifetime = 10.0
    private let cache = BoundedCache<PlayerKey, Summary>(limit: 20_000)
    /// Rendered panels by what they show (language, strings, and the player's figures): few differ.
    private let panels = BoundedCache<String, String>(limit: 2_000)
    private let clock: @Sendable () -> Double

    init(clock: @escaping @Sendable () -> Double) { self.clock = clock }

    /// The player's summary, made by `make` (given the time) when none is fresh for this day, language, strings
    /// and cheats found. A newcomer's is not kept: it is everyone's first one, made from shared panels.
    func summary(
        player: String, isNew: Bool, day: Int, language: String, strings: Int, found: [Bool],
        _ make: (Double) throws -> Summary
    ) rethrows -> Summary {
        let now = clock()
        if isNew { return try make(now) }
        if let known = cache[PlayerKey(player)], known.day == day, known.language == language, known.strings == strings,
            known.found == found, now - known.computed < Self.lifetime, now >= known.computed
        {
            return known
        }
        let made = try make(now)
        cache[PlayerKey(player)] = made
        return made
    }

    func forget(_ player: String) { cache[PlayerKey(player)] = nil }

    /// The panel `key` names, rendered by `render` the first time.
    func panel(_ key: String, _ render: () throws -> String) rethrows -> String {
        if let known = panels[key] { return known }
        let made = try render()
        panels[key] = made
        return made
    }
}

/// Forgets the acting player's home summary before and after the action, so the home page they go back to shows
/// what it changed (a page rendered during the action can't keep what the action had not written yet).
struct ForgetHomeSummary: Middleware {
    let summaries: HomeSummaries

    func handle(_ request: Request, context: PlayerContext, next: Next<PlayerContext>) throws -> Response {
        summaries.forget(context.visitor.playerID)
        defer { summaries.forget(context.visitor.playerID) }
        return try next(request, context)
    }
}
