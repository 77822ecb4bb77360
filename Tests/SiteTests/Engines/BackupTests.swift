import CSystem
import Files
import Storage
import Synchronization
import TestSupport
import Testing

@testable import ArcadeStore
@testable import ArcadeWeb

#if canImport(Glibc)
import Glibc
#endif

@Suite("arcade db backup and restore: a running site saved, and brought back")
struct BackupTests {
    /// Players start games without pause; `arcade db backup` runs as its own process meanwhile. Every game
    /// acknowledged before it began is in the file, and the file passes SQLite's integrity check.
    @Test func aBackupTakenUnderWritesHoldsEveryAcknowledgedWrite() throws {
        let scratch = ScratchDirectory()
        let server = try SiteServer(routes: nil) { $0.database = .sqlite(scratch.path + "/site.sqlite") }
        defer { server.stop() }
        let acknowledged = Mutex<[Int]>([])
        let before = Mutex<[Int]>([])
        let stopping = Atomic<Bool>(false)
        let backup = scratch.path + "/backup.sqlite"
        let site = "sqlite:" + scratch.path + "/site.sqlite"
        let status = Mutex<(Int32?, String)>((nil, ""))
        concurrently(4) { i in
            if i == 0 {
                while acknowledged.withLock({ $0.count }) < 30 { sleep(seconds: 0.01) }
                before.withLock { $0 = acknowledged.withLock { $0 } }
                do {
                    let child = try ChildProcess([
                        "db", "backup", backup, "--db", site,
                    ])
                    let code = child.wait(timeout: 60)
                    status.withLock { $0 = (code, child.standardOutput + child.standardError) }
                } catch {
                    status.withLock { $0 = (nil, "\(error)") }
                }
                stopping.store(true, ordering: .releasing)
            } else {
                let player = Player(server)
                while !stopping.load(ordering: .acquiring) {
                    // A game with a guess is kept (one abandoned untouched is not); past the player's budget of new
                    // games (429), a short wait.
                    guard let id = try? Int(player.startMastermind()),
                        (try? player.post("/mastermind/guess", "game=\(id)&turn=0&guess=0000"))?.status == 303
                    else {
                        sleep(seconds: 0.05)
                        continue
                    }
                    acknowledged.withLock { $0.append(id) }
                }
            }
        }
        let (code, output) = status.withLock { $0 }
        #expect(code == 0, "\(output)")
        #expect(output.contains("mastermind_games: "), "each table's rows are printed: \(output)")
        #expect(output.contains("integrity ok"))
        let saved = try Database(path: backup)
        #expect(try saved.query("PRAGMA integrity_check").first?.values.first == .text("ok"))
        let games = Set(try saved.query("SELECT id FROM mastermind_games").map { try $0.decode("id", as: Int.self) })
        let missing = before.withLock { $0 }.filter { !games.contains($0) }
        #expect(missing.isEmpty, "acknowledged before the backup began, missing from it: \(missing)")
        #expect(before.withLock { $0.count } >= 30)
        #expect(Files.list(scratch.path)?.contains { $0.contains("partial") } == false, "no temporary file is left")
    }

    /// A player with a win; the backup restored into a new database: the same cookie signs the same player in,
    /// and the win is there. A target with data is refused unless `--replace`. From PostgreSQL the backup is the
    /// same portable SQLite file, restored here into SQLite; from SQLite it is restored into PostgreSQL too.
    @Test(arguments: Engine.allCases) func aRestoredSiteSignsTheSamePlayerInWithTheirWins(_ engine: Engine) throws {
        let scratch = ScratchDirectory()
        let source = try TestDatabase.fresh(engine, in: scratch)
        let old = try SiteServer(routes: nil) { $0.database = source }
        let player = Player(old)
        try player.get("/")
        try player.startMastermind()
        #expect(try player.post("/mastermind/guess", "guess=\(try player.secret())").status == 303)
        #expect(try player.get("/progress").text.contains("data-task=\"mastermind.won\" data-count=\"1\""))
        let backup = scratch.path + "/backup.sqlite"
        let taken = try ChildProcess(["db", "backup", backup, "--db", source.argument])
        #expect(taken.wait(timeout: 60) == 0, "\(taken.standardError)")
        old.stop()

        let target =
            engine == .sqlite
            ? try TestDatabase.fresh(.postgresql, in: scratch, name: "restored")
            : .sqlite(scratch.path + "/restored.sqlite")
        let restore = try ChildProcess(["db", "restore", backup, "--to", target.argument])
        #expect(restore.wait(timeout: 60) == 0, "\(restore.standardError)")
        #expect(restore.standardOutput.contains("the counts match"), "\(restore.standardOutput)")
        #expect(restore.standardOutput.contains("mastermind_games: 1 rows"), "\(restore.standardOutput)")

        let again = try ChildProcess(["db", "restore", backup, "--to", target.argument])
        #expect(again.wait(timeout: 60) == 1)
        #expect(again.standardError.contains("already holds data"), "\(again.standardError)")
        let replaced = try ChildProcess(["db", "restore", backup, "--to", target.argument, "--replace"])
        #expect(replaced.wait(timeout: 60) == 0, "\(replaced.standardError)")

        let restored = try SiteServer(routes: nil) { $0.database = target }
        defer { restored.stop() }
        let returning = Player(restored)
        returning.cookies = player.cookies
        let progress = try returning.get("/progress")
        #expect(progress.text.contains("data-task=\"mastermind.won\" data-count=\"1\""), "the win came back")
        #expect(returning.cookies == player.cookies, "no new visitor cookie: the same player")
    }

