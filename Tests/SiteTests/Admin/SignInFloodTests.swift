import Synchronization
import TestSupport
import Testing

@testable import ArcadeStore
@testable import ArcadeWeb

/// Sign-in floods cost the attacker: each address gets a few tries a minute, an account tried from many addresses
/// waits longer after each failure (except on a browser it signed in from before), tries sent at once are counted
/// at once, and password hashing never takes more than its share of the machine. Clients are 127.0.0.x addresses.
/// The site's clock stands still: on a busy machine one try's hashing outlasted the 2 s an account waits after its
/// fifth failure, and the sixth try was let through.
@Suite("Sign-in floods", .serialized)
struct SignInFloodTests {
    func signIn(_ player: Player, _ name: String, _ password: String) throws -> WireResponse {
        if player.csrf.isEmpty { try player.get("/admin/login") }
        return try player.post("/admin/login", "name=\(name)&password=\(password.addingFormEncoding)")
    }

    /// Players from the given addresses, each with the sign-in form's token.
    func players(_ server: SiteServer, _ addresses: some Sequence<Int>) throws -> [Player] {
        try addresses.map { n in
            let player = Player(server, from: "127.0.0.\(n)")
            try player.get("/admin/login")
            return player
        }
    }

    /// Each status answered, with the Retry-After values that came with it.
    func statuses(_ players: [Player], names: @escaping @Sendable (Int) -> String) -> [Int: [String?]] {
        let answers = Mutex<[Int: [String?]]>([:])
        concurrently(players.count) { i in
            guard let response = try? self.signIn(players[i], names(i), "wrong guess") else { return }
            let (status, retry) = (response.status, response.header("Retry-After"))
            answers.withLock { $0[status, default: []].append(retry) }
        }
        return answers.withLock { $0 }
    }

    @Test func eachAddressGetsAFewTriesThen429BeforeAnyHashing() throws {
        let server = try SiteServer(routes: nil) { TrustedProxiesTests.stopTheClock(&$0) }
        defer { server.stop() }
        let attacker = Player(server, from: "127.0.0.2")
        // Random names, as a flood sends: the account limit never applies, the address's bucket does.
        for n in 0..<5 { #expect(try signIn(attacker, "guess\(n)", "nope").status == 401) }
        let refused = try signIn(attacker, "guess5", "nope")
        #expect(refused.status == 429)
        #expect(Int(refused.header("Retry-After") ?? "") ?? 0 >= 1)
        #expect(refused.text.contains("Too many attempts"))
        #expect(try signIn(Player(server, from: "127.0.0.3"), "guess6", "nope").status == 401, "another address")
    }

    @Test func anAccountTriedFromManyAddressesWaitsExceptOnAKnownDevice() throws {
        let server = try SiteServer(routes: nil) { TrustedProxiesTests.stopTheClock(&$0) }
        defer { server.stop() }
        try server.site.admins.create(name: "alice", password: "correct horse battery")
        let admin = Player(server, from: "127.0.0.2")
        #expect(try signIn(admin, "alice", "correct horse battery").status == 303)
        #expect(admin.cookies["arcade_admin_device"] != nil, "a device cookie for this browser")
        // Five addresses guess once each; the sixth is refused although its address is fresh.
        for n in 10..<15 { #expect(try signIn(Player(server, from: "127.0.0.\(n)"), "alice", "guess").status == 401) }
        let refused = try signIn(Player(server, from: "127.0.0.15"), "alice", "guess")
        #expect(refused.status == 429)
        #expect(Int(refused.header("Retry-After") ?? "") ?? 0 >= 1)
        #expect(try signIn(Player(server, from: "127.0.0.16"), "alice", "correct horse battery").status == 429)
        // The admin's own browser is not locked out.
        admin.cookies["arcade_admin"] = nil
        #expect(try signIn(admin, "alice", "correct horse battery").status == 303)
        // A device cookie is for its account only, and has a small limit of its own.
        let device = try #require(admin.cookies["arcade_admin_device"])
        let thief = Player(server, from: "127.0.0.17")
        thief.cookies["arcade_admin_device"] = device
        // Five failures a minute per device (a success costs nothing).
        for _ in 0..<5 { #expect(try signIn(thief, "alice", "guess").status == 401) }
        #expect(try signIn(thief, "alice", "guess").status == 429)
    }

    @Test func triesSentAtOnceAreCountedAtOnce() throws {
        let server = try SiteServer(routes: nil) { TrustedProxiesTests.stopTheClock(&$0) }
        defer { server.stop() }
        try server.site.admins.create(name: "alice", password: "correct horse battery")
        let attackers = try players(server, 20..<36)
        let answers = statuses(attackers) { _ in "alice" }
        #expect((answers[401]?.count ?? 0) <= 5, "\(answers.mapValues(\.count))")
        #expect(Set(answers.keys).isSubset(of: [401, 429, 503]), "\(answers.mapValues(\.count))")
    }

    @Test func hashingIsBoundedAndTheRestGet503AtOnce() throws {
        let server = try SiteServer(routes: nil) {
            TrustedProxiesTests.stopTheClock(&$0)
            $0.passwordIterations = 600_000  // a hash as slow as a real site's, whatever the suite's debug build uses
        }
        defer { server.stop() }
        let attackers = try players(server, 40..<72)
        let answers = statuses(attackers) { "someone\($0)" }
        let busy = answers[503] ?? []
        #expect(!busy.isEmpty, "\(answers.mapValues(\.count))")
        #expect(busy.allSatisfy { $0 != nil })
        #expect(Set(answers.keys).isSubset(of: [401, 503]), "\(answers.mapValues(\.count))")
        #expect((answers[401]?.count ?? 0) >= 1)
    }

    /// An attacker's review: knowing the password, codes were guessed from 40 addresses with no account back-off (a
    /// right password cleared the account's failures before the code). Now the failures stay until the code is right.
    @Test func aRightPasswordLeavesTheAccountsFailuresUntilTheCodeIsRight() throws {
        let server = try SiteServer(routes: nil) { TrustedProxiesTests.stopTheClock(&$0) }
        defer { server.stop() }
        _ = try AdminAccountsTests.gilWithASecondFactor(server)
        var statuses: [Int] = []
        for n in 10..<20 {
            let player = Player(server, from: "127.0.0.\(n)")
            let first = try signIn(player, "gil", "correct horse battery")
            statuses.append(first.status)
            if first.status == 303 { statuses.append(try player.post("/admin/login/code", "code=000000").status) }
        }
        #expect(statuses.filter { $0 == 401 }.count == 5, "\(statuses)")
        #expect(statuses.suffix(4).allSatisfy { $0 == 429 }, "\(statuses)")
    }

    /// An attacker's review: a stolen session tried 30 passwords in 5 s at the console's password change. They are
    /// under the sign-in limits now.
    @Test func theConsolesPasswordChecksAreThrottled() throws {
        let server = try SiteServer(routes: nil) { TrustedProxiesTests.stopTheClock(&$0) }
        defer { server.stop() }
        let admin = try AdminConsoleTests.admin(server)
        var statuses: [Int] = []
        for n in 0..<8 {
            statuses.append(
                try admin.post("/admin/password", "current=guess\(n)&new=\("staple battery horse".addingFormEncoding)")
                    .status)
        }
        #expect(
            statuses.prefix(4).allSatisfy { $0 == 422 } && statuses.suffix(3).allSatisfy { $0 == 429 }, "\(statuses)")
        #expect(try admin.get("/admin").status == 200, "the session itself stays")
    }
}
