import Foundation
import Storage
import TestSupport
import Testing

/// Logs as data: a whole run of the real `arcade` in JSON mode, every line of its stdout and stderr read back with
/// Foundation's JSON parser (an oracle apart from ours); and the plain format, a timestamp first on every line.
@Suite("Logs: every line JSON, or timestamped")
struct LogLinesTests {
    static let password = "not-the-password-42"

    /// Each line of a stream as a JSON object; a line that is not one is recorded as an issue, with the line.
    static func objects(_ text: String, _ stream: String) -> [[String: Any]] {
        #expect(text.isEmpty || text.hasSuffix("\n"), "\(stream) ends mid-line")
        return text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().compactMap { line in
            let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect(object != nil, "\(stream): not a JSON object: \(line)")
            return object
        }
    }

    /// The core keys every line has: an RFC 3339 UTC time, a level the stream is for, a message.
    static func checkCore(_ object: [String: Any], levels: Set<String>) {
        let time = object["time"] as? String ?? ""
        #expect(time.wholeMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/) != nil, "time: \(object)")
        #expect(levels.contains(object["level"] as? String ?? ""), "level: \(object)")
        #expect(object["msg"] is String, "msg: \(object)")
    }

    /// Start-up, requests (one with a secret in its query), a refused admin sign-in and SIGTERM: stdout and stderr
    /// are JSON lines, one each; the sign-in line names the account, the client and the request, not the password.
    @Test func aWholeJSONRunParsesLineByLine() throws {
        let scratch = ScratchDirectory()
        let child = try ChildProcess(
            ["--port", "0", "--db", scratch.path + "/site.sqlite", "--access-log", "json", "--workers", "1"])
        let site = RemoteSite(
            port: try child.waitForPort(timeout: 60), database: .sqlite(scratch.path + "/site.sqlite"))
        let player = Player(site)
        try player.get("/")
        try player.get("/healthz?token=hunter2")
        try player.get("/admin/login")
        let refused = try player.post("/admin/login", "name=admin&password=\(Self.password)")
        #expect(refused.status == 401)
        let refusedID = try #require(refused.header("X-Request-Id"))
        // A refused passkey sign-in (no challenge was asked for): its line carries its request's id too, from the log
        // its context carries (issue 42).
        let passkey = try player.post("/progress/passkeys/signin", "id=AAAA&clientDataJSON=e30")
        #expect(passkey.status == 400)
        let passkeyID = try #require(passkey.header("X-Request-Id"))
        child.signal(SIGTERM)
        #expect(child.wait(timeout: 30) == 0)

        let out = Self.objects(child.standardOutput, "stdout")
        let err = Self.objects(child.standardError, "stderr")
        for object in out { Self.checkCore(object, levels: ["debug", "info", "notice"]) }
        for object in err { Self.checkCore(object, levels: ["warning", "error"]) }
        #expect((out.first?["msg"] as? String)?.isEmpty == false)
        #expect(out.contains { ($0["msg"] as? String)?.contains("serving") == true && $0["port"] as? Int == site.port })
        #expect(out.last?["msg"] as? String == "stopped on signal 15", "\(out.last ?? [:])")
        #expect(out.filter { $0["msg"] as? String == "access" }.count >= 4)

        let signIn = try #require(err.first { ($0["msg"] as? String)?.contains("sign-in") == true })
        #expect(signIn["level"] as? String == "warning")
        #expect(signIn["account"] as? String == "admin")
        #expect(signIn["client"] as? String == "127.0.0.1")
        #expect(signIn["request_id"] as? String == refusedID)
        let access = out.first { $0["request_id"] as? String == refusedID }
        #expect(access?["status"] as? Int == 401 && access?["path"] as? String == "/admin/login")
        let refusal = try #require(out.first { ($0["msg"] as? String)?.hasPrefix("passkey refused") == true })
        #expect(refusal["request_id"] as? String == passkeyID, "\(refusal)")
        let everything = child.standardOutput + child.standardError
        #expect(!everything.contains(Self.password), "the password reached the log")
        #expect(!everything.contains("hunter2"), "a query's value reached the log")
    }

