import ArcadeStore
import Constants
import Crypto
import HTTP
import Localization
import Logger
import NameGame
import Storage
import Synchronization
import Templates
import Threads

/// The composition root: every component the site is made of, built once at start-up from the options (the database
/// and its secrets, languages and constants, templates and pages, identities, the stores, the background work), and
/// what keeps their caches current. `Site` routes them and runs them.
struct Services: Sendable {
    let options: ServeOptions
    let pool: DatabasePool
    let localizer: Localizer
    let pages: Pages
    let identity: Identity
    /// Scheduled changes, backups and pruning are done once, by whichever instance leads.
    let leadership: Leadership
    let insights: InsightsStore
    /// Its thread starts with it: made last.
    let housekeeping: Housekeeping
    let constants: Constants
    let interceptions: InterceptionsStore
    let admins: AdminStore
    let once: OnceStore
    let people: PeopleStore
    let mastermind: MastermindStore
    let nameGame: NameGameStore
    let cheats: CheatStore
    let editor: AdminHotfixes
    let schedule: ChangeSchedule
    let signIns: SignInLimits
    let limits: Limits
    let passkeys: PasskeyStore
    let transferCodes: TransferCodes
    let webAuthn: WebAuthnSite
    /// What the home page shows of each player's games, kept between visits.
    let home: HomeSummaries
    let api: InterceptionsController
    let overlay: StringOverlay
    let hotfixes: StringHotfixes
    /// The site's version: a web client's app version.
    let version: @Sendable () -> String
    /// Where the live streams' events are published (the ticker) and read (the routes).
    let channels = EventChannels()

    init(options: ServeOptions) throws {
        self.options = options
        let (pool, key, dailyKey, firstDay) = try Self.openDatabase(options)
        self.pool = pool
        let database = options.database.description
        let overlay = StringOverlay()
        self.overlay = overlay
        let localizer = try StartupError.reading(options.localizations) {
            try Localizer.load(directory: options.localizations, overlay: overlay, log: { Log.info($0) })
        }
        self.localizer = localizer
        let hotfixes = StringHotfixes(pool: pool, clock: options.clock, overlay: overlay)
        self.hotfixes = hotfixes
        let admins = AdminStore(
            pool: pool, clock: { [clock = options.clock] in Int(clock()) },
            hashing: HashGate(slots: options.hashThreads, queue: options.hashQueue),
            iterations: options.passwordIterations ?? AdminStore.defaultIterations)
        self.admins = admins
        interceptions = InterceptionsStore(pool: pool, clock: options.clock)
        try StartupError.reading(database, as: StartupError.database) { [hotfixes] in try hotfixes.load() }
        let constants = try Self.constants(options)
        self.constants = constants
        let templates = try Self.templates(options)
        version = { constants.string("site.version", default: Build.version) }
        let photos = PhotoLibrary(
            folder: options.photosDirectory,
            shared: options.database.dialect == .postgresql ? pool : nil)
        people = PeopleStore(
            pool: pool, clock: options.clock, photos: photos,
            demoWords: DemoWords.load(options.configFile("people-i18n.json")))
        try Self.seed(people, options, constants: constants)
        let book = try CheatBook.load(options.configFile(constants.string("cheats.file", default: "cheats.json")))
        once = OnceStore(pool: pool, clock: options.clock, constants: constants)
        editor = AdminHotfixes(
            hotfixes: hotfixes, localizer: localizer, admins: admins, pool: pool,
            constants: constants)
        try StartupError.reading(database, as: StartupError.database) { [editor] in try editor.loadConstants() }
        mastermind = MastermindStore(
            pool: pool, constants: constants, dailyKey: dailyKey, firstDay: firstDay,
            clock: options.clock)
        signIns = SignInLimits(clock: options.clock)
        nameGame = NameGameStore(pool: pool, clock: options.clock)
        cheats = CheatStore(pool: pool, book: book)
        schedule = ChangeSchedule(pool: pool, interceptions: interceptions, hotfixes: editor, clock: options.clock)
        api = InterceptionsController(
            store: interceptions, constants: constants, overlay: overlay,
            base: localizer.base, languages: localizer.languages)
        let pages = Pages(
            templates: templates, localizer: localizer, version: version,
            versions: { overlay.version &* 1_000_003 &+ constants.version },
            cheats: (book.starts, book.longestPause))
        self.pages = pages
        identity = Self.identity(options, pool: pool, key: key, localizer: localizer, admins: admins)
        (limits, home) = (Limits(options), HomeSummaries(clock: options.clock))
        (passkeys, transferCodes) = (PasskeyStore(pool: pool), TransferCodes(pool: pool))
        webAuthn = Self.webAuthn(options, identity)
        leadership = Leadership(options.database, health: pool.health)
        insights = InsightsStore(pool: pool, clock: options.clock)
        housekeeping = Housekeeping(options.housekeeping, pool: pool, leadership: leadership, insights: insights)
    }

