import Constants
import Crypto
import Files
import HTTP
import HTTPClient
import Interceptions
import HTTPServer
import Localization
import NameGame
import Storage
import Templates

/// The site: every route Arcade answers, wired to the infrastructure.
public final class Site: Sendable {
    public let router: Router
    let pool: DatabasePool
    let localizer: Localizer
    let constants: Constants
    let identity: Identity
    let pages: Pages
    let hotfixes: StringHotfixes
    let interceptions: InterceptionsStore
    let admins: AdminStore

    public init(options: ServeOptions) throws {
        pool = DatabasePool(path: options.database, commitDelay: options.commitDelay)
        let db = try pool.connection()
        try db.migrate(Schema.migrations)
        let key = try Site.secret("cookie-signing", in: db)
        let overlay = StringOverlay()
        localizer = try Localizer.load(directory: options.localizations, overlay: overlay, log: { Log.info($0) })
        hotfixes = StringHotfixes(pool: pool, overlay: overlay)
        interceptions = InterceptionsStore(pool: pool)
        admins = AdminStore(pool: pool)
        if try admins.count() == 0 {
            // The first start: one admin, its password shown once, here only.
            let password = Base64URL.encode(Crypto.randomBytes(15))
            try admins.create(name: "admin", password: password)
            Log.info("created the admin account 'admin' with the password \(password) (shown once; change it with `arcade admin create`)")
        }
        try hotfixes.load()
        constants = try Constants.load(directory: options.config, environments: options.environments)
        let templates = try TemplateStore(directory: options.templates, dev: options.dev)
        let directory = try Site.loadPeople(constants.string("namegame.profiles", default: "Config/people.json"))
        let cheatBook = try CheatBook.load(constants.string("cheats.file", default: "Config/cheats.json"))
        for required in ["layout", "home", "error", "language-menu", "site-header", "site-footer"] where try templates.library().template(named: required) == nil {
            throw TemplateStoreError("\(options.templates)/\(required).mustache is missing")
        }
        let constants = self.constants
        pages = Pages(templates: templates, localizer: localizer, version: { constants.string("site.version", default: "1.0.0") },
                      versions: { overlay.version &* 1_000_003 &+ constants.version })
        identity = Identity(signer: Signer(key: key), csrfKey: HMACKey(Crypto.hmacSHA256(key: key, message: Array("csrf".utf8))), pool: pool,
                            negotiation: LanguageNegotiation(available: localizer.languages, fallback: localizer.base),
                            secureCookies: options.secureCookies)
        let files = try StaticFiles(root: options.publicDirectory)

        var router = Router()
        router.get("/healthz") { _ in .text("ok") }
        router.fallback = Handler { [pages = pages, identity = identity] request in
            let response = files.respond(to: request)
            guard response.status.code >= 400 else { return response }
            // Static misses get the site's own localized error page.
            let visitor = try? identity.visitor(for: request)
            return pages.error(response.status, language: visitor?.language ?? identity.language(for: request).0,
                               csrf: visitor?.csrfToken ?? "", path: "/", cookies: visitor?.cookies ?? [])
        }
        let pages = self.pages, localizer = self.localizer, identity = self.identity
        router.errorPage = { status, request in
            let visitor = try? identity.visitor(for: request)
            return pages.error(status, language: visitor?.language ?? identity.language(for: request).0,
                               csrf: visitor?.csrfToken ?? "", path: "/", cookies: visitor?.cookies ?? [])
        }
        router.refusalPage = { error in
            pages.error(error.status, language: localizer.base, csrf: "", path: "/")
        }
        let interceptions = self.interceptions, admins = self.admins, hotfixes = self.hotfixes
        let onceStore = OnceStore(pool: pool, constants: constants)
        let editor = AdminHotfixes(hotfixes: hotfixes, localizer: localizer, admins: admins, pool: pool, constants: constants)
        try editor.loadConstants()
        let kit = RouteKit(identity: identity, pages: pages, interceptions: interceptions, once: onceStore,
                           clientVersion: { constants.string("site.version", default: "1.0.0") })
        kit.page(&router, "/") { request, visitor in
            let t = localizer.strings(for: visitor.language)
            let games: [TemplateValue] = [
                ["slug": "mastermind", "href": "/mastermind", "name": .string(t.string("mastermind.title")),
                 "description": .string(t.string("home.game.mastermind"))],
                ["slug": "namegame", "href": "/namegame", "name": .string(t.string("namegame.title")),
                 "description": .string(t.string("home.game.namegame"))],
            ]
            let once = try OnceRoutes.banners(onceStore, visitor, game: nil, back: "/", t: t, whatsNew: true)
            return pages.render("home", title: t.string("home.title"), language: visitor.language,
                                csrf: visitor.csrfToken, path: "/", section: "home",
                                data: ["once": once, "isHome": true, "games": .list(games), "hasGames": .bool(!games.isEmpty),
                                       "gameCount": .int(games.count)])
        }
        let mastermind = MastermindStore(pool: pool, constants: constants)
        MastermindRoutes(store: mastermind, constants: constants, pages: pages, kit: kit, once: onceStore)
            .register(&router)
        NameGameRoutes(store: NameGameStore(pool: pool), directory: directory, constants: constants, pages: pages, kit: kit,
                       once: onceStore).register(&router)
        OnceRoutes(store: onceStore, pages: pages, kit: kit).register(&router)
        CheatRoutes(store: CheatStore(pool: pool, book: cheatBook), once: onceStore, kit: kit, pages: pages,
                    mastermind: mastermind, nameGame: NameGameStore(pool: pool)).register(&router)
        InterceptionsRoutes(store: interceptions, constants: constants, overlay: overlay, base: localizer.base).register(&router)
        AdminRoutes(store: admins, pages: pages, identity: identity, secureCookies: options.secureCookies,
                    hotfixes: editor, interceptions: interceptions).register(&router)
        self.router = router
    }

