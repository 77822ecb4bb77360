import ArcadeStore
import ArcadeWeb
import CSystem
import Files
import HTTPServer
import JSON
import Localization
import Logger
import PropertyList
import Storage

#if canImport(Glibc)
import Glibc
#endif

/// `arcade [serve] [options]`: the entry point the executable calls.
public enum CommandLineTool {
    public static func main(_ arguments: [String]) -> Int32 {
        // Everything made from here on (the database and its WAL and SHM files, backups, photos, the first admin's
        // password) holds secrets: readable by this user only.
        umask(0o077)
        var rest = arguments.dropFirst()
        if rest.first == "-h" || rest.first == "--help" || rest.first == "help" {
            write(usage(), to: 1)
            return 0
        }
        if rest.first == "--version" || rest.first == "version" {
            write(Build.description + "\n", to: 1)
            return 0
        }
        if rest.first == "strings" { return strings(Array(rest.dropFirst())) }
        if rest.first == "mastermind" { return MastermindCommand.run(Array(rest.dropFirst())) }
        if rest.first == "admin" { return adminCommand(Array(rest.dropFirst())) }
        if rest.first == "db" { return databaseCommand(Array(rest.dropFirst())) }
        if rest.first == "serve" { rest = rest.dropFirst() }
        if rest.contains("-h") || rest.contains("--help") {
            write(usage(), to: 1)
            return 0
        }
        if let first = rest.first, !first.hasPrefix("-") {
            return fail(UsageError("unknown command '\(first)'"))
        }
        let options: ServeOptions
        do {
            options = try ServeOptions.parse(rest, environment: ServeOptions.environment)
        } catch {
            // A service that logs JSON is read by a machine: one object, not the usage text.
            guard ServeOptions.asksForJSON(rest, environment: ServeOptions.environment) else { return fail(error) }
            Log.format = .json
            Log.error("\(error) (arcade --help lists the options)")
            return 2
        }
        return serve(options)
    }

    static func serve(_ options: ServeOptions) -> Int32 {
        // Before the site starts any thread: every thread must leave SIGINT, SIGTERM and SIGHUP to the one that waits
        // for them (between two polls of the certificate files no thread waits, and one that did not block them
        // would take the default action: exit).
        _ = csys_block_shutdown_signals()
        Log.format = options.logJSON ? .json : .plain
        Log.level = options.logLevel
        // Lines left out by the rate limit are counted on the way out, whatever the way.
        defer { Log.flushRepeated() }
        do {
            let site = try Site(options: options)
            for warning in options.filesOthersCanRead() { Log.warning(warning) }
            let server = try HTTPServer(configuration: options.server, responder: site.routes)
            let scheme = server.tls == nil ? "http" : "https"
            Log.notice(
                "serving \(options.publicDirectory) on \(scheme)://\(display(options.server.host)):\(server.port)"
                    + " with \(server.configuration.workers) worker(s), database \(options.database)",
                ["port": .int(server.port), "version": .string(Build.version)])
            var redirect: HTTPServer?
            if let tls = server.tls {
                Log.info(
                    "TLS 1.2 and 1.3 with \(tls.summary); "
                        + (tls.kernelTLS
                            ? "kernel TLS (kTLS): files go out with sendfile, zero-copy"
                            : "no kernel TLS (the tls module is not loaded): files are encrypted from a buffer"))
                if let port = options.redirectHTTP {
                    var plain = options.server
                    plain.port = port
                    plain.tls = nil
                    plain.workers = 1
                    let responder = try HTTPSRedirect(
                        httpsPort: server.port, publicHost: options.publicHost, acmeDirectory: options.acmeDirectory,
                        passing: ["/healthz"], to: site.routes)
                    redirect = try HTTPServer(configuration: plain, responder: responder)
                    redirect?.start()
                    Log.info(
                        "redirecting http://\(display(options.server.host)):\(redirect!.port) to HTTPS"
                            + (options.acmeDirectory.map { ", ACME challenges from \($0)" } ?? ""))
                }
            }
            let signal = server.runUntilSignalled(
                ready: { _ = csys_sd_notify("READY=1\nSTATUS=serving on port \(server.port)") },
                draining: {
                    options.draining.begin()
                    _ = csys_sd_notify("STOPPING=1")
                })
            redirect?.shutdown()
            redirect?.wait()
            site.close()
            Log.notice("stopped on signal \(signal)", ["signal": .int(Int(signal))])
            return 0
        } catch {
            Log.error("\(error)")
            return 1
        }
    }

