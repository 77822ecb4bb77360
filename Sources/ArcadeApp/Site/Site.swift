import Constants
import Crypto
import Files
import HTTP
import HTTPClient
import Interceptions
import JSON
import HTTPServer
import Localization
import NameGame
import Storage
import Synchronization
import Templates

/// The site: every route Arcade answers, wired to the infrastructure.
public final class Site: Sendable {
    public let router: Router
    let pool: DatabasePool
    let localizer: Localizer
    let constants: Constants
    let identity: Identity
    let pages: Pages
    /// How player routes are declared (the site's middleware); tests add routes through it.
    let kit: RouteKit
    let hotfixes: StringHotfixes
    let interceptions: InterceptionsStore
    let admins: AdminStore
    let schedule: ChangeSchedule
    /// Set last in `init`: its thread starts with everything it touches in place.
    private let ticker: SiteTicker
    /// Other instances' changes to what this one caches (PostgreSQL only).
    private let changes: ChangeFeed?
    private let leadership: Leadership

    public init(options: ServeOptions) throws {
        let pool = DatabasePool(location: options.database, commitDelay: options.commitDelay)
        self.pool = pool
        // What start-up keeps in the database, read or made at once (a database error names the file).
        let (key, dailyKey, firstDay) = try StartupError.reading(options.database.description, as: StartupError.database) {
            let db = try pool.connection()
            try db.migrate(Schema.migrations)
            return (try Site.secret("cookie-signing", in: db), try Site.secret("mastermind-daily", in: db),
                    try Site.firstDay(in: db, clock: options.clock))
        }
        let overlay = StringOverlay()
        localizer = try StartupError.reading(options.localizations) {
            try Localizer.load(directory: options.localizations, overlay: overlay, log: { Log.info($0) })
        }
        let hotfixes = StringHotfixes(pool: pool, clock: options.clock, overlay: overlay)
        let admins = AdminStore(pool: pool, clock: { [clock = options.clock] in Int(clock()) })
        self.hotfixes = hotfixes
        self.admins = admins
        interceptions = InterceptionsStore(pool: pool, clock: options.clock)
        try StartupError.reading(options.database.description, as: StartupError.database) {
            if try admins.count() == 0 {
                // The first start: one admin, its password shown once, here only.
                let password = Base64URL.encode(Crypto.randomBytes(15))
                try admins.create(name: "admin", password: password)
                Log.info("created the admin account 'admin' with the password \(password) (shown once; change it with `arcade admin create`)")
            }
            try hotfixes.load()
        }
        constants = try StartupError.reading(options.config) {
            try Constants.load(directory: options.config, environments: options.environments)
        }
        let templates = try TemplateStore(directory: options.templates, dev: options.dev)
        let photos = PhotoLibrary(folder: options.photosDirectory, shared: options.database.dialect == .postgresql ? pool : nil)
        let people = PeopleStore(pool: pool, clock: options.clock, photos: photos)
        let profiles = constants.string("namegame.profiles", default: "Config/people.json")
        try StartupError.reading(options.database.description, as: StartupError.database) {
            // Read (and fetched, for a URL) only until the first start has copied them into the database.
            if try !people.isSeeded() { try people.seed(Site.loadPeople(profiles)) }
            try people.reload()
        }
        let cheatsFile = constants.string("cheats.file", default: "Config/cheats.json")
        let cheatBook = try CheatBook.load(cheatsFile)
        for required in ["layout", "home", "error", "language-menu", "site-header", "site-footer"] where try templates.library().template(named: required) == nil {
            throw StartupError.missing(file: "\(options.templates)/\(required).mustache")
        }
        let constants = self.constants
        pages = Pages(templates: templates, localizer: localizer, version: { constants.string("site.version", default: "1.0.0") },
                      versions: { overlay.version &* 1_000_003 &+ constants.version })
        identity = Identity(signer: Signer(key: key), csrfKey: HMACKey(Crypto.hmacSHA256(key: key, message: Array("csrf".utf8))), pool: pool,
                            clock: options.clock,
                            negotiation: LanguageNegotiation(available: localizer.languages, fallback: localizer.base),
                            secureCookies: options.secureCookies,
                            isAdmin: { request in request.cookies[AdminRoutes.cookie].map { admins.isSignedIn($0) } ?? false })
        let files = try StartupError.reading(options.publicDirectory, as: StartupError.unreadable) {
            try StaticFiles(root: options.publicDirectory)
        }

        var router = Router()
        router.deferredOffLoop = pool.location.dialect == .postgresql
        router.get("/healthz") { _ in .text("ok") }
        let pages = self.pages, localizer = self.localizer, identity = self.identity
        // Pages the router answers itself (404, 405, a static miss, a refused request): localized, in the visitor's
        // theme, with the security headers.
        let errorPage: @Sendable (Status, Request) -> Response = { status, request in
            let visitor = try? identity.visitor(for: request)
            let look = PageLook(theme: visitor?.theme ?? "", retroUnlocked: visitor?.retroUnlocked ?? false)
            return SecurityHeaders<SiteContext>.apply(PageLook.$current.withValue(look) {
                pages.error(status, language: visitor?.language ?? identity.language(for: request).0,
                            csrf: visitor?.csrfToken ?? "", path: "/", cookies: visitor?.cookies ?? [])
            })
        }
        router.fallback = Handler { request in
            let response = files.respond(to: request)
            return response.status.code >= 400 ? errorPage(response.status, request) : response
        }
        router.errorPage = errorPage
        router.refusalPage = { error in
            SecurityHeaders<SiteContext>.apply(pages.error(error.status, language: localizer.base, csrf: "", path: "/"))
        }
        let interceptions = self.interceptions
        let onceStore = OnceStore(pool: pool, clock: options.clock, constants: constants)
        let editor = AdminHotfixes(hotfixes: hotfixes, localizer: localizer, admins: admins, pool: pool, constants: constants)
        try StartupError.reading(options.database.description, as: StartupError.database) { try editor.loadConstants() }
        // The player pages' middleware, outermost first (error pages get the security headers too); the game routes add UpdateRequired, actions CSRFCheck.
        let errors = ErrorPages(pages: pages, identity: identity)
        let site = RouterGroup<SiteContext>(context: SiteContext.init)
            .adding(SecurityHeaders<SiteContext>())
            .adding(errors)
            .adding(MaintenanceGate(interceptions: interceptions, identity: identity, pages: pages, clock: options.clock))
            .adding(VisitorCookies(identity: identity))
            .adding(UpdateNotice(interceptions: interceptions, identity: identity, pages: pages, once: onceStore,
                                 clientVersion: { constants.string("site.version", default: "1.0.0") }))
        let kit = RouteKit(group: site, identity: identity, pages: pages, errors: errors)
        self.kit = kit
        let games = kit.adding(UpdateRequired(pages: pages))
        // The theme chooser: a cookie (cosmetic, so pages need no lookup); nothing to commit, so on the loop.
        kit.action(&router, "/theme", offLoop: false) { request, visitor in
            let form = request.form ?? FormFields()
            let chosen = form["theme"] ?? ""
            guard chosen.isEmpty || PageLook.choices.contains(chosen) || (chosen == "crt" && visitor.retroUnlocked) else {
                return pages.error(.unprocessableContent, language: visitor.language, csrf: visitor.csrfToken, path: "/")
            }
            var response = Response.redirect(to: OnceRoutes.localPath(form["back"]))
            response.setCookie(SetCookie(name: RouteKit.themeCookie, value: chosen, maxAge: chosen.isEmpty ? 0 : 365 * 86_400,
                                         secure: options.secureCookies, sameSite: .lax))
            return response
        }
        kit.page(&router, "/") { request, visitor in
            let t = localizer.strings(for: visitor.language)
            // The games and their count depend only on the language: built once.
            let catalog = pages.perLanguage("home.games", visitor.language) { t in
                let games: [TemplateValue] = [
                    ["slug": "mastermind", "href": "/mastermind", "name": .string(t.string("mastermind.title")),
                     "description": .string(t.string("home.game.mastermind"))],
                    ["slug": "namegame", "href": "/namegame", "name": .string(t.string("namegame.title")),
                     "description": .string(t.string("home.game.namegame"))]]
                return ["games": .list(games), "hasGames": .bool(!games.isEmpty), "count": .string(t.string("home.games.count", [.int(games.count)]))]
            }
            let once = try OnceRoutes.banners(onceStore, visitor, game: nil, back: "/", t: t, whatsNew: true)
            return pages.render("home", title: t.string("home.title"), language: visitor.language,
                                csrf: visitor.csrfToken, path: "/", section: "home",
                                shared: ["catalog": catalog], data: ["once": once])
        }
        let mastermind = MastermindStore(pool: pool, constants: constants, dailyKey: dailyKey,
                                         firstDay: firstDay, clock: options.clock)
        // First: its /namegame/help comes before the Name Game's /namegame/:mode.
        OnceRoutes(store: onceStore, pages: pages, kit: kit).register(&router)
        MastermindRoutes(store: mastermind, pages: pages, kit: games, once: onceStore)
            .register(&router)
        NameGameRoutes(store: NameGameStore(pool: pool, clock: options.clock), people: people, constants: constants, pages: pages, kit: games,
                       once: onceStore).register(&router)
        CheatRoutes(store: CheatStore(pool: pool, book: cheatBook), once: onceStore, kit: kit, pages: pages,
                    mastermind: mastermind, nameGame: NameGameStore(pool: pool, clock: options.clock)).register(&router)
        let api = InterceptionsRoutes(store: interceptions, constants: constants, overlay: overlay, base: localizer.base,
                                      languages: localizer.languages)
        api.register(&router)
        let channels = EventChannels()
        router.channels = channels
        let schedule = ChangeSchedule(pool: pool, interceptions: interceptions, hotfixes: editor, clock: options.clock)
        self.schedule = schedule
        AdminRoutes(store: admins, pages: pages, identity: identity, secureCookies: options.secureCookies,
                    hotfixes: editor, interceptions: interceptions, people: people, schedule: schedule,
                    version: { constants.string("site.version", default: "1.0.0") }).register(&router)
        self.router = router
        // What the live streams watch: hotfixes (strings, constants), rules and maintenance, as counters.
        let watched: @Sendable () -> [Int] = {
            [overlay.version, constants.version, interceptions.switches.generation.load(ordering: .acquiring)]
        }
        let seen = Mutex(watched())
        // Another instance's write reaches this one's caches: strings, constants, rules and maintenance (which the
        // live streams then push), people, and a player's once-store records.
        changes = ChangeFeed.start(options.database) { kind, key in
            let all = kind == ChangeFeed.everything
            do {
                if all || kind == "hotfixes" { try hotfixes.load() }
                if all || kind == "constants" { try editor.loadConstants() }
                if all || kind == "interceptions" { interceptions.changed() }
                if all || kind == "people" { try people.reload() }
                if all || kind == "once" {
                    if let key { onceStore.cache.records[key] = nil } else { onceStore.cache.records.removeAll() }
                }
            } catch {
                Log.error("reading changes made elsewhere (\(kind)): \(error)")
            }
        }
        // Scheduled changes are applied once, by whichever instance leads.
        let leadership = Leadership(options.database)
        self.leadership = leadership
        ticker = SiteTicker {
            if leadership.held() {
                do { try schedule.applyDue() } catch { Log.error("scheduled changes: \(error)") }
            }
            let now = watched()
            guard seen.withLock({ $0 }) != now else { return }
            do {
                try api.publishETags(to: channels)
                seen.withLock { $0 = now }
            } catch {
                Log.error("live push: \(error)")
            }
        }
    }