    /// Commits what the writer still holds and stops it; reports how many transactions shared each flush.
    public func close() {
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
            case .success(let response): throw TemplateStoreError("\(source): HTTP \(response.status)")
            case .failure(let failure): throw TemplateStoreError("\(source): \(failure)")
            }
        } else {
            guard let read = Files.read(source) else { throw TemplateStoreError("\(source): cannot read the people file") }
            bytes = read
        }
        let directory = try Directory(bytes: bytes, file: source)
        if !directory.skipped.isEmpty {
            Log.info("Name Game: \(directory.people.count) people, \(directory.skipped.count) left out (\(directory.skipped.prefix(3).joined(separator: "; "))\(directory.skipped.count > 3 ? "; …" : ""))")
        }
        return directory
    }

    /// A random secret kept in the database, made at first start.
    static func secret(_ name: String, in db: Database) throws -> [UInt8] {
        if let existing = try db.first("SELECT value FROM secrets WHERE name = ?", [.text(name)])?.blob("value"), existing.count >= 32 {
            return existing
        }
        let fresh = Crypto.randomBytes(32)
        try db.execute("INSERT OR REPLACE INTO secrets (name, value) VALUES (?, ?)", [.text(name), .blob(fresh)])
        return fresh
    }
}

/// How routes are declared: pages identify the visitor first; actions also
/// check the CSRF token.
struct RouteKit: Sendable {
    let identity: Identity
    let pages: Pages
    let interceptions: InterceptionsStore
    var once: OnceStore? = nil
    /// The web app's version, compared with the rules' minimum app version.
    var clientVersion: @Sendable () -> String = { "1.0.0" }

    /// The update rule this browser breaks, if any (platform `web`; the OS
    /// and its version from the User-Agent).
    func updateNotice(_ request: Request) -> Violation? {
        guard let rules = try? interceptions.cachedRules(), rules.contains(where: { $0.platform == "web" && $0.active }),
              let app = Version(clientVersion()) else { return nil }
        // An unrecognized system is held to no OS minimum.
        let client = ClientOS.parse(userAgent: request.headers["User-Agent"] ?? "")
        return UpdateCheck.evaluate(rules, platform: "web", app: app, os: client?.version ?? Version("9999")!, system: client?.name,
                                    language: identity.language(for: request).0)
    }