    /// `arcade strings FILE`: the parsed table as JSON with sorted keys; for a `.stringsdict`, each key's format and
    /// its variables' forms.
    static func strings(_ arguments: [String]) -> Int32 {
        guard arguments.count == 1, !arguments[0].hasPrefix("-") else {
            return fail(UsageError("strings takes one .strings or .stringsdict file"))
        }
        let path = arguments[0]
        guard let bytes = Files.read(path) else {
            write("arcade: cannot read \(path)\n", to: 2)
            return 1
        }
        do {
            let json: JSONValue
            if path.hasSuffix(".stringsdict") {
                let plurals = try PluralFormat.entries(
                    from: try PropertyListParser.parse(bytes, file: path), file: path)
                json = .object(
                    plurals.map { key, plural in
                        (
                            key,
                            .object([
                                ("format", .string(plural.format)),
                                (
                                    "variables",
                                    .object(
                                        plural.variables.map { name, variable in
                                            (
                                                name,
                                                .object([
                                                    ("type", .string(variable.valueType)),
                                                    (
                                                        "forms",
                                                        .object(
                                                            variable.forms.map { ($0.key.rawValue, .string($0.value)) })
                                                    ),
                                                ])
                                            )
                                        })
                                ),
                            ])
                        )
                    })
            } else {
                json = .object(
                    try StringsFile(bytes: bytes, file: path).table.map { ($0.key, JSONValue.string($0.value)) })
            }
            write(JSONWriter(sortedKeys: true, indent: 2).string(json) + "\n", to: 1)
            return 0
        } catch {
            write("\(error)\n", to: 2)
            return 1
        }
    }

    /// `arcade admin create|password NAME`, `arcade admin remove|totp-off NAME`, `arcade admin list` (each with
    /// `[--db PATH]`): a password is read from standard input, never from the command line. Every change is
    /// audited as the command line's, naming the system user who ran it.
    static func adminCommand(_ arguments: [String]) -> Int32 {
        let usage = UsageError(
            "usage: arcade admin create|password|remove|totp-off NAME [--db PATH], arcade admin list [--db PATH]"
                + "  (a password comes from standard input)")
        guard let verb = arguments.first, ["create", "password", "remove", "totp-off", "list"].contains(verb) else {
            return fail(usage)
        }
        let named = verb != "list"
        guard !named || (arguments.count >= 2 && AdminStore.validName(arguments[1])) else { return fail(usage) }
        let options: ServeOptions
        do {
            options = try ServeOptions.parse(
                arguments.dropFirst(named ? 2 : 1), environment: ServeOptions.environment)
        } catch {
            return fail(error)
        }
        let name = named ? arguments[1] : ""
        var password = ""
        if verb == "create" || verb == "password" {
            password = readLine0()
            guard password.count >= 10 else {
                write("arcade: the password (from standard input) needs at least 10 characters\n", to: 2)
                return 1
            }
        }
        do {
            let pool = DatabasePool(location: options.database)
            try Schema.migrate(Database(location: options.database))
            let store = AdminStore(pool: pool)
            return try admin(verb, name, password, store)
        } catch {
            write("arcade: cannot \(verb) '\(name)': \(error)\n", to: 2)
            return 1
        }
    }

    /// One admin command on an open store; its exit status.
    private static func admin(_ verb: String, _ name: String, _ password: String, _ store: AdminStore) throws -> Int32 {
        let actor = commandLineActor()
        switch verb {
        case "create":
            try store.create(name: name, password: password, by: actor)
            write("arcade: created the admin account '\(name)'\n", to: 1)
        case "password":
            guard try store.setPassword(name: name, password: password, audit: (actor, "reset password")) else {
                write("arcade: there is no admin account '\(name)'\n", to: 2)
                return 1
            }
            write("arcade: changed the password of '\(name)' and ended its sessions\n", to: 1)
        case "remove":
            switch try store.remove(name: name, by: actor) {
            case .removed: write("arcade: removed the admin account '\(name)'\n", to: 1)
            case .noSuchAdmin:
                write("arcade: there is no admin account '\(name)'\n", to: 2)
                return 1
            case .lastAdmin:
                write("arcade: '\(name)' is the last admin account; create another first\n", to: 2)
                return 1
            }
        case "totp-off":
            guard try store.disableTwoFactor(name: name, by: actor) else {
                write("arcade: there is no admin account '\(name)'\n", to: 2)
                return 1
            }
            write("arcade: turned off the second factor of '\(name)'\n", to: 1)
        default:
            write(try store.list().map { "\($0.name)\t\(UTCTime.format($0.created))\n" }.joined(), to: 1)
        }
        return 0
    }

