import Files
import HTTPServer
import TestSupport
import Testing

@testable import ArcadeStore
@testable import ArcadeWeb

#if canImport(Glibc)
import Glibc
#endif

/// The database (cookie-signing key, the daily code's secret, password hashes), its backups and photos are the site's
/// alone; the first admin's password and query strings stay out of the log; files served carry a sandboxing CSP;
/// option errors say what would do without repeating a secret. Each fails on 8f8cef3.
@Suite("Secret files and logs", .serialized)
struct SecretFilesTests {
    func mode(_ path: String) -> UInt32? {
        var info = stat()
        return stat(path, &info) == 0 ? UInt32(info.st_mode & 0o777) : nil
    }

    /// On 8f8cef3 the database, its WAL and SHM files and backups were 0644, and the password was in the log.
    @Test func filesAreTheSitesAloneAndThePasswordIsNotLogged() throws {
        let scratch = ScratchDirectory()
        let db = scratch.path + "/a.sqlite"
        let child = try ChildProcess(["--port", "0", "--db", db, "--access-log", "on"])
        let port = try child.waitForPort(timeout: 30)
        let site = RemoteSite(port: port, database: .sqlite(db))
        #expect(try site.get("/healthz?token=s3cret-value&x=1").status == 200)
        for path in [db, db + "-wal", db + "-shm"] { #expect(mode(path) == 0o600, "\(path)") }
        // The password: in a file only this user reads, which the log names; not in the log.
        let file = scratch.path + "/arcade-admin-password.txt"
        let password = readText(file).trimmingSuffix
        #expect(password.count == 20)
        #expect(mode(file) == 0o600)
        let end = csysNow() + 10
        while !child.standardOutput.contains("/healthz"), csysNow() < end { sleep(seconds: 0.02) }
        let log = child.standardOutput + child.standardError
        #expect(log.contains("its password is in \(file)"), "\(log)")
        #expect(!log.contains(password))
        // The plain access log keeps a query's names, never its values.
        #expect(log.contains("GET /healthz?token&x 200"), "\(log)")
        #expect(!log.contains("s3cret"))
        // A backup of the running site.
        let backup = try ChildProcess(["db", "backup", scratch.path + "/copy.sqlite", "--db", db])
        #expect(backup.wait(timeout: 60) == 0, "\(backup.standardError)")
        #expect(mode(scratch.path + "/copy.sqlite") == 0o600)
    }

    @Test func photosAreKeptPrivately() {
        let scratch = ScratchDirectory()
        #expect(Files.writeDurably([1, 2, 3], to: scratch.path + "/photos/a.png"))
        #expect(mode(scratch.path + "/photos") == 0o700)
        #expect(mode(scratch.path + "/photos/a.png") == 0o600)
    }

    /// A database made before (or by hand) that others can read is named at start-up.
    @Test func startUpWarnsOfFilesOthersCanRead() throws {
        let scratch = ScratchDirectory()
        let db = scratch.path + "/old.sqlite"
        scratch.write("old.sqlite", "")
        chmod(db, 0o644)
        let child = try ChildProcess(["--port", "0", "--db", db, "--access-log", "off"])
        _ = try child.waitForPort(timeout: 30)
        let end = csysNow() + 10
        while !child.standardError.contains("warning"), csysNow() < end { sleep(seconds: 0.02) }
        #expect(
            child.standardError.contains("warning: \(db) is open to other users (mode 644)"), "\(child.standardError)")
    }

    @Test func staticFilesAndPhotosAreSandboxed() throws {
        let server = try SiteServer(routes: nil)
        defer { server.stop() }
        let sandbox = "default-src 'none'; style-src 'unsafe-inline'; sandbox"
        let headshot = try #require(Files.list("Public/headshots")?.first)
        #expect(try server.get("/headshots/" + headshot).header("Content-Security-Policy") == sandbox)
        #expect(try server.get("/css/site.css").header("Content-Security-Policy") == sandbox)
        let library = PhotoLibrary(folder: server.scratch.path + "/photos")
        guard case .success(let path) = library.save(Images.png) else {
            Issue.record("the photo was not saved")
            return
        }
        let photo = try server.get(path)
        #expect(photo.status == 200)
        #expect(photo.header("Content-Security-Policy") == sandbox)
    }

    @Test func optionErrorsSayWhatWouldDoWithoutRepeatingSecrets() {
        func message(_ arguments: [String]) -> String {
            do {
                _ = try ServeOptions.parse(arguments[...], environment: { _ in nil })
                return ""
            } catch { return "\(error)" }
        }
        let token = message(["--metrics-token", "short-secret"])
        #expect(token.contains("16 characters or more"), "\(token)")
        #expect(!token.contains("short-secret"))
        let db = message(["--db", "mysql://root:hunter2@db/arcade"])
        #expect(!db.contains("hunter2") && db.contains("postgresql://"), "\(db)")
        #expect(message(["--port", "99999"]).contains("0…65535"))
        #expect(message(["--public-host", "https://x.example/"]).contains("host name"))
    }
}

extension String {
    fileprivate var trimmingSuffix: String {
        var s = self
        while s.last?.isWhitespace == true { s.removeLast() }
        return s
    }
}