    /// No folder, or a file that outgrows what the process may write (a full disk, as the kernel reports it):
    /// a clear error, exit 1, and no file at the path, half or whole.
    @Test func aFullDiskOrMissingFolderFailsClearlyAndLeavesNoFile() throws {
        let scratch = ScratchDirectory()
        let server = try SiteServer(routes: nil) { $0.database = .sqlite(scratch.path + "/site.sqlite") }
        let player = Player(server)
        try player.get("/")
        for _ in 0..<20 { try player.startMastermind() }
        server.stop()

        let missing = try ChildProcess([
            "db", "backup", "/nonexistent-dir/b.sqlite", "--db", scratch.path + "/site.sqlite",
        ])
        #expect(missing.wait(timeout: 30) == 1)
        #expect(
            missing.standardError.contains("cannot write the backup into /nonexistent-dir"), "\(missing.standardError)")

        var info = stat()
        #expect(stat(scratch.path + "/site.sqlite", &info) == 0)
        let out = scratch.path + "/out"
        #expect(mkdir(out, 0o755) == 0)
        let full = try ChildProcess(
            [
                "--fsize=\(Int(info.st_size) / 2)", "--", ChildProcess.arcadeBinary, "db", "backup", out + "/b.sqlite",
                "--db", scratch.path + "/site.sqlite",
            ], executable: "/usr/bin/prlimit")
        #expect(full.wait(timeout: 30) == 1)
        #expect(full.standardError.contains("backup failed"), "\(full.standardError)")
        #expect(Files.list(out) == [], "nothing is left in the folder: \(Files.list(out) ?? [])")
    }

    /// `--backup-dir`: one at start, one each time the interval passes, the newest `--backup-keep` kept; the
    /// dashboard says when the last one was taken.
    @Test func scheduledBackupsAreTakenKeptAndShownOnTheDashboard() throws {
        let scratch = ScratchDirectory()
        let folder = scratch.path + "/backups"
        #expect(mkdir(folder, 0o755) == 0)
        let now = Mutex<Double>(1_800_000_000)
        let server = try SiteServer(routes: nil) {
            $0.database = .sqlite(scratch.path + "/site.sqlite")
            $0.backupDirectory = folder
            $0.backupEvery = 1
            $0.backupKeep = 2
            $0.clock = { now.withLock { $0 } }
        }
        defer { server.stop() }
        func wait(for count: Int) {
            let end = csysNow() + 20
            while Housekeeping.backups(in: folder).count < count && csysNow() < end { sleep(seconds: 0.05) }
        }
        wait(for: 1)
        #expect(Housekeeping.backups(in: folder) == ["arcade-20270115-080000.sqlite"])
        now.withLock { $0 += 3601 }
        wait(for: 2)
        now.withLock { $0 += 3601 }
        let end = csysNow() + 20
        let expected = ["arcade-20270115-090001.sqlite", "arcade-20270115-100002.sqlite"]
        while Housekeeping.backups(in: folder) != expected && csysNow() < end {
            sleep(seconds: 0.05)
        }
        #expect(
            Housekeeping.backups(in: folder) == expected, "the oldest is removed")
        let admin = try AdminConsoleTests.admin(server)
        let dashboard = try admin.get("/admin").text
        #expect(dashboard.contains("data-backup=\"ok\""), "\(dashboard)")
        #expect(dashboard.contains("2027-01-15 10:00 UTC"))
    }

    /// Two instances on one PostgreSQL database: the leader takes the backup, and both dashboards show it (it is
    /// kept in the database, not in the instance that took it).
    @Test func everyInstanceShowsTheLastBackupTheLeaderTook() throws {
        let scratch = ScratchDirectory()
        let folder = scratch.path + "/backups"
        #expect(mkdir(folder, 0o755) == 0)
        let configure: (inout ServeOptions) -> Void = {
            $0.backupDirectory = folder
            $0.clock = { 1_800_000_000 }
        }
        let a = try SiteServer(engine: .postgresql, routes: nil, configure)
        defer { a.stop() }
        let b = try SiteServer(engine: .postgresql, routes: nil) {
            configure(&$0)
            $0.database = a.database
        }
        defer { b.stop() }
        let admins = [try AdminConsoleTests.admin(a), try AdminConsoleTests.admin(b, create: false)]
        func backupLine(_ admin: Player) throws -> String {
            let page = try admin.get("/admin").text
            return String(page.components(separatedBy: "<p data-backup=").dropFirst().first?.prefix { $0 != "<" } ?? "")
        }
        #expect(
            try AdminConsoleTests.within(30) { try admins.allSatisfy { try backupLine($0).hasPrefix("\"ok\"") } },
            "both show the backup: \((try? admins.map(backupLine)) ?? [])")
        #expect(Housekeeping.backups(in: folder) == ["arcade-20270115-080000.sqlite"], "one instance took it")
        var info = stat()
        #expect(stat(folder + "/arcade-20270115-080000.sqlite", &info) == 0)
        let lines = try admins.map(backupLine)
        #expect(lines[0] == lines[1], "\(lines)")
        // The size is shown grouped as the page's language writes it ("123,456" in English).
        #expect(
            lines[0].contains("2027-01-15 08:00 UTC") && lines[0].filter { $0 != "," }.contains("\(info.st_size)"),
            "\(lines[0])")
    }
}