    /// Commits what the writer still holds and stops it; reports how many transactions shared each flush.
    public func close() {
        ticker.stop()
        changes?.stop()
        leadership.resign()
        if let writer = try? pool.writer() {
            let transactions = writer.transactions.load(ordering: .relaxed), commits = writer.commits.load(ordering: .relaxed)
            let average = commits == 0 ? 0 : Double(transactions) / Double(commits)
            Log.info("database: \(transactions) transactions in \(commits) commits (\(Double(Int(average * 100)) / 100) a commit)")
        }
        pool.close()
    }

    /// The Name Game's people: a file path (the default, bundled) or an
    /// http(s) URL. Malformed JSON stops start-up with the file and position.
    static func loadPeople(_ source: String) throws -> Directory {
        let bytes: [UInt8]
        if source.hasPrefix("http://") || source.hasPrefix("https://") {
            switch HTTPClient(timeout: 10, maxResponseBytes: 16 << 20).get(source) {
            case .success(let response) where response.status == 200: bytes = response.body
            case .success(let response): throw StartupError.unreadable(file: source, reason: "HTTP \(response.status)")
            case .failure(let failure): throw StartupError.unreadable(file: source, reason: "\(failure)")
            }
        } else {
            guard let read = Files.read(source) else { throw StartupError.unreadable(file: source, reason: "cannot read the people file") }
            bytes = read
        }
        let json: JSONValue
        do { json = try JSONParser.parse(bytes) } catch {
            throw StartupError.invalid(file: "\(source):\(error.line):\(error.column)", reason: error.message)
        }
        let directory = try StartupError.reading(source) { try Directory(json: json) }
        if !directory.skipped.isEmpty {
            Log.info("Name Game: \(directory.people.count) people, \(directory.skipped.count) left out (\(directory.skipped.prefix(3).map(\.description).joined(separator: "; "))\(directory.skipped.count > 3 ? "; …" : ""))")
        }
        return directory
    }

    /// The UTC day (since 1970) the site first ran, kept in the database: the daily code's #0.
    static func firstDay(in db: Database, clock: () -> Double) throws -> Int {
        if let stored = try db.value([UInt8].self, "SELECT value FROM secrets WHERE name = 'first-day'"),
           let day = Int(String(decoding: stored, as: UTF8.self)) {
            return day
        }
        let day = Int(clock() / 86_400)
        try db.execute("INSERT INTO secrets (name, value) VALUES ('first-day', ?)", [.blob(Array(String(day).utf8))])
        return day
    }

    /// A random secret kept in the database, made at first start.
    static func secret(_ name: String, in db: Database) throws -> [UInt8] {
        if let existing = try db.value([UInt8].self, "SELECT value FROM secrets WHERE name = ?", [.text(name)]),
            existing.count >= 32
        {
            return existing
        }
        let fresh = Crypto.randomBytes(32)
        try db.execute("INSERT INTO secrets (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value", [.text(name), .blob(fresh)])
        return fresh
    }
}
