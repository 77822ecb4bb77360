import Crypto
import Storage
import Synchronization
import TestSupport
import Testing

@testable import ArcadeStore
@testable import ArcadeWeb

#if canImport(Glibc)
import Glibc
#endif

@Suite("Admins managed: audit, set-up links, second factor", .serialized)
struct AdminAccountsTests {
    func auditRows(_ location: DatabaseLocation) throws -> [(admin: String, action: String, target: String)] {
        try Database(location: location).query("SELECT admin, action, target FROM audit ORDER BY id").map {
            (try $0.decode("admin"), try $0.decode("action"), try $0.decode("target"))
        }
    }

    @Test(arguments: Engine.allCases) func everyCommandLineChangeIsAudited(_ engine: Engine) throws {
        let scratch = ScratchDirectory()
        let location = try TestDatabase.fresh(engine, in: scratch, name: "cli-audit")
        let arcade = "'\(ChildProcess.arcadeBinary)' admin"
        let db = "--db '\(location.argument)'"
        scratch.write("one.txt", "correct horse battery\n")
        #expect(system("\(arcade) create alice \(db) < '\(scratch.path)/one.txt' > /dev/null") == 0)
        #expect(system("\(arcade) create bob \(db) < '\(scratch.path)/one.txt' > /dev/null") == 0)
        #expect(system("\(arcade) password alice \(db) < '\(scratch.path)/one.txt' > /dev/null") == 0)
        #expect(system("\(arcade) totp-off alice \(db) > /dev/null") == 0)
        #expect(system("\(arcade) remove bob \(db) > /dev/null") == 0)
        // The last admin stays: the command refuses, and writes nothing.
        #expect(system("\(arcade) remove alice \(db) 2> /dev/null") != 0)
        let rows = try auditRows(location)
        #expect(
            rows.map { "\($0.action) \($0.target)" } == [
                "create admin alice", "create admin bob", "reset password alice", "disable two-factor alice",
                "remove admin bob",
            ])
        // Named as the command line's, with the system user who ran it.
        for row in rows { #expect(row.admin.hasPrefix("command line"), "\(row.admin)") }
        #expect(try AdminStore(pool: DatabasePool(location: location)).list().map(\.name) == ["alice"])
    }

