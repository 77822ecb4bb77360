import ArcadeStore
import Constants
import Files
import HTTPServer
import Logger
import Storage
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// `arcade serve` settings: each flag also has an environment variable;
/// a flag wins over the variable, which wins over the default.
public struct ServeOptions: Sendable {
    public var server = ServerConfiguration()
    public var database = DatabaseLocation.sqlite("./arcade.sqlite")
    public var publicDirectory = "./Public"
    public var templates = "./Templates"
    public var localizations = "./Localizations"
    public var config = "./Config"
    /// Where `Public`, `Templates`, `Localizations` and `Config` are found when their own options are not given:
    /// `--share-dir`, else `share/arcade` beside an installed binary (`/usr/bin/arcade`: `/usr/share/arcade`), else
    /// the current folder (the source tree, for `swift run`).
    public var shareDirectory: String?
    /// Seed the Name Game with the bundled, fictional directory on a first start (off: start with no one).
    public var demoPeople = true
    /// Override files applied in order: `Constants_<env>.plist`.
    public var environments: [String] = []
    /// Reload changed templates on the next request, and log a name a page interpolates that nothing gives.
    public var dev = false
    /// Note the names a page interpolates that nothing gives (`TemplateAudit`): the tests fail on one (no flag).
    public var auditTemplates = false
    /// Mark cookies `Secure` (when served over TLS, e.g. behind a proxy).
    public var secureCookies = false
    /// Seconds added to every commit: a slow disk, for tests (no flag).
    public var commitDelay: Double = 0
    /// Set when the instance begins to shut down: `/readyz` fails from then on.
    public let draining = Draining()
    /// Password hashes computed at once (each takes a core for a moment), and how many more may wait.
    public var hashThreads = 1
    public var hashQueue = 4
    /// PBKDF2 rounds for new passwords; nil: AdminStore's 600,000 (a test of the hashing gate asks for them when the
    /// suite's debug build is told to use fewer). Not an option of the command line.
    public var passwordIterations: Int?
    /// Actions by visitors without a player cookie (each makes a player) allowed per client address a minute.
    public var newPlayersPerMinute = 30
    /// Writes waiting for the database writer at once; more get 503.
    public var maxQueuedWrites = 4096
    /// Hosts (`host` or `host:port`) `mastermind.randomOrgURL` may name, always over HTTPS.
    public var randomHosts = ["www.random.org"]
    /// `mastermind.randomOrgURL` may also be plain `http://` (tests' fakes; no flag).
    public var randomOrgPlainHTTP = false
    /// `--trusted-proxies` as given, for `--help`.
    package var trustedProxiesText = ""
    /// The wall clock, in seconds since 1970 (tests move it; no flag). The daily code reads its day from it.
    public var clock: @Sendable () -> Double = WallClock.system

    public init() {
        server.limits.uploadPaths = ["/admin/people"]
        // A full site still answers its health check (load balancers, `scripts/test`).
        server.healthReserve = 16
    }

    /// Scheduled backups: the folder (none: off), hours between them, how many are kept.
    public var backupDirectory: String?
    public var backupEvery: Double = 24
    public var backupKeep = 7
    /// Days after which a player who never finished anything and stopped coming is deleted (0: never).
    public var forgetAfter = 30

    /// `--log-format`: every line of the log (the access log's too) as JSON objects or as plain text; not given, it
    /// follows `--access-log` (json there means JSON everywhere).
    public var logFormat: Log.Format?
    /// Lines below this level are left out (the access log has its own switch).
    public var logLevel = LogLevel.info
    /// The format every line is written in.
    public var logJSON: Bool { (logFormat ?? (server.accessLogJSON ? .json : .plain)) == .json }

    /// The bearer token `/metrics` asks of everyone; without one, loopback clients may read it.
    public var metricsToken: String?

    /// Where the first start leaves the first admin's password (without a terminal): beside an SQLite file, else
    /// beside the photos folder.
    package var firstAdminPasswordFile: String {
        let beside: String
        if case .sqlite(let path) = database { beside = path } else { beside = photosDirectory }
        let folder = beside.lastIndex(of: "/").map { String(beside[..<$0]) } ?? "."
        return (folder.isEmpty ? "" : folder) + "/arcade-admin-password.txt"
    }

