import HTTP

/// The groups a player feature adds its routes to, each with the site's middleware (see `Site.router`):
/// `pages` answer GETs placed as reads (the event loop on SQLite, the pool on PostgreSQL); `actions` are state-changing
/// POSTs that pass `CSRFCheck` and run on the
/// pool, since each waits for its write to be committed before answering.
struct PlayerRoutes {
    let pages: RouterGroup<PlayerContext>
    let actions: RouterGroup<PlayerContext>
    /// Actions that make rows (games, rounds, sessions): `actions` within the player's budget.
    let creating: RouterGroup<PlayerContext>
    private let csrf: CSRFCheck<PlayerContext>
    /// After the CSRF check: an action without a player cookie makes a player, a few per address.
    private let newPlayers: NewPlayerLimit<PlayerContext>

    private let budget: PlayerBudget<PlayerContext>
    /// What an action may change that pages keep in memory.
    private let summaries: ForgetHomeSummary

    init(
        _ players: RouterGroup<PlayerContext>, identity: Identity, newPlayers: TokenBuckets,
        hasRow: @escaping @Sendable (String) throws -> Bool, budget: TokenBuckets, home: HomeSummaries
    ) {
        self.init(
            players, csrf: CSRFCheck(identity: identity),
            newPlayers: NewPlayerLimit(buckets: newPlayers, hasRow: hasRow),
            budget: PlayerBudget(buckets: budget), summaries: ForgetHomeSummary(summaries: home))
    }

    private init(
        _ players: RouterGroup<PlayerContext>, csrf: CSRFCheck<PlayerContext>,
        newPlayers: NewPlayerLimit<PlayerContext>, budget: PlayerBudget<PlayerContext>,
        summaries: ForgetHomeSummary
    ) {
        self.csrf = csrf
        self.newPlayers = newPlayers
        self.budget = budget
        self.summaries = summaries
        pages = players
        actions = players.adding(csrf).adding(newPlayers).adding(summaries).running(.pool)
        creating = players.adding(csrf).adding(newPlayers).adding(budget).adding(summaries).running(.pool)
    }

    /// Both groups with `middleware` added, before the actions' CSRF check (a game closed by an update rule says so
    /// before it looks at the form).
    func adding(_ middleware: some Middleware<PlayerContext>) -> PlayerRoutes {
        PlayerRoutes(
            pages.adding(middleware), csrf: csrf, newPlayers: newPlayers, budget: budget, summaries: summaries)
    }
}

/// A deferred action's answer, from any thread: exactly one of `send`, `fail` or `sendBlocking`. A failure is the
/// site's error page (the route's middleware have run already; their headers are carried over).
struct Later: Sendable {
    let reply: Reply
    let request: Request
    /// The visitor the route's middleware identified (and whose cookies they set).
    let visitor: Visitor
    let errors: ErrorPages

    func send(_ response: Response) { reply.send(response) }
    func fail(_ error: any Error) { reply.send(errors.answer(for: error, request, visitor: visitor)) }
    /// Finishes on a pool thread, for work that may block (an outbound call, a wait for a commit).
    func sendBlocking(_ body: @escaping @Sendable () throws -> Response) {
        reply.offload { [self] in
            do { send(try body()) } catch { fail(error) }
        }
    }
}

/// The cookies of cosmetic choices: plain, since pages then need no database lookup.
enum LookCookies {
    /// The theme, toggled to CRT by each completion of the `crt` cheat.
    static let theme = "arcade_theme"
    /// The theme chosen before the retro cheat switched to CRT, given back when it switches off.
    static let themeBefore = "arcade_theme_before"
    /// Set when the retro cheat was found: the chooser offers retro from then on.
    static let retro = "arcade_retro"
    /// "1" when the player asked Mastermind to show the codes still possible after each row (an opt-in aid).
    static let codesLeft = "arcade_mm_left"
    /// "off" when the player turned single-key shortcuts and cheat keys off (WCAG 2.1.4): a page's keys then act only
    /// while its play area has focus, and cheat keys not at all.
    static let keys = "arcade_keys"
    /// "slow" when the player slowed Hints mode down (WCAG 2.2.1: a face goes `NameGameController.slowerHints` times
    /// less often).
    static let hints = "arcade_hints"
    /// "off" when the player turned the games' sounds off (on by default, as Duolingo's are).
    static let sound = "arcade_sound"
}