    static func isGamePage(_ path: Substring) -> Bool {
        path == "/mastermind" || path.hasPrefix("/mastermind/") || path == "/namegame" || path.hasPrefix("/namegame/")
    }

    /// A GET page: the visitor is identified (and new cookies set) first;
    /// a failure inside becomes the localized 500 page.
    func page(_ router: inout Router, _ pattern: String, offLoop: Bool = false,
              _ render: @escaping @Sendable (Request, Visitor) throws -> Response) {
        router.get(pattern, offLoop: offLoop) { [self] request in respond(to: request, checkingCSRF: false, render) }
    }

    /// A state-changing POST: refused with a localized 403 unless it carries
    /// the session's CSRF token. It runs off the event loop, since it waits
    /// for its write to be committed before answering.
    func action(_ router: inout Router, _ pattern: String, offLoop: Bool = true,
                _ handle: @escaping @Sendable (Request, Visitor) throws -> Response) {
        router.post(pattern, offLoop: offLoop) { [self] request in respond(to: request, checkingCSRF: true, handle) }
    }

    /// A state-changing POST that holds no thread while its write commits: `handle` runs on the event loop
    /// after the same checks as `action`, queues its write, and answers through `Later` once it is committed.
    func deferredAction(_ router: inout Router, _ pattern: String,
                        _ handle: @escaping @Sendable (Request, Visitor, Later) throws -> Void) {
        router.add(.post, pattern) { [self] request, reply in
            switch prelude(request, checkingCSRF: true) {
            case .answered(let response):
                reply.send(response)
            case .proceed(let visitor, let notice):
                let later = Later(reply: reply) { result in
                    switch result {
                    case .success(let response):
                        reply.send(finish(response, request, visitor, notice))
                    case .failure(let error):
                        reply.send(failure(request, error))
                    }
                }
                do { try handle(request, visitor, later) } catch { later.fail(error) }
            }
        }
    }

    /// A deferred action's answer, from any thread: exactly one of `send`, `fail` or `sendBlocking`.
    struct Later: Sendable {
        let reply: Reply
        let done: @Sendable (Result<Response, any Error>) -> Void

        func send(_ response: Response) { done(.success(response)) }
        func fail(_ error: any Error) { done(.failure(error)) }
        /// Finishes on a pool thread, for work that may block (an outbound call, a wait for a commit).
        func sendBlocking(_ body: @escaping @Sendable () throws -> Response) {
            reply.offload { [done] in done(Result { try body() }) }
        }
    }

    /// Puts the update banner at the top of the page's main content: low is
    /// dismissible for 24 hours (the once-store remembers), medium and high stay.
    private func addUpdateBanner(_ notice: Violation, to response: inout Response, _ visitor: Visitor, back: String) throws {
        guard case .bytes(var body) = response.body else { return }
        let low = notice.rule.restriction == .low
        if low, let once, try once.perform(visitor).once.beenDone(SiteTasks.updateDismissed, scope: .since(86_400)) { return }
        let marker = Array("<main id=\"main\" tabindex=\"-1\">\n".utf8)
        guard let at = body.firstRange(of: marker)?.upperBound else { return }
        let message = notice.message.isEmpty ? pages.localizer.string("update.required.text", language: visitor.language) : notice.message
        let banner = pages.partial("update-banner", language: visitor.language, csrf: visitor.csrfToken,
                                   data: ["level": .string(notice.rule.restriction.name), "message": .string(message),
                                          "dismissible": .bool(low), "back": .string(OnceRoutes.localPath(back))])
        body.insert(contentsOf: banner, at: at)
        response.body = .bytes(body)
    }

    /// The CRT theme, toggled by each completion of the `crt` cheat, on
    /// every page. A cosmetic choice, so a plain cookie carries it and pages
    /// need no database lookup.
    static let themeCookie = "arcade_theme"