    /// Passkeys' checks, their challenges signed with a key of their own.
    private static func webAuthn(_ options: ServeOptions, _ identity: Identity) -> WebAuthnSite {
        WebAuthnSite(
            challenges: PasskeyChallenges(key: HMACKey(identity.csrfKey.authenticate("passkey challenges"))),
            publicHost: options.publicHost, clock: options.clock)
    }

    /// The site's constants: the files in `--config`, checked against their schema.
    private static func constants(_ options: ServeOptions) throws -> Constants {
        try StartupError.reading(options.config) {
            var schema = SiteConstants.schema(randomHosts: options.randomHosts)
            schema.plainHTTP = options.randomOrgPlainHTTP
            return try Constants.load(directory: options.config, environments: options.environments, schema: schema)
        }
    }

    /// The database, brought up to date, and what start-up keeps in it: the cookie and daily-code keys, made at the
    /// first start, and the day it was (a database error names the file).
    private static func openDatabase(
        _ options: ServeOptions
    ) throws -> (DatabasePool, key: [UInt8], dailyKey: [UInt8], firstDay: Int) {
        let pool = DatabasePool(
            location: options.database, commitDelay: options.commitDelay, maxQueued: options.maxQueuedWrites)
        return try StartupError.reading(options.database.description, as: StartupError.database) {
            // A connection of its own: the pool's readers refuse writes.
            let db = try Database(location: options.database)
            try Schema.migrate(db)
            return (
                pool, try Secrets.random("cookie-signing", in: db), try Secrets.random("mastermind-daily", in: db),
                try Secrets.firstDay(in: db, clock: options.clock)
            )
        }
    }

    /// Who a request is: signed cookies under the site's key, the languages it offers, and which admins are signed in.
    private static func identity(
        _ options: ServeOptions, pool: DatabasePool, key: [UInt8], localizer: Localizer, admins: AdminStore
    ) -> Identity {
        Identity(
            signer: Signer(key: key), csrfKey: HMACKey(Crypto.hmacSHA256(key: key, message: Array("csrf".utf8))),
            clock: options.clock,
            negotiation: LanguageNegotiation(available: localizer.languages, fallback: localizer.base),
            secureCookies: options.secureCookies,
            isAdmin: { [admins] request in
                request.cookies[AdminController.cookie].map { admins.isSignedIn($0) } ?? false
            })
    }

    /// A name a page interpolates that nothing gives, said once in `--dev`.
    @Sendable private static func logMissing(_ name: String) {
        Log.warning("a template's name is given by nothing: \(name)")
    }

    /// The templates, refused at start-up without the ones every page needs.
    private static func templates(_ options: ServeOptions) throws -> TemplateFolder {
        let audit =
            options.auditTemplates || options.dev ? TemplateAudit(report: options.dev ? Self.logMissing : nil) : nil
        let templates = try TemplateFolder(directory: options.templates, dev: options.dev, audit: audit)
        for required in ["layout", "home", "error", "language-menu", "site-header", "site-footer"]
        where try templates.library().template(named: required) == nil {
            throw StartupError.missing(file: "\(options.templates)/\(required).mustache")
        }
        return templates
    }

    /// The Name Game's people: read (and fetched, for a URL) only until the first start has copied them into the
    /// database.
    private static func seed(_ people: PeopleStore, _ options: ServeOptions, constants: Constants) throws {
        let profiles = options.configFile(constants.string("namegame.profiles", default: "people.json"))
        try StartupError.reading(options.database.description, as: StartupError.database) {
            if try !people.isSeeded() {
                try people.seed(options.demoPeople ? PeopleSource.load(profiles) : Directory(people: []))
            } else if !profiles.hasPrefix("http"), let configured = try? PeopleSource.load(profiles) {
                // Seeded by an earlier version: the faces' words follow the drawings shipped now.
                try people.refreshAppearances(from: configured)
            }
            try people.reload()
        }
    }