    /// Who the audit log names for a change made in a shell: the command line and the system user (as `sudo` had
    /// it, when it ran the command).
    static func commandLineActor() -> String {
        if let sudo = getenv("SUDO_USER").map({ String(cString: $0) }), !sudo.isEmpty {
            return "command line (\(sudo))"
        }
        guard let entry = getpwuid(getuid()), let name = entry.pointee.pw_name else { return "command line" }
        return "command line (\(String(cString: name)))"
    }

    /// A line from standard input, without its line end.
    private static func readLine0() -> String {
        var line: [UInt8] = []
        var byte: UInt8 = 0
        while Glibc.read(0, &byte, 1) == 1 && byte != 0x0A { line.append(byte) }
        if line.last == 0x0D { line.removeLast() }
        return String(decoding: line, as: UTF8.self)
    }

    /// `arcade db copy|backup|restore|prune`: the site's data, moved, saved, brought back, or trimmed.
    static func databaseCommand(_ arguments: [String]) -> Int32 {
        switch arguments.first {
        case "backup": return backupCommand(Array(arguments.dropFirst()))
        case "restore": return restoreCommand(Array(arguments.dropFirst()))
        case "prune": return pruneCommand(Array(arguments.dropFirst()))
        default: break
        }
        let usage = UsageError("usage: arcade db copy --from sqlite:PATH --to postgresql://USER@HOST:PORT/DB")
        guard arguments.count == 5, arguments[0] == "copy", arguments[1] == "--from", arguments[3] == "--to" else {
            return fail(usage)
        }
        do {
            return try copied(
                DatabaseCopy(
                    source: try DatabaseLocation(parsing: arguments[2]),
                    target: try DatabaseLocation(parsing: arguments[4])))
        } catch {
            write("arcade: \(error)\n", to: 2)
            return 1
        }
    }

    /// Runs a copy (or restore) and prints each table's rows; 1 when any count differs.
    private static func copied(_ copy: DatabaseCopy) throws -> Int32 {
        let tables = try copy.run()
        var report = ""
        for table in tables {
            report +=
                "\(table.name): \(table.rows) rows\(table.copied == table.rows ? "" : ", \(table.copied) copied")\n"
        }
        let mismatched = tables.filter { $0.rows != $0.copied }
        write(report, to: 1)
        guard mismatched.isEmpty else {
            write("arcade: the counts differ for \(mismatched.map(\.name).joined(separator: ", "))\n", to: 2)
            return 1
        }
        let total = tables.reduce(0) { $0 + $1.rows }
        write("arcade: copied \(total) rows in \(tables.count) tables to \(copy.target); the counts match\n", to: 1)
        return 0
    }

    /// `arcade db backup FILE [--db URL] [--photos DIR]`: while the site runs.
    static func backupCommand(_ arguments: [String]) -> Int32 {
        guard let file = arguments.first, !file.hasPrefix("-") else {
            return fail(UsageError("usage: arcade db backup FILE [--db PATH|URL] [--photos DIR]"))
        }
        let options: ServeOptions
        do { options = try ServeOptions.parse(arguments.dropFirst(), environment: ServeOptions.environment) } catch {
            return fail(error)
        }
        // A file over the size limit is an error to report (and clean up after), not a signal that kills.
        signal(SIGXFSZ, SIG_IGN)
        do {
            let report = try Backup(source: options.database, photos: options.photosDirectory).write(to: file)
            write(report.tables.map { "\($0.name): \($0.rows) rows\n" }.joined(), to: 1)
            write(
                "arcade: backed up \(report.rows) rows in \(report.tables.count) tables to \(file) "
                    + "(\(report.bytes) bytes, integrity ok)\n", to: 1)
            return 0
        } catch {
            write("arcade: backup failed: \(error)\n", to: 2)
            return 1
        }
    }

    /// `arcade db prune [--dry-run] [--forget-after DAYS] [--db PATH|URL]`: what the site does daily, by hand.
    static func pruneCommand(_ arguments: [String]) -> Int32 {
        let dryRun = arguments.contains("--dry-run")
        let options: ServeOptions
        do {
            options = try ServeOptions.parse(
                arguments.filter { $0 != "--dry-run" }[...], environment: ServeOptions.environment)
        } catch {
            return fail(error)
        }
        guard options.forgetAfter > 0 else {
            write("arcade: --forget-after is 0: players are kept, nothing to prune\n", to: 1)
            return 0
        }
        do {
            let db = try Database(location: options.database, role: .writer)
            try Schema.migrate(db)
            let cutoff = Int(options.clock()) - options.forgetAfter * 86_400
            let removed = try PlayerData.prune(
                before: cutoff, dryRun: dryRun, read: { db }, write: { body in try db.transaction { try body(db) } })
            write(
                dryRun
                    ? "arcade: would forget \(removed) players without results not seen for \(options.forgetAfter) days\n"
                    : "arcade: forgot \(removed) players without results not seen for \(options.forgetAfter) days\n",
                to: 1)
            return 0
        } catch {
            write("arcade: \(error)\n", to: 2)
            return 1
        }
    }