    /// `--public-host`: the site's own name (the HTTPS redirect's target).
    public var publicHost: String?

    /// Where uploaded photos are kept, when `--photos` says.
    public var photos: String?
    /// `--tls-cert` and `--tls-key`: both or neither; with them the server speaks only HTTPS.
    public var tlsCertificate: String?
    public var tlsKey: String?
    /// A plain-HTTP port that redirects to HTTPS (and answers ACME challenges and /healthz).
    public var redirectHTTP: Int?
    /// The webroot certbot writes ACME HTTP-01 challenges to, served on the redirect port.
    public var acmeDirectory: String?

    /// Uploaded photos: `--photos`, or a `photos` folder beside an SQLite file; with PostgreSQL, `./photos`.
    /// What the housekeeping thread does and how often.
    package var housekeeping: Housekeeping.Settings {
        Housekeeping.Settings(
            backups: backupDirectory, database: database, photos: photosDirectory, backupHours: backupEvery,
            backupKeep: backupKeep, forgetAfter: forgetAfter, clock: clock)
    }

    public var photosDirectory: String {
        photos ?? PhotoLibrary.folder(beside: database)
    }

    package struct Option: Sendable {
        package let flag: String
        package let variable: String
        package let placeholder: String
        package let help: String
        package let current: @Sendable (ServeOptions) -> String
        /// What a valid value looks like, for the error that refuses one.
        package var expects = ""
        /// A value that may hold a secret (a token, a database URL's password) is never repeated in an error.
        package var secret = false
        /// Applies the value; false when it does not parse.
        package let apply: @Sendable (inout ServeOptions, String) -> Bool
    }

