import ArcadeStore
import Constants
import Crypto
import HTTP
import HTTPServer
import Localization
import Logger
import Storage

#if canImport(Glibc)
import Glibc
#endif

/// The site: every route Arcade answers, wired to the infrastructure.
public final class Site: Sendable {
    public let routes: Routes
    /// Every component, built once (`Services`, the composition root).
    let services: Services
    var pool: DatabasePool { services.pool }
    var localizer: Localizer { services.localizer }
    var constants: Constants { services.constants }
    var identity: Identity { services.identity }
    var pages: Pages { services.pages }
    var hotfixes: StringHotfixes { services.hotfixes }
    var interceptions: InterceptionsStore { services.interceptions }
    var admins: AdminStore { services.admins }
    var schedule: ChangeSchedule { services.schedule }
    var insights: InsightsStore { services.insights }
    /// What runs beside the requests (`Services.startBackground`), stopped in reverse order by `close`.
    private let background: [any BackgroundWork]
    /// On SQLite, the lock that makes this the database's one site (see `SiteLock`).
    private let lock: SiteLock?

    public convenience init(options: ServeOptions) throws {
        try self.init(options: options, adding: { _ in })
    }

    /// `adding`: more player routes, beside the site's (tests add some).
    init(options: ServeOptions, adding extra: (PlayerRoutes) -> Void) throws {
        lock = try StartupError.reading(options.database.description, as: StartupError.database) {
            try SiteLock.take(options.database, for: "starting another")
        }
        let services = try Services(options: options)
        self.services = services
        let database = options.database.description
        let router = try Site.router(services, extra: extra)
        routes = try StartupError.reading("routes") { try router.build() }
        // Last: a start that fails on a file or setting must not have made the admin and spent its one showing.
        try StartupError.reading(database, as: StartupError.database) { [admins = services.admins] in
            try Site.firstAdmin(admins, passwordFile: options.firstAdminPasswordFile)
        }
        background = services.startBackground()
    }

    /// The first start: one admin, its password shown once on the terminal, or else written to a file only this
    /// user can read, never to the log (logs are kept, shipped and shared).
    private static func firstAdmin(_ admins: AdminStore, passwordFile: String) throws {
        guard try admins.count() == 0 else { return }
        let password = Base64URL.encode(Crypto.randomBytes(15))
        if isatty(1) == 0 && !writePrivately(password + "\n", to: passwordFile) {
            throw StartupError.unreadable(
                file: passwordFile,
                reason: "cannot write the first admin's password: \(String(cString: strerror(errno)))")
        }
        try admins.create(name: "admin", password: password, by: "first start")
        let change = "change it with `arcade admin password admin`"
        if isatty(1) != 0 {
            // A terminal, watched by whoever started it: the one place the password is shown.
            Log.notice("created the admin account 'admin' with the password \(password) (shown once; \(change))")
        } else {
            Log.info(
                "created the admin account 'admin'; its password is in \(passwordFile) (delete it once read; \(change))"
            )
        }
    }