    /// A full disk (a small tmpfs): a burst of 503s is one error line carrying the first refusal's request id (as its
    /// access line does), then at shutdown one line with how many were left out; every line still JSON.
    @Test func aBurstOfErrorsIsOneLineAndACount() throws {
        try #require(geteuid() == 0, "mounting a tmpfs needs root")
        let scratch = ScratchDirectory()
        let disk = scratch.path + "/disk"
        mkdir(disk, 0o755)
        #expect(system("mount -t tmpfs -o size=8m tmpfs '\(disk)'") == 0)
        defer { _ = system("umount -l '\(disk)'") }
        let child = try ChildProcess(
            ["--port", "0", "--db", disk + "/site.sqlite", "--log-format", "json", "--workers", "1"])
        let player = Player(
            RemoteSite(port: try child.waitForPort(timeout: 60), database: .sqlite(disk + "/site.sqlite")))
        try player.get("/")
        #expect(try player.post("/mastermind/new", "").status == 303)
        _ = system("dd if=/dev/zero of='\(disk)/filler' bs=64k 2>/dev/null")
        var refusals: [String] = []
        for _ in 0..<500 where refusals.count < 8 {
            let answer = try player.post("/mastermind/new", "")
            if answer.status == 503 { refusals.append(answer.header("X-Request-Id") ?? "") }
        }
        #expect(refusals.count == 8, "the full disk never refused a write")
        child.signal(SIGTERM)
        #expect(child.wait(timeout: 30) == 0)

        let out = Self.objects(child.standardOutput, "stdout")
        let err = Self.objects(child.standardError, "stderr")
        for object in out { Self.checkCore(object, levels: ["debug", "info", "notice"]) }
        for object in err { Self.checkCore(object, levels: ["warning", "error"]) }
        let lines = err.filter { ($0["msg"] as? String)?.hasPrefix("database unavailable") == true }
        #expect(lines.count == 2, "\(lines)")
        #expect(lines.first?["request_id"] as? String == refusals.first)
        #expect(lines.first?["repeated"] == nil)
        #expect(lines.last?["repeated"] as? Int == refusals.count - 1, "\(lines)")
        let access = out.first { $0["request_id"] as? String == refusals.first }
        #expect(access?["status"] as? Int == 503 && access?["msg"] as? String == "access", "\(access ?? [:])")
    }

    /// The plain format: every line, the access log's too, starts with an RFC 3339 UTC timestamp; a refused sign-in
    /// names the account and not the password.
    @Test func plainLinesStartWithATimestamp() throws {
        let scratch = ScratchDirectory()
        let child = try ChildProcess(["--port", "0", "--db", scratch.path + "/site.sqlite", "--workers", "1"])
        let player = Player(RemoteSite(port: try child.waitForPort(timeout: 60), database: .sqlite("")))
        try player.get("/admin/login")
        #expect(try player.post("/admin/login", "name=admin&password=\(Self.password)").status == 401)
        child.signal(SIGTERM)
        #expect(child.wait(timeout: 30) == 0)
        let lines = (child.standardOutput + child.standardError).split(separator: "\n")
        #expect(lines.count >= 4)
        for line in lines {
            #expect(line.prefixMatch(of: /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z[ ]/) != nil, "\(line)")
        }
        #expect(child.standardOutput.contains(" 127.0.0.1 GET /admin/login 200 "), "access lines are timestamped")
        // The refusal's line names its request in the plain format too (issue 42: only the JSON log had ids).
        #expect(
            child.standardError.split(separator: "\n").contains {
                $0.contains("sign-in") && $0.contains(" request_id=")
            }, "\(child.standardError)")
        #expect(
            child.standardError.contains(
                "arcade: warning: admin sign-in refused: wrong name or password account=admin client=127.0.0.1"),
            "\(child.standardError)")
        #expect(!(child.standardOutput + child.standardError).contains(Self.password))
    }

    /// A service asked for JSON logs gets its start-up refusal as a JSON line too (not the usage text).
    @Test func aRefusedOptionInJSONModeIsAJSONLine() throws {
        let child = try ChildProcess(["--log-format", "json", "--port", "seventy"])
        #expect(child.wait(timeout: 10) == 2)
        let lines = Self.objects(child.standardError, "stderr")
        #expect(lines.count == 1)
        if let line = lines.first {
            Self.checkCore(line, levels: ["error"])
            #expect((line["msg"] as? String)?.contains("--port") == true, "\(line)")
        }
        #expect(child.standardOutput.isEmpty)
    }
}
