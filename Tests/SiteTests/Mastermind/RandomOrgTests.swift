import CSystem
import Files
import HTTP
import HTTPClient
import HTTPServer
import Mastermind
import PropertyList
import Storage
import TestSupport
import Testing

@testable import ArcadeStore
@testable import ArcadeWeb

#if canImport(Glibc)
import Glibc
#endif

/// A stand-in for random.org on loopback, built on our server, answering
/// the Integer Generator's request as configured.
final class FakeRandomOrg {
    let server: HTTPServer
    var url: String { "http://127.0.0.1:\(server.port)" }

    init(status: Int = 200, body: String = "3\n0\n7\n1\n", delay: Double = 0) throws {
        let router = Router()
        router.get("/integers/", .pool) { request in
            if delay > 0 { sleep(seconds: delay) }
            guard request.query["num"] == "4", request.query["min"] == "0", request.query["max"] == "7",
                request.query["format"] == "plain", request.query["rnd"] == "new"
            else {
                return .text("Error: unexpected request \(request.target)", status: .badRequest)
            }
            return .text(body, status: Status(code: status))
        }
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.workers = 1
        configuration.accessLog = false
        server = try HTTPServer(configuration: configuration, responder: router.build())
        server.start()
    }

    func stop() {
        server.shutdown()
        server.wait()
    }
}

/// `openssl s_server` with a self-signed certificate made for the test.
final class FakeTLSServer {
    let scratch = ScratchDirectory()
    let child: Int32
    let port: Int
    var certificate: String { scratch.path + "/cert.pem" }

    init(files: [String: String], names: String = "DNS:localhost,IP:127.0.0.1") throws {
        let dir = scratch.path
        guard
            system(
                "openssl req -x509 -newkey rsa:2048 -nodes -keyout '\(dir)/key.pem' -out '\(dir)/cert.pem' -days 1 "
                    + "-subj /CN=localhost -addext 'subjectAltName=\(names)' 2>/dev/null") == 0
        else {
            throw TestFailure("openssl could not make a certificate")
        }
        for (path, body) in files {
            scratch.write("www/" + path, "HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n\r\n" + body)
        }
        // A free port is probed, then taken by s_server: another test can take it between the two, so a server that
        // exits is started again on a new port. It is waited for while it runs (a busy machine can take seconds).
        (child, port) = try Self.start(in: dir)
    }

    private static func start(in dir: String) throws -> (Int32, Int) {
        for _ in 0..<3 {
            var free: Int32 = 0
            guard csys_probe_port("127.0.0.1", 0, &free) == 0 else { throw TestFailure("no free port") }
            _ = system(
                "cd '\(dir)/www' && openssl s_server -accept \(free) -cert ../cert.pem -key ../key.pem -HTTP -quiet "
                    + "> ../server.log 2>&1 & echo $! > '\(dir)/pid'")
            let pid = Int32(String(decoding: Files.read(dir + "/pid") ?? [], as: UTF8.self).filter(\.isNumber)) ?? 0
            for _ in 0..<1200 where pid > 0 && kill(pid, 0) == 0 {
                if let probe = try? RawClient(port: Int(free)) {
                    probe.close()
                    return (pid, Int(free))
                }
                sleep(seconds: 0.05)
            }
            if pid > 0 { kill(pid, SIGKILL) }
        }
        let log = String(decoding: Files.read(dir + "/server.log") ?? [], as: UTF8.self)
        throw TestFailure("openssl s_server did not start: \(log)")
    }

    // SIGKILL: the test process blocks SIGTERM (the server under test takes it through a signalfd), and a blocked signal
    // stays blocked across exec, so s_server would never see it.
    deinit { if child > 0 { kill(child, SIGKILL) } }
}

let integersPath = "integers/?num=4&min=0&max=7&col=1&base=10&format=plain&rnd=new"

@Suite("HTTP client and random.org", .serialized)
struct RandomOrgTests {
    @Test func clientReadsResponsesWithLimits() throws {
        let fake = try FakeRandomOrg(body: "3\n0\n7\n1\n")
        defer { fake.stop() }
        let client = HTTPClient(timeout: 2, maxResponseBytes: 4096)
        let response = try client.get(fake.url + "/" + integersPath).get()
        #expect(response.status == 200)
        #expect(response.text == "3\n0\n7\n1\n")
        #expect(response.header("content-type")?.hasPrefix("text/plain") == true)
        let big = try FakeRandomOrg(body: String(repeating: "7\n", count: 10_000))
        defer { big.stop() }
        if case .failure(let failure) = HTTPClient(timeout: 2, maxResponseBytes: 1000).get(big.url + "/" + integersPath)
        {
            #expect(failure == .tooLarge(1000))
        } else {
            Issue.record("no size cap")
        }
        for bad in ["ftp://x/", "http://", "http://host:99999/", "https://a b/", "nonsense"] {
            if case .failure(.badURL) = client.get(bad) {} else { Issue.record("accepted \(bad)") }
        }
        if case .failure(.connect) = HTTPClient(timeout: 2).get("http://127.0.0.1:1/") {
        } else {
            Issue.record("connected to a closed port")
        }
    }

    @Test func clientTimesOutOnASlowServer() throws {
        let slow = try FakeRandomOrg(delay: 2)
        defer { slow.stop() }
        let start = csysNow()
        let result = HTTPClient(timeout: 0.5).get(slow.url + "/" + integersPath)
        #expect(result.failureValue == .timeout)
        #expect(csysNow() - start < 1.5)
    }

