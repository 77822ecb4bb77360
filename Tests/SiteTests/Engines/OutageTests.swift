import CSystem
import Storage
import Synchronization
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// PostgreSQL stopped and started again under a load of actions and page views, on a throwaway cluster of the
/// test's own (stopping the shared one would fail the tests running beside it): no answer is a 500, refusals are
/// 503 with Retry-After, readiness fails while it is away, and the same processes serve again once it is back.
@Suite("PostgreSQL goes away and comes back", .serialized)
struct OutageTests {
    /// A cluster of its own, in a scratch folder (scripts/postgres, a few seconds to start).
    final class Cluster {
        let scratch = ScratchDirectory()
        let url: String
        init() throws {
            chmod(scratch.path, 0o755)  // the server runs as the postgres user: it must reach its folder inside
            url = try Self.run("scripts/postgres start '\(scratch.path)/pg'")
            guard url.hasPrefix("postgresql://") else { throw TestFailure("no cluster: \(url)") }
        }
        func stop(_ mode: String) throws { _ = try Self.run("scripts/postgres stop '\(scratch.path)/pg' \(mode)") }
        func resume() throws { _ = try Self.run("scripts/postgres resume '\(scratch.path)/pg'") }
        deinit { _ = try? Self.run("scripts/postgres stop '\(scratch.path)/pg' immediate") }

        static func run(_ command: String) throws -> String {
            guard let pipe = popen(command + " 2>&1", "r") else { throw TestFailure("cannot run \(command)") }
            var output = ""
            var buffer = [CChar](repeating: 0, count: 512)
            while fgets(&buffer, Int32(buffer.count), pipe) != nil {
                output += String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
            guard pclose(pipe) == 0 else { throw TestFailure("\(command): \(output)") }
            return output.trimmingSuffix()
        }
    }

    /// Players each starting a new game, guessing in it (a row in `mastermind_guesses` when acknowledged) and
    /// loading the board, in a loop, until stopped; every answer is kept.
    final class Load: @unchecked Sendable {
        struct Answer {
            let path: String
            let status: Int
            let retryAfter: Bool
        }
        private let answers = Mutex<[Answer]>([])
        private let stopping = Atomic<Bool>(false)
        private let threads = Mutex<[UInt64]>([])
        let sites: [RemoteSite]

        init(_ sites: [RemoteSite], players: Int) {
            self.sites = sites
            for i in 0..<players {
                let box = Unmanaged.passRetained(Work { [self] in play(i) }).toOpaque()
                var handle: UInt64 = 0
                precondition(
                    csys_thread_start({ Unmanaged<Work>.fromOpaque($0!).takeRetainedValue().run() }, box, &handle) == 0)
                threads.withLock { $0.append(handle) }
            }
        }

        final class Work {
            let run: () -> Void
            init(_ run: @escaping () -> Void) { self.run = run }
        }

        /// A player's round: a new game, a guess in it (a game without a guess is not kept: issue 38), the board.
        private func play(_ i: Int) {
            let player = Player(sites[i % sites.count])
            while !stopping.load(ordering: .relaxed) {
                if player.csrf.isEmpty { _ = try? player.get("/") }
                if let board = try? player.post("/mastermind/new", "", fragment: true) {
                    record("/mastermind/new", board)
                    if board.status == 200, let game = Player.attribute("data-game", in: board.text) {
                        let turn = board.text.firstRange(of: "name=\"turn\" value=\"").map {
                            String(board.text[$0.upperBound...].prefix { $0 != "\"" })
                        }
                        let form = "game=\(game)&turn=\(turn ?? "0")&guess=0123"
                        if let answer = try? player.post("/mastermind/guess", form) {
                            record("/mastermind/guess", answer)
                        }
                    }
                }
                if let page = try? player.get("/mastermind") { record("/mastermind", page) }
                usleep(5_000)
            }
        }

        private func record(_ path: String, _ answer: WireResponse) {
            answers.withLock {
                $0.append(Answer(path: path, status: answer.status, retryAfter: answer.header("Retry-After") != nil))
            }
        }

        var all: [Answer] { answers.withLock { $0 } }
        /// Guesses the site answered as kept.
        var acknowledged: Int { all.filter { $0.path == "/mastermind/guess" && $0.status == 303 }.count }
        var count: Int { answers.withLock { $0.count } }

        func stop() {
            stopping.store(true, ordering: .relaxed)
            for handle in threads.withLock({ $0 }) { _ = csys_thread_join(handle) }
        }
    }

    /// Waits for `condition`, polling; the seconds it took, or nil after `limit`.
    static func time(within limit: Double, _ condition: () throws -> Bool) rethrows -> Double? {
        let start = csysNow()
        while csysNow() - start < limit {
            if try condition() { return csysNow() - start }
            usleep(20_000)
        }
        return nil
    }

    static func serve(
        _ cluster: Cluster, _ scratch: ScratchDirectory, _ name: String
    ) throws -> (ChildProcess, RemoteSite) {
        let database = DatabaseLocation.postgresql(cluster.url)
        let child = try ChildProcess(
            [
                "--port", "0", "--db", cluster.url, "--access-log", "on", "--workers", "1", "--photos",
                scratch.path + "/" + name,
            ])
        return (child, RemoteSite(port: try child.waitForPort(timeout: 60), database: database))
    }