    @Test(arguments: Engine.allCases) func secondFactorCodesWorkOnceAndRecoveryCodesOnce(_ engine: Engine) throws {
        let scratch = ScratchDirectory()
        let location = try TestDatabase.fresh(engine, in: scratch, name: "totp")
        try Database(location: location).migrate(Schema.migrations)
        let now = Atomic<Int>(1_800_000_000)
        let store = AdminStore(pool: DatabasePool(location: location), clock: { now.load(ordering: .relaxed) })
        try store.create(name: "erin", password: "correct horse battery")
        let erin = try #require(try store.verify(name: "erin", password: "correct horse battery"))
        #expect(try !store.hasTwoFactor(erin))
        let secret = try store.pendingSecret(erin)
        #expect(secret.count == 20)
        #expect(try store.pendingSecret(erin) == secret, "a reload shows the same secret")
        func code(_ offset: Int = 0) -> String {
            let step = OneTimePassword.step(at: now.load(ordering: .relaxed)) + Int64(offset)
            return OneTimePassword.code(secret: secret, step: step)
        }
        // Not on until a code proves the app has the secret.
        #expect(try store.confirmTwoFactor(erin, code: code(2)) == nil)
        #expect(try !store.hasTwoFactor(erin))
        let recovery = try #require(try store.confirmTwoFactor(erin, code: code()))
        #expect(recovery.count == 10 && Set(recovery).count == 10)
        #expect(try store.hasTwoFactor(erin))
        #expect(try store.recoveryCodesLeft(erin) == 10)
        // Only hashes of the recovery codes are kept.
        let stored = try Database(location: location).query("SELECT code_hash FROM admin_recovery_codes")
        #expect(stored.count == 10)
        for row in stored {
            let hash: [UInt8] = try row.decode("code_hash")
            #expect(!recovery.contains { Array($0.utf8) == hash })
            #expect(hash.count == 32)
        }
        // The code that turned it on is spent; the next step's works once.
        #expect(try store.checkSecondFactor(erin, code: code()) == nil)
        #expect(try store.checkSecondFactor(erin, code: code(1)) == "password + code")
        #expect(try store.checkSecondFactor(erin, code: code(1)) == nil)
        // Later: one step either side of the clock, not two.
        now.add(300, ordering: .relaxed)
        #expect(try store.checkSecondFactor(erin, code: code(-2)) == nil)
        #expect(try store.checkSecondFactor(erin, code: code(2)) == nil)
        #expect(try store.checkSecondFactor(erin, code: code(-1)) == "password + code")
        // A recovery code, however typed, works once.
        #expect(try store.checkSecondFactor(erin, code: recovery[3].uppercased()) == "password + recovery code")
        #expect(try store.checkSecondFactor(erin, code: recovery[3]) == nil)
        #expect(try store.recoveryCodesLeft(erin) == 9)
        #expect(try store.checkSecondFactor(erin, code: "aaaaa-aaaaa") == nil)
        let renewed = try store.renewRecoveryCodes(erin)
        #expect(try store.checkSecondFactor(erin, code: recovery[4]) == nil, "the old codes are gone")
        #expect(try store.checkSecondFactor(erin, code: renewed[0]) == "password + recovery code")
        #expect(try store.disableTwoFactor(name: "erin", by: "erin"))
        #expect(try !store.hasTwoFactor(erin))
        #expect(try store.recoveryCodesLeft(erin) == 0)
        #expect(
            try auditRows(location).map(\.action) == [
                "enable two-factor", "renew recovery codes", "disable two-factor",
            ])
    }

    @Test(arguments: Engine.allCases) func aSetUpLinkWorksOnceAndExpires(_ engine: Engine) throws {
        let scratch = ScratchDirectory()
        let location = try TestDatabase.fresh(engine, in: scratch, name: "invites")
        try Database(location: location).migrate(Schema.migrations)
        let now = Atomic<Int>(1_800_000_000)
        let store = AdminStore(pool: DatabasePool(location: location), clock: { now.load(ordering: .relaxed) })
        try store.create(name: "root", password: "correct horse battery")
        #expect(try store.invite(name: "root", by: "root") == .taken)
        guard case .created(let token) = try store.invite(name: "ann", by: "root") else {
            throw TestFailure("no link")
        }
        #expect(
            try Database(location: location).first(
                "SELECT COUNT(*) AS n FROM admin_invites WHERE token_hash = ?", [.text(token)])?.int("n") == 0,
            "only a hash of the token is stored")
        #expect(try store.invitation(token)?.name == "ann")
        #expect(try store.accept(invite: token, password: "ann's long password") == .created(name: "ann"))
        #expect(try store.verify(name: "ann", password: "ann's long password")?.name == "ann")
        #expect(try store.accept(invite: token, password: "another long password") == .invalid, "used once")
        #expect(try store.invitation(token) == nil)
        // A day and a second later, a link no longer works.
        guard case .created(let late) = try store.invite(name: "ben", by: "root") else { throw TestFailure("no link") }
        now.add(AdminStore.inviteSeconds + 1, ordering: .relaxed)
        #expect(try store.invitation(late) == nil)
        #expect(try store.accept(invite: late, password: "ben's long password") == .invalid)
        #expect(try store.verify(name: "ben", password: "ben's long password") == nil)
        // A newer link replaces an older one for the same name.
        guard case .created(let first) = try store.invite(name: "cat", by: "root"),
            case .created(let second) = try store.invite(name: "cat", by: "root")
        else { throw TestFailure("no link") }
        #expect(try store.invitation(first) == nil && store.invitation(second)?.name == "cat")
        #expect(
            try auditRows(location).map { "\($0.admin) \($0.action) \($0.target)" } == [
                "root invite admin ann", "ann create admin ann", "root invite admin ben", "root invite admin cat",
                "root invite admin cat",
            ])
    }

    @Test(arguments: Engine.allCases) func theLastAdminCannotBeRemoved(_ engine: Engine) throws {
        let scratch = ScratchDirectory()
        let location = try TestDatabase.fresh(engine, in: scratch, name: "last")
        try Database(location: location).migrate(Schema.migrations)
        let store = AdminStore(pool: DatabasePool(location: location))
        try store.create(name: "a1", password: "correct horse battery")
        try store.create(name: "a2", password: "correct horse battery")
        #expect(try store.remove(name: "a1", by: "a2") == .removed)
        #expect(try store.remove(name: "a2", by: "a2") == .lastAdmin)
        #expect(try store.remove(name: "a1", by: "a2") == .noSuchAdmin)
        #expect(try store.list().map(\.name) == ["a2"])
    }

    func signIn(_ player: Player, _ name: String, _ password: String) throws -> WireResponse {
        try player.get("/admin/login")
        return try player.post("/admin/login", "name=\(name)&password=\(password.addingFormEncoding)")
    }

    /// Every new form checks the CSRF token before anything else; without it nothing is written.
    @Test func theNewFormsNeedTheFormToken() throws {
        let server = try SiteServer()
        defer { server.stop() }
        try server.site.admins.create(name: "hal", password: "correct horse battery")
        let player = Player(server)
        #expect(try signIn(player, "hal", "correct horse battery").status == 303)
        #expect(try player.get("/admin/admins").status == 200)
        let forms = [
            ("/admin/admins/invite", "name=mallory"), ("/admin/admins/remove", "name=hal&confirm=1"),
            ("/admin/admins/sessions/revoke", "session=x"), ("/admin/setup", "token=x&password=xxxxxxxxxxxx"),
            ("/admin/login/code", "code=123456"), ("/admin/totp/setup", ""), ("/admin/totp/confirm", "code=123456"),
            ("/admin/totp/recovery", ""), ("/admin/totp/disable", "password=correct+horse+battery"),
        ]
        for (path, body) in forms {
            let forged = try server.post(path, body: body, headers: ["Cookie": player.cookieHeader])
            #expect(forged.status == 403, "\(path)")
        }
        #expect(try server.site.admins.invites().isEmpty)
        #expect(try server.site.admins.list().map(\.name).contains("hal"), "not removed")
        #expect(
            try server.site.admins.auditLog().allSatisfy { ["sign-in", "create admin"].contains($0.action) },
            "nothing else written")
    }

    /// The admin "gil" (password "correct horse battery") with a second factor on: its secret and the time step now.
    static func gilWithASecondFactor(_ server: SiteServer) throws -> (secret: [UInt8], step: Int64) {
        let store = server.site.admins
        try store.create(name: "gil", password: "correct horse battery")
        let gil = try #require(try store.verify(name: "gil", password: "correct horse battery"))
        let secret = try store.pendingSecret(gil)
        let step = OneTimePassword.step(at: store.clock())
        _ = try #require(try store.confirmTwoFactor(gil, code: OneTimePassword.code(secret: secret, step: step)))
        return (secret, step)
    }

    /// Over HTTP: the password alone does not open a session; wrong codes are throttled as wrong passwords are.
    @Test(arguments: Engine.allCases) func signInAsksForTheCodeAndThrottlesWrongOnes(_ engine: Engine) throws {
        let server = try SiteServer(engine: engine)
        defer { server.stop() }
        let (secret, step) = try Self.gilWithASecondFactor(server)
        let player = Player(server)
        let first = try signIn(player, "gil", "correct horse battery")
        #expect(first.status == 303)
        #expect(first.header("Location") == "/admin/login/code")
        #expect(first.cookies["arcade_admin"] == nil, "no session yet")
        #expect(try player.get("/admin").status == 303)
        #expect(try player.get("/admin/login/code").status == 200)
        for _ in 0..<5 { #expect(try player.post("/admin/login/code", "code=000000").status == 401) }
        let throttled = try player.post(
            "/admin/login/code", "code=\(OneTimePassword.code(secret: secret, step: step + 1))")
        #expect(throttled.status == 429, "even the right code waits")
        // Without the first step's cookie, the code page sends back to the password.
        let stranger = Player(server, from: "127.0.0.9")
        try stranger.get("/admin/login")
        #expect(try stranger.post("/admin/login/code", "code=123456").header("Location") == "/admin/login")
    }
}