    @Test func httpsVerifiesTheCertificateAndTheName() throws {
        let tls = try FakeTLSServer(files: [integersPath: "3\n0\n7\n1\n"])
        let url = "https://127.0.0.1:\(tls.port)/" + integersPath
        let trusted = HTTPClient(timeout: 3, trustedCertificates: tls.certificate)
        #expect(try trusted.get(url).get().text == "3\n0\n7\n1\n")
        #expect(try trusted.get("https://localhost:\(tls.port)/" + integersPath).get().status == 200)
        // The system's roots do not know a self-signed certificate.
        guard case .failure(.tls(let why)) = HTTPClient(timeout: 3).get(url) else {
            Issue.record("trusted a self-signed certificate")
            return
        }
        #expect(why.contains("certificate"))
    }

    @Test func httpsRefusesACertificateForAnotherName() throws {
        let tls = try FakeTLSServer(files: [integersPath: "1\n2\n3\n4\n"], names: "DNS:elsewhere.example")
        let result = HTTPClient(timeout: 3, trustedCertificates: tls.certificate).get(
            "https://127.0.0.1:\(tls.port)/" + integersPath)
        guard case .failure(.tls) = result else {
            Issue.record("accepted a certificate for another name")
            return
        }
    }

    func site(randomOrg url: String, certificates: String = "") throws -> SiteServer {
        let host = String(url.split(separator: "/")[1])
        return try SiteServer(routes: nil) { options in
            options.server.workers = 1
            options.randomHosts.append(host)
            options.randomOrgPlainHTTP = true
        }.configured { site in
            try site.constants.setHotfix("mastermind.random", .string("random.org"))
            try site.constants.setHotfix("mastermind.randomOrgURL", .string(url))
            try site.constants.setHotfix("mastermind.randomOrgCertificates", .string(certificates))
        }
    }

    @Test func secretsComeFromRandomOrgWhenConfigured() throws {
        let fake = try FakeRandomOrg(body: "3\n0\n7\n1\n")
        defer { fake.stop() }
        let server = try site(randomOrg: fake.url)
        defer { server.stop() }
        let player = Player(server)
        try player.startMastermind()
        #expect(try player.secret() == "3071")
    }

    @Test func secretsComeFromRandomOrgOverHTTPS() throws {
        let tls = try FakeTLSServer(files: [integersPath: "5\n5\n0\n2\n"])
        let server = try site(randomOrg: "https://localhost:\(tls.port)", certificates: tls.certificate)
        defer { server.stop() }
        let player = Player(server)
        try player.startMastermind()
        #expect(try player.secret() == "5502")
    }

    @Test(arguments: [
        (200, "Error: The maximum number of requests has been exceeded", 0.0), (503, "3\n0\n7\n1\n", 0.0),
        (200, "banana", 0.0), (200, "3\n0\n7\n", 0.0), (200, "3\n0\n9\n1\n", 0.0), (200, "3\n0\n7\n1\n", 2.0),
    ])
    func failuresFallBackToTheCSPRNG(_ status: Int, _ body: String, _ delay: Double) throws {
        let fake = try FakeRandomOrg(status: status, body: body, delay: delay)
        defer { fake.stop() }
        let server = try site(randomOrg: fake.url)
        defer { server.stop() }
        let player = Player(server)
        try player.get("/")
        let start = csysNow()
        let board = try player.post("/mastermind/new", "", fragment: true)
        #expect(board.status == 200)
        #expect(csysNow() - start < 1.8, "a slow random.org costs at most the 1 s timeout")
        let secret = try player.secret()
        #expect(secret.count == 4 && secret.allSatisfy { ("0"..."7").contains($0) })
    }

    @Test func peopleCanComeFromAURL() throws {
        let files = try StaticFiles(root: "Config")
        let router = Router()
        router.fallback = files.handler
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.workers = 1
        configuration.accessLog = false
        let server = try HTTPServer(configuration: configuration, responder: router.build())
        server.start()
        defer {
            server.shutdown()
            server.wait()
        }
        let directory = try PeopleSource.load("http://127.0.0.1:\(server.port)/people.json")
        #expect(directory.people.count >= 120)
        #expect(throws: (any Error).self) { try PeopleSource.load("http://127.0.0.1:\(server.port)/missing.json") }
    }

    @Test func aSlowRandomOrgDoesNotStallOtherVisitors() throws {
        let fake = try FakeRandomOrg(delay: 0.9)
        defer { fake.stop() }
        let server = try site(randomOrg: fake.url)
        defer { server.stop() }
        let starter = Player(server)
        let waiting = csysNow()
        nonisolated(unsafe) var startedAt = 0.0
        let thread = ThreadRunner {
            startedAt = csysNow()
            _ = try? starter.startMastermind()
        }
        sleep(seconds: 0.2)
        // One event-loop thread only: the home page is still served at once.
        let start = csysNow()
        #expect(try server.get("/").status == 200)
        #expect(csysNow() - start < 0.3)
        thread.join()
        #expect(startedAt >= waiting)
        // The slow start did happen: the game it waited for is in the database.
        let games = try Database(location: server.database).first("SELECT COUNT(*) AS n FROM mastermind_games")
        #expect(games?.int("n") == 1)
    }
}

extension Result {
    var failureValue: Failure? { if case .failure(let f) = self { f } else { nil } }
}

extension SiteServer {
    func configured(_ body: (Site) throws -> Void) rethrows -> SiteServer {
        try body(site)
        return self
    }
}
