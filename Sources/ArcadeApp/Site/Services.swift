import Constants
import HTTP
import Localization
import Logger
import NameGame
import Storage
import Synchronization

/// The stores and engines the routes share, made once at start-up, and what keeps their caches current.
struct Services: Sendable {
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
    let api: InterceptionsController
    let overlay: StringOverlay
    let hotfixes: StringHotfixes
    /// The site's version: a web client's app version.
    let version: @Sendable () -> String

    init(
        options: ServeOptions,
        site: (DatabasePool, Constants, StringOverlay, StringHotfixes, AdminStore, InterceptionsStore),
        localizer: Localizer, dailyKey: [UInt8], firstDay: Int
    ) throws {
        let (pool, constants, overlay, hotfixes, admins, interceptions) = site
        (self.constants, self.overlay, self.hotfixes, self.admins, self.interceptions) =
            (constants, overlay, hotfixes, admins, interceptions)
        version = { constants.string("site.version", default: "1.0.0") }
        let database = options.database.description
        let photos = PhotoLibrary(
            folder: options.photosDirectory,
            shared: options.database.dialect == .postgresql ? pool : nil)
        people = PeopleStore(pool: pool, clock: options.clock, photos: photos)
        let profiles = options.configFile(constants.string("namegame.profiles", default: "people.json"))
        try StartupError.reading(database, as: StartupError.database) { [people, demo = options.demoPeople] in
            // Read (and fetched, for a URL) only until the first start has copied them into the database.
            if try !people.isSeeded() {
                try people.seed(demo ? PeopleSource.load(profiles) : Directory(people: []))
            } else if !profiles.hasPrefix("http"), try people.bundledUndescribed() {
                // Seeded before faces had descriptions: the bundled file, read again once, gives them.
                if let bundled = try? PeopleSource.load(profiles) { try people.fillAppearances(from: bundled) }
            }
            try people.reload()
        }
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
            if all || kind == "once" {
                if let key { once.cache.records[PlayerKey(key)] = nil } else { once.cache.records.removeAll() }
            }
        } catch {
            Log.error("reading changes made elsewhere (\(kind)): \(error)", every: "reading changes")
        }
    }

    /// What the site's ticker does four times a second: the leader applies scheduled changes; the live streams are told
    /// of a changed hotfix (strings, constants), rule or maintenance, watched as counters.
    func tick(leadership: Leadership, channels: EventChannels?) -> @Sendable () -> Void {
        let watched: @Sendable () -> [Int] = { [overlay, constants, interceptions] in
            [overlay.version, constants.version, interceptions.switches.generation.load(ordering: .acquiring)]
        }
        let seen = Mutex(watched())
        return { [schedule, api] in
            if leadership.held() {
                do { try schedule.applyDue() } catch {
                    Log.error("scheduled changes: \(error)", every: "scheduled changes")
                }
            }
            let now = watched()
            guard let channels, seen.withLock({ $0 }) != now else { return }
            do {
                try api.publishETags(to: channels)
                seen.withLock { $0 = now }
            } catch {
                Log.error("live push: \(error)", every: "live push")
            }
        }
    }
}
