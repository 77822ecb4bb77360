import CSystem
import Storage
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// SQLite has one writer: one `arcade serve` per database file, and nothing written under it by a restore. A full
/// disk is a 503 that heals when space returns.
@Suite("SQLite: one site, one writer; a full disk")
struct SQLiteOwnershipTests {
    static func serve(_ path: String) throws -> (ChildProcess, RemoteSite) {
        let child = try ChildProcess(["--port", "0", "--db", path, "--access-log", "off", "--workers", "1"])
        return (child, RemoteSite(port: try child.waitForPort(timeout: 60), database: .sqlite(path)))
    }

    @Test func aSecondInstanceAndARestoreAreRefusedWhileTheSiteRuns() throws {
        let scratch = ScratchDirectory()
        let path = scratch.path + "/site.sqlite"
        let (first, site) = try Self.serve(path)
        let player = Player(site)
        try player.get("/")
        #expect(try player.post("/mastermind/new", "").status == 303)

        let second = try ChildProcess(["--port", "0", "--db", path, "--access-log", "off"])
        #expect(second.wait(timeout: 60) == 1, "a second instance started on the same file")
        #expect(
            second.standardError.contains("another arcade (pid \(first.pid)) is serving"), "\(second.standardError)")

        // A backup still works on the running site; restoring over it does not.
        let backup = scratch.path + "/backup.sqlite"
        let taken = try ChildProcess(["db", "backup", backup, "--db", path])
        #expect(taken.wait(timeout: 60) == 0, "\(taken.standardError)")
        let restore = try ChildProcess(["db", "restore", backup, "--to", "sqlite:" + path, "--replace"])
        #expect(restore.wait(timeout: 60) == 1, "a restore wrote over a running site")
        #expect(restore.standardError.contains("is serving"), "\(restore.standardError)")
        #expect(try player.get("/mastermind").status == 200, "the site kept serving")

        // Once the site has stopped, both work.
        first.signal(SIGTERM)
        #expect(first.wait(timeout: 30) == 0)
        let replaced = try ChildProcess(["db", "restore", backup, "--to", "sqlite:" + path, "--replace"])
        #expect(replaced.wait(timeout: 60) == 0, "\(replaced.standardError)")
        let (next, _) = try Self.serve(path)
        next.signal(SIGTERM)
        #expect(next.wait(timeout: 30) == 0)
    }

    /// On a small tmpfs filled to the last byte, writes answer 503 with Retry-After (never 500), pages read from the
    /// file still load, the log says so once (not once a request), and writes succeed again once space is freed.
    @Test func aFullDiskIsA503ThatHealsWhenSpaceReturns() throws {
        try #require(geteuid() == 0, "mounting a tmpfs needs root")
        let scratch = ScratchDirectory()
        let disk = scratch.path + "/disk"
        mkdir(disk, 0o755)
        #expect(system("mount -t tmpfs -o size=8m tmpfs '\(disk)'") == 0)
        defer { _ = system("umount -l '\(disk)'") }
        let (child, site) = try Self.serve(disk + "/site.sqlite")
        let player = Player(site)
        try player.get("/")
        #expect(try player.post("/mastermind/new", "").status == 303)

        // Fill what is left (dd stops at ENOSPC).
        _ = system("dd if=/dev/zero of='\(disk)/filler' bs=64k 2>/dev/null")
        var statuses: [Int] = []
        for _ in 0..<500 {
            let answer = try player.post("/mastermind/new", "")
            statuses.append(answer.status)
            if answer.status == 503 {
                #expect(answer.header("Retry-After") != nil)
                #expect(answer.text.contains("cannot reach its database"), "\(answer.text.prefix(300))")
                if statuses.filter({ $0 == 503 }).count >= 20 { break }
            }
        }
        #expect(statuses.filter { $0 == 503 }.count >= 20, "the full disk never refused a write: \(Set(statuses))")
        #expect(!statuses.contains(500), "a full disk answered 500")
        #expect(try player.get("/mastermind").status == 200, "reading still works")

        unlink(disk + "/filler")
        let start = csysNow()
        var healed = false
        while csysNow() - start < 10 && !healed {
            healed = (try? player.post("/mastermind/new", "").status) == 303
            if !healed { usleep(50_000) }
        }
        #expect(healed, "writes did not succeed again once space was freed")
        let lines = child.standardError.split(separator: "\n").filter { $0.contains("database unavailable") }
        #expect(lines.count == 1, "logged \(lines.count) times: \(child.standardError.suffix(600))")
        child.signal(SIGTERM)
        _ = child.wait(timeout: 30)
    }
}