    private func addTheme(to response: inout Response) {
        guard case .bytes(var body) = response.body,
              response.headers["Content-Type"]?.hasPrefix("text/html") == true,
              let at = body.firstRange(of: Array("<body>".utf8)) else { return }
        body.replaceSubrange(at, with: Array("<body class=\"theme-crt\">".utf8))
        response.body = .bytes(body)
    }

    private func isFormPost(_ request: Request) -> Bool {
        request.headers["Content-Type"]?.lowercased().hasPrefix("application/x-www-form-urlencoded") == true
    }

    private func respond(to request: Request, checkingCSRF: Bool,
                         _ handle: (Request, Visitor) throws -> Response) -> Response {
        switch prelude(request, checkingCSRF: checkingCSRF) {
        case .answered(let response):
            return response
        case .proceed(let visitor, let notice):
            do {
                return finish(try handle(request, visitor), request, visitor, notice)
            } catch {
                return failure(request, error)
            }
        }
    }

    private enum Prelude {
        /// Answered before the handler: maintenance, update required, a bad form, a failed CSRF check.
        case answered(Response)
        case proceed(Visitor, Violation?)
    }

    private func prelude(_ request: Request, checkingCSRF: Bool) -> Prelude {
        // Maintenance: every player page answers 503 (static files, /healthz and the APIs keep working).
        if let maintenance = try? interceptions.webMaintenance(), maintenance.active {
            let language = identity.language(for: request).0
            var response = pages.error(.serviceUnavailable, language: language, csrf: "", path: "/",
                                       message: Requirement(version: Version("0")!, messages: maintenance.messages)
                                           .message(for: language, base: "en"))
            let now = Int(NameGameStore.nowMilliseconds() / 1000)
            response.headers.set("Retry-After", String(max(60, min(86_400, (maintenance.endsAt ?? now + 300) - now))))
            return .answered(response)
        }
        let visitor: Visitor
        do { visitor = try identity.visitor(for: request) } catch { return .answered(failure(request, error)) }
        let notice = updateNotice(request)
        if let notice, notice.rule.restriction == .high, Self.isGamePage(request.rawPath) {
            // A high rule: game pages give way to "update required".
            var response = pages.render("update-required", title: pages.localizer.string("update.required.title", language: visitor.language),
                                    language: visitor.language, csrf: visitor.csrfToken, path: "/",
                                    data: ["message": .string(notice.message.isEmpty
                                        ? pages.localizer.string("update.required.text", language: visitor.language) : notice.message)])
            for cookie in visitor.cookies { response.setCookie(cookie) }
            return .answered(response)
        }
        let response: Response
        if checkingCSRF && isFormPost(request) && request.form == nil {
            // A body that claims to be a form but does not parse: say so.
            response = pages.error(.badRequest, language: visitor.language, csrf: visitor.csrfToken, path: "/")
        } else if checkingCSRF, let refusal = pages.fieldTooLong(request, visitor) {
            response = refusal
        } else if checkingCSRF && !identity.passesCSRF(request) {
            response = pages.error(.forbidden, language: visitor.language, csrf: visitor.csrfToken, path: "/")
        } else {
            return .proceed(visitor, notice)
        }
        return .answered(finish(response, request, visitor, notice))
    }

    /// What every handler's answer gets: the update banner, the theme, the visitor's new cookies.
    private func finish(_ answer: Response, _ request: Request, _ visitor: Visitor, _ notice: Violation?) -> Response {
        var response = answer
        do {
            if let notice, response.status == .ok { try addUpdateBanner(notice, to: &response, visitor, back: String(request.rawPath)) }
        } catch {
            return failure(request, error)
        }
        if visitor.crtTheme { addTheme(to: &response) }
        for cookie in visitor.cookies { response.setCookie(cookie) }
        return response
    }

    private func failure(_ request: Request, _ error: any Error) -> Response {
        Log.error("\(request.method) \(request.target): \(error)")
        return pages.error(.internalServerError, language: identity.language(for: request).0, csrf: "", path: "/")
    }
}