    /// A file of this user's alone (0600, whatever was there before), flushed.
    private static func writePrivately(_ text: String, to path: String) -> Bool {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { return false }
        defer { Glibc.close(fd) }
        let bytes = Array(text.utf8)
        return fchmod(fd, 0o600) == 0
            && bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) } == bytes.count
            && fsync(fd) == 0
    }

    /// Every route, in groups that carry their middleware, outermost first: error pages get the security headers
    /// too; the admin pages and the API stay up during maintenance.
    private static func router(_ services: Services, extra: (PlayerRoutes) -> Void) throws -> Router {
        let (options, pages, identity) = (services.options, services.pages, services.identity)
        let router = Router(readsWait: options.database.dialect == .postgresql)
        router.channels = services.channels
        let errors = ErrorPages(pages: pages, identity: identity)
        try answerItself(router, options, services, pages: pages, errors: errors)
        // Everything behind the visitor's middleware reads the database (a player's record, the rules in force).
        let root = router.group(context: RequestContext.init).running(.reads)
        let site = (options.secureCookies ? root.adding(SecureCookies()) : root).adding(SecurityHeaders()).adding(
            errors)
        let players = site.adding(
            MaintenanceGate(
                interceptions: services.interceptions, identity: identity,
                errors: errors, clock: options.clock)
        )
        .adding(VisitorCookies(identity: identity, errors: errors))
        .adding(
            UpdateNotice(
                interceptions: services.interceptions, identity: identity, pages: pages,
                once: services.once, clientVersion: services.version))
        let player = PlayerRoutes(
            players, identity: identity, newPlayers: services.limits.newPlayers,
            hasRow: { [once = services.once] id in try once.hasRow(id) }, budget: services.limits.budget,
            home: services.home)
        try playerControllers(services, player, errors: errors)
        extra(player)
        let api = router.group(context: RequestContext.init).running(.reads).adding(
            ErrorPages(pages: pages, identity: identity, format: .json))
        services.api.addRoutes(to: api)
        let admin = AdminController(
            store: services.admins, pages: pages,
            secureCookies: options.secureCookies, hotfixes: services.editor,
            interceptions: services.interceptions, people: services.people,
            schedule: services.schedule, limits: services.signIns, signer: identity.signer, passkeys: services.webAuthn,
            passkeyAttempts: services.limits.adminPasskeyAttempts,
            version: services.version, housekeeping: services.housekeeping)
        let adminRoutes = AdminRoutes(
            site: site, api: api, identity: identity, errors: errors, store: services.admins, pages: pages)
        admin.addRoutes(to: adminRoutes)
        InsightsController(store: services.insights, pages: pages, traffic: options.server.metrics.traffic)
            .addRoutes(to: adminRoutes)
        // Uploaded photos, for players' pages: no cookies, no session.
        PeopleController(store: services.people, pages: pages)
            .addPhotoRoute(to: router.group(context: RequestContext.init).running(.pool))
        return router
    }

    /// The players' pages: home, progress and devices, privacy, both games and the cheats.
    private static func playerControllers(_ services: Services, _ player: PlayerRoutes, errors: ErrorPages) throws {
        let (options, pages, identity) = (services.options, services.pages, services.identity)
        let games = player.adding(UpdateRequired(pages: pages))
        HomeController(
            pages: pages, once: services.once, secureCookies: options.secureCookies, mastermind: services.mastermind,
            nameGame: services.nameGame, people: services.people, cheats: services.cheats.book, summaries: services.home
        ).addRoutes(to: player)
        let mastermind = services.mastermind
        let (nameGame, people) = (services.nameGame, services.people)
        let passkeys = PasskeyController(
            store: services.passkeys, once: services.once, pages: pages, site: services.webAuthn,
            identity: identity, attempts: services.limits.passkeyAttempts,
            refusedWords: { [constants = services.constants] in
                constants.string("names.refused", default: "").split(separator: ",").map {
                    String($0.trimmingPrefix(" "))
                }
            }, clock: options.clock)
        passkeys.addRoutes(to: player)
        TransferController(
            codes: services.transferCodes, once: services.once, pages: pages, identity: identity,
            publicHost: options.publicHost, addresses: services.limits.transferAddresses,
            perCode: services.limits.transferPerCode, clock: options.clock
        ).addRoutes(to: player)
        OnceController(
            store: services.once, pages: pages, mastermindRules: { mastermind.rules }, passkeys: passkeys.section,
            // Due by the end of today, and now: the page says which (a review: "due: 10" here, "done for now" in
            // the lesson it linked to, as those ten came later in the day).
            reviewsDue: { player in
                NameGameController.dueCounts(
                    nameGame, people: people.directory.team, cards: try nameGame.cards(player: player))
            }
        ).addRoutes(to: player)
        PrivacyController(once: services.once, pages: pages, secureCookies: options.secureCookies).addRoutes(to: player)
        MastermindController(store: services.mastermind, pages: pages, once: services.once).addRoutes(to: games)
        NameGameController(
            store: services.nameGame, people: services.people, constants: services.constants,
            pages: pages, once: services.once
        ).addRoutes(to: games)
        CheatController(
            store: services.cheats, once: services.once, pages: pages, errors: errors,
            mastermind: services.mastermind, nameGame: services.nameGame
        ).addRoutes(to: player)
    }

    /// What the router answers before any group: static files and its own error pages, `/healthz`, `/metrics`, and
    /// which uploads it reads at all.
    private static func answerItself(
        _ router: Router, _ options: ServeOptions, _ services: Services, pages: Pages, errors: ErrorPages
    ) throws {
        let files = try StartupError.reading(options.publicDirectory, as: StartupError.unreadable) {
            try StaticFiles(root: options.publicDirectory)
        }
        // Pages the router answers itself (404, 405, a static miss, a refused request): localized, in the visitor's
        // theme, with the security headers.
        router.fallback = .loop { request in
            let response = files.respond(to: request)
            return response.status.code >= 400 ? errors.page(response.status, request) : response
        }
        router.errorPage = { status, request in errors.page(status, request) }
        router.refusalPage = { error in
            SecurityHeaders<RequestContext>.apply(
                pages.error(error.status, language: pages.localizer.base, csrf: "", path: "/", everyLanguage: true))
        }
        router.get("/healthz") { _ in .text("ok") }
        // Readiness, for a load balancer: not while the database is unreachable or the instance drains. (Migrations
        // run before the port is bound, so nothing answers then.) A flag and an atomic: it stays on the loop.
        router.get("/readyz") { [health = services.once.pool.health, draining = options.draining] _ in
            let reason =
                draining.isOn
                ? "draining" : health.reachable ? nil : "database unreachable"
            guard let reason else { return .text("ready") }
            var response = Response.text("not ready: \(reason)", status: .serviceUnavailable)
            response.headers.set("Retry-After", "1")
            response.headers.set("Cache-Control", "no-store")
            return response
        }
        MetricsController(
            sources: [options.server.metrics, services.pool],
            engine: options.database.dialect == .postgresql ? "postgresql" : "sqlite", token: options.metricsToken,
            notFound: { errors.page(.notFound, $0) }
        ).addRoutes(to: router)
        // Uploads (up to --max-upload) are read only for a live admin session, looked up when the head arrives and
        // before any of the body is read, on either engine: a read, so on PostgreSQL the server asks it on the pool
        // with the connection paused.
        router.uploadGate = UploadGate(router.placing(.reads)) { [admins = services.admins] headers in
            guard let token = Cookies.parse(headers.values("Cookie"))[AdminController.cookie] else { return false }
            return admins.isSignedIn(token)
        }
    }

    /// Commits what the writer still holds and stops it; reports how many transactions shared each flush.
    public func close() {
        for work in background.reversed() { work.stop() }
        if let writer = try? pool.writer() {
            let transactions = writer.transactions.load(ordering: .relaxed)
            let commits = writer.commits.load(ordering: .relaxed)
            let average = commits == 0 ? 0 : Double(transactions) / Double(commits)
            let trips = writer.roundTrips.load(ordering: .relaxed)
            let perWrite = transactions == 0 ? 0 : Double(trips) / Double(transactions)
            Log.info(
                "database: \(transactions) transactions in \(commits) commits (\(Double(Int(average * 100)) / 100) a commit),"
                    + " \(trips) round trips (\(Double(Int(perWrite * 100)) / 100) a transaction),"
                    + " \(writer.retries.load(ordering: .relaxed)) groups retried"
            )
        }
        pool.close()
        lock?.release()
    }
}
