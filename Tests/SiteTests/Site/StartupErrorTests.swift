import Storage
import TestSupport
import Testing

@testable import ArcadeStore
@testable import ArcadeWeb

#if canImport(Glibc)
import Glibc
#endif

/// Whatever stops the site from starting is one `StartupError` naming the file at fault.
@Suite("Start-up errors")
struct StartupErrorTests {
    let scratch = ScratchDirectory()

    /// A copy of the real templates to break.
    func templates(without missing: String? = nil, replacing name: String? = nil, with text: String = "") -> String {
        let directory = scratch.path + "/Templates"
        _ = system("mkdir -p '\(directory)' && cp Templates/*.mustache '\(directory)/'")
        if let missing { _ = system("rm '\(directory)/\(missing).mustache'") }
        if let name { scratch.write("Templates/\(name).mustache", text) }
        return directory
    }

    func start(_ configure: (inout ServeOptions) -> Void) -> StartupError? {
        var options = ServeOptions()
        // A database of its own each time: a start that failed may hold the last one's lock a moment longer (a clean-
        // clone run on a busy machine saw the next start refused on "site.sqlite" instead of the missing folder).
        options.database = .sqlite(scratch.path + "/site-\(UInt64.random(in: 0...UInt64.max)).sqlite")
        configure(&options)
        do {
            _ = try Site(options: options)
            return nil
        } catch {
            return error as? StartupError
        }
    }

    @Test func aMissingTemplateIsNamed() {
        let directory = templates(without: "home")
        #expect(start { $0.templates = directory } == .missing(file: directory + "/home.mustache"))
    }

    @Test func aTemplateSyntaxErrorNamesLineAndColumn() {
        let directory = templates(replacing: "home", with: "<p>\n  {{#games}}\n")
        let error = start { $0.templates = directory }
        #expect(
            error
                == .invalid(
                    file: directory + "/home.mustache:2:3", reason: "expected {{/games}} before the end of the template"
                ))
        #expect(
            error?.description == directory + "/home.mustache:2:3: expected {{/games}} before the end of the template")
    }

    @Test func aDatabaseThatCannotOpenIsNamed() {
        let path = scratch.path + "/no/such/directory/site.sqlite"
        let error = start { $0.database = .sqlite(path) }
        guard case .database(let file, _)? = error else {
            Issue.record("\(String(describing: error))")
            return
        }
        #expect(file == path)
    }

    @Test func anUnreachablePostgreSQLServerOrAFailedMigrationStopsStartUpClearly() throws {
        let url = "postgresql://arcade:hidden@127.0.0.1:1/arcade?connect_timeout=2"
        guard case .database(let name, let reason)? = start({ $0.database = .postgresql(url) }) else {
            Issue.record("an unreachable server did not stop start-up")
            return
        }
        #expect(name == "postgresql://arcade@127.0.0.1:1/arcade?connect_timeout=2")
        #expect(reason.contains("cannot connect") && !reason.contains("hidden"), "\(reason)")
        // A schema newer than this build: refused, nothing changed.
        let location = try TestDatabase.fresh(.postgresql, in: scratch)
        let db = try Database(location: location)
        try db.executeScript(
            "CREATE TABLE arcade_schema (version BIGINT NOT NULL); INSERT INTO arcade_schema VALUES (999)")
        guard case .database(_, let newer)? = start({ $0.database = location }) else {
            Issue.record("a newer schema did not stop start-up")
            return
        }
        #expect(newer.contains("schema version 999 is newer"), "\(newer)")
    }

    /// Without libpq, a PostgreSQL URL stops start-up naming the package to install (SQLite needs none of it).
    @Test func aMissingLibpqIsNamedWithItsPackage() throws {
        let child = try ChildProcess(
            ["--port", "0", "--db", "postgresql://arcade@127.0.0.1:1/arcade"],
            environment: ["ARCADE_LIBPQ": "/nonexistent/libpq.so.5"])
        #expect(child.wait(timeout: 10) == 1)
        #expect(child.standardError.contains("apt-get install libpq5"), "\(child.standardError)")
        let sqlite = try ChildProcess(
            ["--port", "0", "--db", scratch.path + "/fine.sqlite"],
            environment: ["ARCADE_LIBPQ": "/nonexistent/libpq.so.5"])
        _ = try sqlite.waitForPort(timeout: 30)
        sqlite.signal(SIGTERM)
        #expect(sqlite.wait(timeout: 10) == 0)
    }

    @Test func missingDirectoriesAreNamed() {
        let publicDirectory = scratch.path + "/no-public"
        guard case .unreadable(let file, _)? = start({ $0.publicDirectory = publicDirectory }) else {
            Issue.record("a missing public directory was not reported as unreadable")
            return
        }
        #expect(file == publicDirectory)
        let localizations = scratch.path + "/no-localizations"
        #expect(start { $0.localizations = localizations }?.file == localizations)
        let config = scratch.path + "/no-config"
        #expect(start { $0.config = config }?.file == config)
    }

    @Test func aBrokenCheatsFileNamesLineAndColumn() {
        scratch.write("cheats.json", "{\"cheats\": [\n{\"name\": \"x\",}\n]}")
        do {
            _ = try CheatBook.load(scratch.path + "/cheats.json")
            Issue.record("accepted")
        } catch let error as StartupError {
            guard case .invalid(let file, _) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(file.hasPrefix(scratch.path + "/cheats.json:2:"))
        } catch {
            Issue.record("not a start-up error: \(error)")
        }
    }
}