    package static let options: [Option] = [
        Option(
            flag: "--host", variable: "ARCADE_HOST", placeholder: "ADDRESS",
            help: "IPv4 or IPv6 address to listen on (or localhost)", current: { $0.server.host },
            expects: "an IPv4 or IPv6 address such as 127.0.0.1 or ::, or localhost"
        ) {
            guard let address = ServeOptions.listenAddress($1) else { return false }
            $0.server.host = address
            return true
        },
        integer("--port", "ARCADE_PORT", "N", "TCP port; 0 picks a free one", \.server.port, 0...65535),
        integer(
            "--workers", "ARCADE_WORKERS", "N", "event-loop threads (default: one per usable CPU)", \.server.workers,
            1...256),
        Option(
            flag: "--db", variable: "ARCADE_DB", placeholder: "PATH|URL",
            help: "SQLite file (PATH or sqlite:PATH, created if missing) or postgresql://USER@HOST:PORT/DB",
            current: { $0.database.description },
            expects: "a file path, sqlite:PATH, or postgresql://USER@HOST:PORT/DB", secret: true
        ) {
            guard let location = try? DatabaseLocation(parsing: $1) else { return false }
            $0.database = location
            return true
        },
        path(
            "--photos", "ARCADE_PHOTOS", "DIR",
            "uploaded photos (with PostgreSQL, each instance's copy; the database holds them all)", \.photos,
            current: { $0.photosDirectory }),
        path(
            "--backup-dir", "ARCADE_BACKUP_DIR", "DIR",
            "take scheduled backups into DIR (on PostgreSQL, the leading instance does)", \.backupDirectory),
        Option(
            flag: "--backup-every", variable: "ARCADE_BACKUP_EVERY", placeholder: "HOURS",
            help: "hours between scheduled backups", current: { ServeOptions.format($0.backupEvery) },
            expects: "hours, more than 0 and at most 8784"
        ) {
            guard let hours = Double($1), hours > 0, hours <= 24 * 366 else { return false }
            $0.backupEvery = hours
            return true
        },
        integer(
            "--backup-keep", "ARCADE_BACKUP_KEEP", "N", "scheduled backups kept (older ones are removed)",
            \.backupKeep, 1...10_000),
        integer(
            "--forget-after", "ARCADE_FORGET_AFTER", "DAYS",
            "delete players without results not seen for DAYS (0: keep them)", \.forgetAfter, 0...36_500),
        Option(
            flag: "--metrics-token", variable: "ARCADE_METRICS_TOKEN", placeholder: "TOKEN",
            help: "/metrics needs 'Authorization: Bearer TOKEN' (without: loopback clients only)",
            current: { $0.metricsToken == nil ? "none" : "set" },
            expects: "a token of 16 characters or more, printable ASCII without spaces (e.g. openssl rand -hex 16)",
            secret: true
        ) {
            guard $1.utf8.count >= 16, $1.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return false }
            $0.metricsToken = $1
            return true
        },
        path(
            "--share-dir", "ARCADE_SHARE_DIR", "DIR",
            "folder holding Public, Templates, Localizations and Config (default: share/arcade beside an installed"
                + " binary, else the current folder)", \.shareDirectory,
            current: { $0.shareDirectory ?? ServeOptions.installedShare() ?? "." }),
        folder("--public", "ARCADE_PUBLIC", "directory served at the site root", \.publicDirectory),
        folder("--templates", "ARCADE_TEMPLATES", "Mustache templates, parsed at start-up", \.templates),
        folder(
            "--localizations", "ARCADE_LOCALIZATIONS", "<lang>.lproj folders of .strings and .stringsdict files",
            \.localizations),
        folder("--config", "ARCADE_CONFIG", "folder of Constants.plist and its overrides", \.config),
        Option(
            flag: "--env", variable: "ARCADE_ENV", placeholder: "NAME[,NAME]",
            help: "apply Constants_NAME.plist overrides, in order",
            current: { $0.environments.isEmpty ? "none" : $0.environments.joined(separator: ",") },
            expects: "names of letters, digits, - and _, separated by commas"
        ) {
            let names = $1.split(separator: ",").map(String.init)
            guard
                names.allSatisfy({
                    !$0.isEmpty && $0.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }
                })
            else { return false }
            $0.environments = names
            return true
        },
        toggle(
            "--demo-people", "ARCADE_DEMO_PEOPLE",
            "on a first start, fill the Name Game with the bundled fictional people (off: an empty directory)",
            \.demoPeople),
        toggle("--dev", "ARCADE_DEV", "reload changed templates on the next request", \.dev),
        toggle(
            "--secure-cookies", "ARCADE_SECURE_COOKIES", "mark cookies Secure (when served over TLS)", \.secureCookies),
        path(
            "--tls-cert", "ARCADE_TLS_CERT", "FILE",
            "serve HTTPS with this PEM certificate (and its chain); needs --tls-key", \.tlsCertificate),
        path(
            "--tls-key", "ARCADE_TLS_KEY", "FILE",
            "the certificate's PEM private key; both reload on SIGHUP or when they change", \.tlsKey),
        integer(
            "--hsts-max-age", "ARCADE_HSTS_MAX_AGE", "SECONDS",
            "under TLS, Strict-Transport-Security's max-age (0: not sent)",
            \.server.hstsMaxAge, 0...Int.max),
        Option(
            flag: "--redirect-http", variable: "ARCADE_REDIRECT_HTTP", placeholder: "PORT",
            help: "also listen for plain HTTP here and answer 308 to HTTPS (0: off)",
            current: { $0.redirectHTTP.map { "\($0)" } ?? "0" },
            expects: "a port, 0…65535"
        ) {
            guard let port = Int($1), (0...65535).contains(port) else { return false }
            $0.redirectHTTP = port == 0 ? nil : port
            return true
        },
        path(
            "--acme-dir", "ARCADE_ACME_DIR", "DIR",
            "certbot's --webroot: /.well-known/acme-challenge/ is served from it on --redirect-http", \.acmeDirectory),
        integer(
            "--max-connections", "ARCADE_MAX_CONNECTIONS", "N", "connections open at once; more get 503",
            \.server.maxConnections, 1...Int.max),
        integer(
            "--max-connections-per-address", "ARCADE_MAX_CONNECTIONS_PER_ADDRESS", "N",
            "page connections one client (IPv4 address, IPv6 /64) may hold (trusted proxies: no cap); more get 503",
            \.server.maxConnectionsPerAddress, 1...Int.max),
        integer(
            "--max-streams-per-address", "ARCADE_MAX_STREAMS_PER_ADDRESS", "N",
            "live-update streams (one per open tab) one client may hold besides; more get 503 and poll",
            \.server.maxStreamsPerAddress, 1...Int.max),
        seconds(
            "--stream-lifetime", "ARCADE_STREAM_LIFETIME", "an event stream stays open before the client reconnects",
            \.streamLifetime),
        integer(
            "--max-body", "ARCADE_MAX_BODY", "BYTES", "largest request body; larger gets 413", \.server.limits.maxBody,
            0...Int.max),
        integer(
            "--max-upload", "ARCADE_MAX_UPLOAD", "BYTES", "largest upload to /admin/people (photos, imports)",
            \.server.limits.maxUploadBody, 0...Int.max),
        seconds("--header-timeout", "ARCADE_HEADER_TIMEOUT", "to receive a request head", \.headerTimeout),
        seconds("--body-timeout", "ARCADE_BODY_TIMEOUT", "allowed between reads of a body", \.bodyTimeout),
        seconds(
            "--body-grace", "ARCADE_BODY_GRACE", "a body may take before --min-body-rate applies", \.bodyGracePeriod),
        integer(
            "--min-body-rate", "ARCADE_MIN_BODY_RATE", "BYTES",
            "bytes a second a body must average after --body-grace, or 408 (0: off)", \.server.minBodyRate, 0...Int.max),
        seconds("--idle-timeout", "ARCADE_IDLE_TIMEOUT", "an idle keep-alive connection stays open", \.idleTimeout),
        seconds(
            "--write-timeout", "ARCADE_WRITE_TIMEOUT", "a response may stall on a client that does not read",
            \.writeTimeout),
        integer(
            "--hash-threads", "ARCADE_HASH_THREADS", "N",
            "password hashes at once (sign-ins beyond them and a short queue get 503)", \.hashThreads, 1...64),
        Option(
            flag: "--public-host", variable: "ARCADE_PUBLIC_HOST", placeholder: "HOST",
            help: "the site's own host name: the HTTPS redirect points there, not at the request's Host",
            current: { $0.publicHost ?? "none" },
            expects: "a host name or IP address without scheme, port or path, such as arcade.example.com"
        ) {
            let host = $1.lowercased()
            guard Constants.Form.host(ofHTTPS: "https://" + host) == host, !host.contains(":") else { return false }
            $0.publicHost = host
            return true
        },
        Option(
            flag: "--client-address-header", variable: "ARCADE_CLIENT_ADDRESS_HEADER", placeholder: "NAME",
            help: "the one header a trusted proxy names the client in: X-Forwarded-For, Forwarded or X-Real-IP",
            current: { $0.server.trustedProxies.header?.rawValue ?? "none" },
            expects: "X-Forwarded-For, Forwarded or X-Real-IP"
        ) {
            guard let header = TrustedProxies.Header(name: $1) else { return false }
            $0.server.trustedProxies.header = header
            return true
        },
        Option(
            flag: "--trusted-proxies", variable: "ARCADE_TRUSTED_PROXIES", placeholder: "CIDR[,CIDR]",
            help: "peers whose --client-address-header is read (default with a header: loopback)",
            current: { $0.trustedProxiesText.isEmpty ? "none" : $0.trustedProxiesText },
            expects: "addresses or CIDR networks separated by commas, such as 127.0.0.1,10.0.0.0/8,::1"
        ) {
            guard var proxies = TrustedProxies(parsing: $1) else { return false }
            proxies.header = $0.server.trustedProxies.header
            $0.server.trustedProxies = proxies
            $0.trustedProxiesText = $1
            return true
        },
        Option(
            flag: "--random-hosts", variable: "ARCADE_RANDOM_HOSTS", placeholder: "HOST[,HOST]",
            help: "hosts mastermind.randomOrgURL may name (https only)",
            current: { $0.randomHosts.joined(separator: ",") },
            expects: "host names (or host:port) separated by commas"
        ) {
            let hosts = $1.split(separator: ",").map { $0.lowercased() }
            guard !hosts.isEmpty, hosts.allSatisfy({ Constants.Form.host(ofHTTPS: "https://" + $0) == $0 }) else {
                return false
            }
            $0.randomHosts = hosts
            return true
        },
        integer(
            "--new-players-per-minute", "ARCADE_NEW_PLAYERS_PER_MINUTE", "N",
            "players an address may make a minute (each action without a player cookie makes one; more get 429)",
            \.newPlayersPerMinute, 1...100_000),
        integer(
            "--max-queued-writes", "ARCADE_MAX_QUEUED_WRITES", "N",
            "writes waiting for the database at once; more get 503",
            \.maxQueuedWrites, 1...1_000_000),
        Option(
            flag: "--access-log", variable: "ARCADE_ACCESS_LOG", placeholder: "on|off|json",
            help: "one line per request on standard output (json: also sets --log-format json)",
            current: { $0.server.accessLog ? ($0.server.accessLogJSON ? "json" : "on") : "off" },
            expects: "on, off or json"
        ) {
            let json = $1 == "json"
            guard let on = json ? true : ServeOptions.onOff($1) else { return false }
            $0.server.accessLog = on
            $0.server.accessLogJSON = json
            return true
        },
        Option(
            flag: "--log-format", variable: "ARCADE_LOG_FORMAT", placeholder: "plain|json",
            help: "every log line as text with a UTC timestamp, or as one JSON object (time, level, msg, fields)",
            current: { $0.logJSON ? "json" : "plain" },
            expects: "plain or json"
        ) {
            switch $1 {
            case "plain": $0.logFormat = .plain
            case "json": $0.logFormat = .json
            default: return false
            }
            return true
        },
        Option(
            flag: "--log-level", variable: "ARCADE_LOG_LEVEL", placeholder: "LEVEL",
            help: "the least a line must matter to be logged: debug, info, notice, warning or error",
            current: { $0.logLevel.name },
            expects: "debug, info, notice, warning or error"
        ) {
            guard let level = LogLevel(name: $1) else { return false }
            $0.logLevel = level
            return true
        },
    ]

    /// A folder or file path: any non-empty text.
    private static func folder(
        _ flag: String, _ variable: String, _ help: String,
        _ key: WritableKeyPath<ServeOptions, String> & Sendable
    ) -> Option {
        Option(
            flag: flag, variable: variable, placeholder: "DIR", help: help, current: { $0[keyPath: key] },
            expects: "a folder's path"
        ) {
            guard !$1.isEmpty else { return false }
            $0[keyPath: key] = $1
            return true
        }
    }

    /// A path that is unset until given: any non-empty text ("none", or what `current` says, in the help).
    private static func path(
        _ flag: String, _ variable: String, _ placeholder: String, _ help: String,
        _ key: WritableKeyPath<ServeOptions, String?> & Sendable,
        current: (@Sendable (ServeOptions) -> String)? = nil
    ) -> Option {
        Option(
            flag: flag, variable: variable, placeholder: placeholder, help: help,
            current: current ?? { $0[keyPath: key] ?? "none" }, expects: "a path"
        ) {
            guard !$1.isEmpty else { return false }
            $0[keyPath: key] = $1
            return true
        }
    }

    private static func toggle(
        _ flag: String, _ variable: String, _ help: String,
        _ key: WritableKeyPath<ServeOptions, Bool> & Sendable
    ) -> Option {
        Option(
            flag: flag, variable: variable, placeholder: "on|off", help: help,
            current: { $0[keyPath: key] ? "on" : "off" }, expects: "on or off"
        ) {
            guard let on = ServeOptions.onOff($1) else { return false }
            $0[keyPath: key] = on
            return true
        }
    }

    private static func integer(
        _ flag: String, _ variable: String, _ placeholder: String, _ help: String,
        _ key: WritableKeyPath<ServeOptions, Int> & Sendable, _ range: ClosedRange<Int>
    ) -> Option {
        Option(
            flag: flag, variable: variable, placeholder: placeholder, help: help,
            current: { "\($0[keyPath: key])" },
            expects: "a whole number, "
                + (range.upperBound == Int.max
                    ? "\(range.lowerBound) or more" : "\(range.lowerBound)…\(range.upperBound)")
        ) {
            guard let n = Int($1), range.contains(n) else { return false }
            $0[keyPath: key] = n
            return true
        }
    }

    private static func seconds(
        _ flag: String, _ variable: String, _ what: String,
        _ key: WritableKeyPath<ServerConfiguration, Double> & Sendable
    ) -> Option {
        Option(
            flag: flag, variable: variable, placeholder: "SECONDS", help: "seconds \(what)",
            current: { ServeOptions.format($0.server[keyPath: key]) },
            expects: "seconds, more than 0 and at most 86400"
        ) {
            guard let value = Double($1), value > 0, value <= 86_400 else { return false }
            $0.server[keyPath: key] = value
            return true
        }
    }

    /// An IP literal to bind; `localhost` means the IPv4 loopback. Names
    /// are refused: binding must not depend on a resolver.
    package static func listenAddress(_ text: String) -> String? {
        if text == "localhost" { return "127.0.0.1" }
        var v4 = in_addr()
        var v6 = in6_addr()
        if inet_pton(AF_INET, text, &v4) == 1 || inet_pton(AF_INET6, text, &v6) == 1 { return text }
        return nil
    }

    package static func onOff(_ text: String) -> Bool? {
        switch text {
        case "on", "1", "true", "yes": true
        case "off", "0", "false", "no": false
        default: nil
        }
    }

    package static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? "\(Int(seconds))" : "\(seconds)"
    }

    /// Reads the environment, then the flags.
    package static func parse(
        _ arguments: ArraySlice<String>, environment: (String) -> String?
    ) throws(UsageError) -> ServeOptions {
        var result = ServeOptions()
        var given: Set<String> = []
        for option in options {
            guard let value = environment(option.variable) else { continue }
            guard option.apply(&result, value) else { throw option.refusal(value, in: option.variable) }
            given.insert(option.flag)
        }
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            var name = argument
            var inlineValue: String?
            if let eq = argument.firstIndex(of: "="), argument.hasPrefix("--") {
                name = String(argument[..<eq])
                inlineValue = String(argument[argument.index(after: eq)...])
            }
            guard let option = options.first(where: { $0.flag == name }) else {
                throw UsageError("unknown option '\(argument)'")
            }
            guard let value = inlineValue ?? rest.popFirst() else {
                throw UsageError("\(option.flag) needs a value (\(option.placeholder))")
            }
            guard option.apply(&result, value) else { throw option.refusal(value, in: option.flag) }
            given.insert(option.flag)
        }
        result.placeSiteFolders(given: given)
        try result.settleClientAddress()
        try result.settleLogFormat()
        switch (result.tlsCertificate, result.tlsKey) {
        case (let certificate?, let key?):
            result.server.tls = TLSFiles(certificate: certificate, key: key)
            result.secureCookies = true  // cookies sent over HTTPS never travel in clear text
        case (nil, nil):
            if result.redirectHTTP != nil { throw UsageError("--redirect-http needs --tls-cert and --tls-key") }
        default:
            throw UsageError("--tls-cert and --tls-key go together")
        }
        return result
    }

    /// The site's folders not given one by one, inside the share folder (when there is one).
    private mutating func placeSiteFolders(given: Set<String>) {
        guard let share = shareDirectory ?? ServeOptions.installedShare() else { return }
        if !given.contains("--public") { publicDirectory = share + "/Public" }
        if !given.contains("--templates") { templates = share + "/Templates" }
        if !given.contains("--localizations") { localizations = share + "/Localizations" }
        if !given.contains("--config") { config = share + "/Config" }
    }

    /// `PREFIX/share/arcade` for a binary installed as `PREFIX/bin/arcade`, when that folder holds templates.
    package static func installedShare() -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        let executable = String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        let bin = executable[..<(executable.lastIndex(of: "/") ?? executable.startIndex)]
        guard let slash = bin.lastIndex(of: "/") else { return nil }
        let share = String(bin[..<slash]) + "/share/arcade"
        var status = stat()
        guard stat(share + "/Templates", &status) == 0, status.st_mode & S_IFMT == S_IFDIR else { return nil }
        return share
    }

    /// A file a constant names, such as `namegame.profiles`: relative paths are inside the `--config` folder.
    package func configFile(_ path: String) -> String {
        path.hasPrefix("/") || path.hasPrefix("http://") || path.hasPrefix("https://") ? path : config + "/" + path
    }

    /// A named header without proxies trusts loopback (a proxy on this machine); proxies without a header would
    /// trust nothing they say, which is surely not what was meant.
    private mutating func settleClientAddress() throws(UsageError) {
        let header = server.trustedProxies.header
        if header != nil && trustedProxiesText.isEmpty {
            server.trustedProxies = TrustedProxies.loopback
            server.trustedProxies.header = header
        } else if header == nil && !trustedProxiesText.isEmpty {
            throw UsageError(
                "--trusted-proxies needs --client-address-header: the header those proxies name the client in "
                    + "(X-Forwarded-For, Forwarded or X-Real-IP)")
        }
    }

    /// One format for every line: JSON logs make JSON access lines; plain logs cannot have them.
    private mutating func settleLogFormat() throws(UsageError) {
        if logFormat == .plain && server.accessLogJSON {
            throw UsageError("--access-log json writes JSON logs; it cannot go with --log-format plain")
        }
        server.accessLogJSON = logJSON
    }

    /// Whether arguments and environment ask for JSON logs, read without parsing the rest (an error in it is still
    /// logged as JSON).
    package static func asksForJSON(_ arguments: ArraySlice<String>, environment: (String) -> String?) -> Bool {
        let flags = ["--log-format", "--access-log"]
        if environment("ARCADE_LOG_FORMAT") == "json" || environment("ARCADE_ACCESS_LOG") == "json" { return true }
        return zip(arguments, arguments.dropFirst()).contains { flags.contains($0.0) && $0.1 == "json" }
            || arguments.contains { argument in flags.contains { argument == $0 + "=json" } }
    }

    /// The site's files that other users of this machine could read (made before they were made 0600, or by hand):
    /// the database and its WAL and SHM files hold the cookie-signing key, the daily code's secret and password hashes.
    package func filesOthersCanRead() -> [String] {
        var paths: [String] = []
        if case .sqlite(let path) = database { paths += [path, path + "-wal", path + "-shm"] }
        paths.append(photosDirectory)
        if let backupDirectory {
            paths.append(backupDirectory)
            paths += (Files.list(backupDirectory) ?? []).map { backupDirectory + "/" + $0 }
        }
        return paths.compactMap { path in
            var info = stat()
            guard stat(path, &info) == 0, info.st_mode & 0o077 != 0 else { return nil }
            let folder = info.st_mode & S_IFMT == S_IFDIR
            return "\(path) is open to other users (mode \(String(info.st_mode & 0o777, radix: 8))) and holds the "
                + "site's secrets: chmod \(folder ? "700" : "600") it"
        }
    }

    package static func environment(_ name: String) -> String? { getenv(name).map { String(cString: $0) } }
}

/// The instance is shutting down (set once, read by `/readyz` on the event loops).
public final class Draining: Sendable {
    private let flag = Atomic<Bool>(false)
    public init() {}
    public func begin() { flag.store(true, ordering: .relaxed) }
    public var isOn: Bool { flag.load(ordering: .relaxed) }
}

extension ServeOptions.Option {
    /// What was wrong and what would do; the value itself only when it cannot be a secret.
    package func refusal(_ value: String, in source: String) -> UsageError {
        let shown = secret ? "" : " '\(value)'"
        return UsageError("invalid value\(shown) for \(source): expected \(expects.isEmpty ? placeholder : expects)")
    }
}