    /// `arcade db restore FILE --to sqlite:PATH|URL [--replace] [--photos DIR]`: into a stopped site.
    static func restoreCommand(_ arguments: [String]) -> Int32 {
        let usage = UsageError(
            "usage: arcade db restore FILE --to sqlite:PATH|postgresql://… [--replace] [--photos DIR]")
        guard let file = arguments.first, !file.hasPrefix("-") else { return fail(usage) }
        var rest = arguments.dropFirst()
        var target: DatabaseLocation?
        var replace = false
        var photos: String?
        while let flag = rest.popFirst() {
            switch flag {
            case "--replace": replace = true
            case "--to":
                guard let value = rest.popFirst(), let location = try? DatabaseLocation(parsing: value) else {
                    return fail(usage)
                }
                target = location
            case "--photos":
                guard let value = rest.popFirst() else { return fail(usage) }
                photos = value
            default: return fail(usage)
            }
        }
        guard let target else { return fail(usage) }
        guard access(file, R_OK) == 0 else {
            write("arcade: cannot read the backup \(file)\n", to: 2)
            return 1
        }
        var options = ServeOptions()
        options.database = target
        options.photos = photos
        do {
            // Held while it restores: a running site's database is refused, and no site starts on it meanwhile.
            let lock = try SiteLock.take(target, for: "restoring into it")
            defer { lock?.release() }
            return try copied(
                DatabaseCopy(
                    source: .sqlite(file), target: target, replace: replace, targetPhotos: options.photosDirectory))
        } catch {
            write("arcade: \(error)\n", to: 2)
            return 1
        }
    }

    private static func display(_ host: String) -> String { host.contains(":") ? "[\(host)]" : host }

    private static func fail(_ error: UsageError) -> Int32 {
        write("arcade: \(error)\n\n" + usage(), to: 2)
        return 2
    }

    static func usage() -> String {
        let defaults = ServeOptions()
        var text = """
            Arcade: a self-hosted retro game site.

            USAGE:
              arcade [serve] [OPTIONS]    serve the site (the default command)
              arcade strings FILE         print a .strings or .stringsdict file as JSON (keys sorted)
              arcade mastermind score SECRET GUESS
                                          print the pegs as "red blue gray"
              arcade mastermind solve-all play the hint solver against every secret
              arcade admin create NAME [--db PATH]
                                          add an admin; the password is read from standard input
              arcade admin password|remove|totp-off NAME [--db PATH]
                                          reset a password (from standard input), remove an admin, or
                                          turn off their second factor; each is audited
              arcade admin list [--db PATH]
                                          list the admin accounts
              arcade db copy --from sqlite:PATH --to postgresql://USER@HOST:PORT/DB
                                          copy a stopped site's data into an empty database
              arcade db backup FILE [--db PATH|URL]
                                          a consistent SQLite copy of a running site, checked, then named FILE
              arcade db restore FILE --to sqlite:PATH|URL [--replace]
                                          a backup into a stopped site's database (--replace: over its data)
              arcade db prune [--dry-run] [--forget-after DAYS] [--db PATH|URL]
                                          forget players without results not seen for DAYS (default 30)
              arcade --version            print the version and the git commit it was built from
              arcade --help               show this help

            OPTIONS (each may also be set by the environment variable shown):

            """
        let rows = ServeOptions.options.map { ("\($0.flag) \($0.placeholder)", $0) }
        let width = rows.map(\.0.count).max()! + 2
        for (left, option) in rows {
            let pad = String(repeating: " ", count: width - left.count)
            text += "  \(left)\(pad)\(option.help)\n"
            text +=
                "  \(String(repeating: " ", count: width))default: \(option.current(defaults)); env: \(option.variable)\n"
        }
        text += "  -h, --help\(String(repeating: " ", count: width - 10))show this help\n"
        text += "\nStop with Ctrl-C or SIGTERM: in-flight requests finish, then the server exits 0.\n"
        text +=
            "Logs: debug, info and notice lines on standard output, warnings and errors on standard error; plain\n"
            + "lines start with a UTC timestamp, JSON lines (--log-format json) are one object each: time, level, msg.\n"
        return text
    }

    static func write(_ text: String, to fd: Int32) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if n <= 0 { return }
            bytes = bytes.dropFirst(n)
        }
    }
}