    /// Stops PostgreSQL (`mode`), checks what the sites answer meanwhile, starts it again, and checks that they heal.
    static func outage(_ cluster: Cluster, _ sites: [RemoteSite], mode: String) throws -> Load {
        let load = Load(sites, players: 4)
        // A floor of acknowledged writes before anything happens, so the count at the end means something.
        #expect(time(within: 60) { load.acknowledged >= 20 } != nil, "no actions acknowledged before the outage")
        let players = try sites.map { site in
            let player = Player(site)
            try player.get("/mastermind")
            return player
        }
        try cluster.stop(mode)
        for site in sites {
            #expect(
                time(within: 10) { (try? site.get("/readyz").status) == 503 } != nil,
                "readiness passed during the outage")
        }
        let before = load.count
        #expect(time(within: 30) { load.count >= before + 20 } != nil, "no answers during the outage")
        let refused = load.all[before...].filter { $0.status == 503 }
        #expect(!refused.isEmpty && refused.allSatisfy(\.retryAfter), "refusals during the outage: \(refused.count)")
        for player in players { #expect(try player.get("/mastermind").status == 503) }
        try cluster.resume()
        for (site, player) in zip(sites, players) {
            let healed = time(within: 10) {
                (try? player.get("/mastermind").status) == 200
                    && (try? player.post("/mastermind/new", "").status) == 303
                    && (try? site.get("/readyz").status) == 200
            }
            #expect(healed != nil, "\(site.port) did not heal within 10 s of PostgreSQL's return")
        }
        let after = load.acknowledged
        #expect(time(within: 30) { load.acknowledged >= after + 20 } != nil, "actions did not resume")
        load.stop()
        let failures = load.all.filter { $0.status >= 500 && $0.status != 503 }
        #expect(failures.isEmpty, "\(failures.count) answers were 5xx other than 503: \(failures.prefix(3))")
        return load
    }

    /// Every acknowledged guess is in the database (a write whose outcome was unknown may be there too).
    static func checkAcknowledged(_ load: Load, _ url: String, extra: Int = 0) throws {
        let db = try Database(location: .postgresql(url))
        let guesses = try db.scalar(Int.self, "SELECT COUNT(*) AS n FROM mastermind_guesses")
        #expect(guesses >= load.acknowledged, "\(load.acknowledged) guesses acknowledged, \(guesses) in the database")
    }

    @Test(arguments: ["fast", "immediate"])
    func aRestartUnderLoadHealsTheSameProcess(mode: String) throws {
        let cluster = try Cluster()
        let scratch = ScratchDirectory()
        let (child, site) = try Self.serve(cluster, scratch, "a")
        let load = try Self.outage(cluster, [site], mode: mode)
        // Any other 5xx is shown with the server's own words for it (its access log line and its last errors).
        // An access line ends "STATUS BYTES MICROSus" (a start-up line "… in 500 ms" once matched " 500 ").
        let others = child.standardOutput.split(separator: "\n").filter {
            $0.hasSuffix("us") && $0.split(separator: " ").dropLast(2).last == "500"
        }
        #expect(
            others.isEmpty,
            "\(others.prefix(3)) \(child.standardError.split(separator: "\n").filter { $0.contains("error") }.suffix(5))"
        )
        try Self.checkAcknowledged(load, cluster.url)
        let metrics = try site.get("/metrics").text
        #expect(metrics.contains("arcade_db_reachable 1"), "\(metrics.prefix(200))")
        #expect(!metrics.contains("arcade_db_reconnects_total 0\n"))
        #expect(child.standardOutput.contains(" 503 "), "the access log shows the refusals")
        // Logged once a minute, not once a request.
        #expect(child.standardError.split(separator: "\n").filter { $0.contains("database unavailable") }.count <= 2)
    }

    /// Two instances through one outage; then the leader's backend is killed: both keep serving, and one leads.
    @Test func twoInstancesHealAndTheLeadMovesWhenItsBackendIsKilled() throws {
        let cluster = try Cluster()
        let scratch = ScratchDirectory()
        let (a, siteA) = try Self.serve(cluster, scratch, "a")
        let (b, siteB) = try Self.serve(cluster, scratch, "b")
        let load = try Self.outage(cluster, [siteA, siteB], mode: "fast")
        try Self.checkAcknowledged(load, cluster.url)
        let db = try Database(location: .postgresql(cluster.url))
        let leaderLock = "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND classid = \(0x4172_6365) AND granted"
        let holder = try #require(
            Self.time(within: 10) { try db.first(leaderLock) != nil } != nil
                ? try db.first(leaderLock)?.int("pid") : nil)
        _ = try db.query("SELECT pg_terminate_backend(\(holder))")
        let moved = Self.time(within: 10) {
            guard let pid = (try? db.first(leaderLock))??.int("pid") else { return false }
            return pid != holder
        }
        #expect(moved != nil, "nobody took the lead after the leader's backend was killed")
        for site in [siteA, siteB] {
            let player = Player(site)
            try player.get("/")
            #expect(Self.time(within: 10) { (try? player.post("/mastermind/new", "").status) == 303 } != nil)
        }
        _ = (a, b)
    }
}

extension String {
    fileprivate func trimmingSuffix() -> String {
        var text = self
        while text.last?.isWhitespace == true { text.removeLast() }
        return text
    }
}