    /// Another instance's write reaches this one's caches: strings, constants, rules and maintenance (which the
    /// live streams then push), people, and a player's once-store records.
    func reload(kind: String, key: String?) {
        let all = kind == ChangeFeed.everything
        SiteMetrics.cacheReloads.add([kind])
        do {
            if all || kind == "hotfixes" { try hotfixes.load() }
            if all || kind == "constants" { try editor.loadConstants() }
            if all || kind == "interceptions" { interceptions.changed() }
            if all || kind == "people" { try people.reload() }
            if all || kind == "once" { once.cache.forget(key.map(PlayerKey.init)) }
        } catch {
            Log.error("reading changes made elsewhere (\(kind)): \(error)", every: "reading changes")
        }
    }

    /// Starts what runs beside the requests, once the routes are built and the first admin made, and returns all of
    /// it in the order started (`Site.close` stops it in reverse): the leadership and housekeeping (made with the
    /// other components), other instances' changes to what this one caches (PostgreSQL only), and last the ticker,
    /// whose thread starts with everything it touches in place.
    func startBackground() -> [any BackgroundWork] {
        let changes = ChangeFeed.start(options.database, health: pool.health, reload)
        // Four times a second: scheduled changes that fell due, and news for the live streams.
        let tick = tick()
        let ticker = PeriodicThread(idle: 0.25) {
            tick()
            return false
        }
        housekeeping.start()
        return [leadership, housekeeping] + (changes.map { [$0] } ?? []) + [ticker]
    }

    /// What the site's ticker does four times a second: the leader applies scheduled changes; the live streams are told
    /// of a changed hotfix (strings, constants), rule or maintenance, watched as counters.
    private func tick() -> @Sendable () -> Void {
        let watched: @Sendable () -> [Int] = { [overlay, constants, interceptions] in
            [overlay.version, constants.version, interceptions.switches.generation.load(ordering: .acquiring)]
        }
        let seen = Mutex(watched())
        // Today's board: the games of today's code that have ended, looked at every two seconds (one indexed count).
        let board = Mutex((at: 0.0, ended: -1))
        return { [schedule, api, mastermind, leadership, channels, clock = options.clock] in
            if clock() >= board.withLock({ $0.at }) + 2 {
                let ended = (try? mastermind.dailyEnded()) ?? -1
                let changed = board.withLock { last in
                    defer { last = (clock(), ended) }
                    return last.ended >= 0 && ended >= 0 && ended != last.ended
                }
                if changed {
                    channels.publish(MastermindController.boardChannel, event: "board", data: String(ended))
                }
            }
            if leadership.held() {
                do { try schedule.applyDue() } catch {
                    Log.error("scheduled changes: \(error)", every: "scheduled changes")
                }
            }
            let now = watched()
            guard seen.withLock({ $0 }) != now else { return }
            do {
                try api.publishETags(to: channels)
                seen.withLock { $0 = now }
            } catch {
                Log.error("live push: \(error)", every: "live push")
            }
        }
    }
}

/// The token buckets the routes spend: new players by client, each player's budget of rows, passkey and transfer-code
/// attempts.
struct Limits: Sendable {
    let newPlayers, budget, passkeyAttempts, adminPasskeyAttempts, transferAddresses, transferPerCode: TokenBuckets

    init(_ options: ServeOptions) {
        let clock = options.clock
        newPlayers = TokenBuckets(
            capacity: options.newPlayersPerMinute, refill: 60 / Double(max(1, options.newPlayersPerMinute)),
            clock: clock)
        budget = TokenBuckets(
            capacity: PlayerBudget<PlayerContext>.burst, refill: PlayerBudget<PlayerContext>.refill, clock: clock)
        passkeyAttempts = TokenBuckets(capacity: 30, refill: 3, clock: clock)
        adminPasskeyAttempts = TokenBuckets(capacity: 30, refill: 3, clock: clock)
        transferAddresses = TokenBuckets(capacity: 10, refill: 60, clock: clock)
        transferPerCode = TokenBuckets(capacity: 5, refill: 120, clock: clock)
    }
}
