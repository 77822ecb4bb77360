import Foundation
import HTTP
import HTTPServer
import TestSupport
import Testing

/// A self-signed certificate for 127.0.0.1 and localhost, made with `openssl req -x509` in a scratch folder.
final class TestCertificate {
    enum Kind { case ecdsa, rsa }
    let folder = ScratchDirectory()
    var certificate: String { folder.path + "/cert.pem" }
    var key: String { folder.path + "/key.pem" }
    var files: TLSFiles { TLSFiles(certificate: certificate, key: key) }

    init(_ kind: Kind = .ecdsa) throws { try make(kind, into: "") }

    /// Writes a new pair (a new serial) as `<prefix>cert.pem` and `<prefix>key.pem`.
    func make(_ kind: Kind, into prefix: String) throws {
        let algorithm =
            kind == .ecdsa
            ? ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1"]
            : ["-newkey", "rsa:2048"]
        let result = run(
            ["openssl", "req", "-x509"] + algorithm + [
                "-nodes", "-days", "2", "-subj", "/CN=localhost",
                "-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1",
                "-keyout", folder.path + "/\(prefix)key.pem", "-out", folder.path + "/\(prefix)cert.pem",
            ])
        guard result.status == 0 else { throw TestFailure("openssl req: \(result.error)") }
    }

    /// The serial number of a certificate file, as openssl prints it (hex).
    func serial(of path: String) -> String {
        run(["openssl", "x509", "-noout", "-serial", "-in", path]).output
            .replacingOccurrences(of: "serial=", with: "").trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

struct ToolResult {
    let status: Int32
    let output: String
    let error: String
}

/// Runs a real client (curl, openssl, python3) to its end.
@discardableResult
func run(_ arguments: [String], input: String? = nil) -> ToolResult {
    let tool: Tool
    do { tool = try Tool(arguments) } catch { return ToolResult(status: -1, output: "", error: "\(error)") }
    if let input { tool.write(input) }
    tool.closeInput()
    let output = tool.readToEnd()
    let status = tool.wait()
    return ToolResult(status: status, output: output, error: tool.standardError)
}

/// Python's ssl module against the server: `script` gets `port`, `cafile` and `connect(version=None, source=None)`.
func python(_ script: String, port: Int, cafile: String, arguments: [String] = []) -> ToolResult {
    let prelude = """
        import socket, ssl, sys, time
        port = \(port)
        cafile = "\(cafile)"
        def context(minimum=None, maximum=None):
            c = ssl.create_default_context(cafile=cafile)
            c.set_alpn_protocols(["http/1.1"])
            if minimum: c.minimum_version = minimum
            if maximum: c.maximum_version = maximum
            return c
        def connect(ctx=None, source=None, session=None):
            raw = socket.create_connection(("127.0.0.1", port), timeout=5, source_address=(source, 0) if source else None)
            return (ctx or context()).wrap_socket(raw, server_hostname="localhost", session=session)
        def read_response(s, data=b""):
            # One response from `data` and then the socket: (response, what follows it).
            while b"\\r\\n\\r\\n" not in data:
                chunk = s.recv(65536)
                if not chunk: return data, b""
                data += chunk
            head, _, body = data.partition(b"\\r\\n\\r\\n")
            length = 0
            for line in head.split(b"\\r\\n")[1:]:
                name, _, value = line.partition(b":")
                if name.strip().lower() == b"content-length": length = int(value)
            while len(body) < length:
                chunk = s.recv(65536)
                if not chunk: break
                body += chunk
            return head + b"\\r\\n\\r\\n" + body[:length], body[length:]

        """
    return run(["python3", "-c", prelude + script] + arguments)
}

@Suite("TLS")
struct TLSTests {
    static func server(
        _ certificate: TestCertificate, router: Router = TestServer.routes(),
        _ configure: @escaping (inout ServerConfiguration) -> Void = { _ in }
    ) throws -> TestServer {
        try TestServer(
            {
                $0.tls = certificate.files
                configure(&$0)
            }, router: router)
    }

    @Test func curlGetsPagesAndFilesOverOneKeptAliveConnection() throws {
        let certificate = try TestCertificate()
        let files = ScratchDirectory()
        // Large enough to be sent from an open file (sendfile without TLS), and not a multiple of a record.
        let big = (0..<200_003).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 / 7) }
        files.write("big.bin", big)
        let router = TestServer.routes()
        router.fallback = try StaticFiles(root: files.path).handler
        let server = try Self.server(certificate, router: router)
        defer { server.stop() }
        let base = "https://127.0.0.1:\(server.port)"
        let out = ScratchDirectory()
        let result = run([
            "curl", "-sS", "-v", "--cacert", certificate.certificate, "-D", out.path + "/heads",
            "-o", out.path + "/hello", base + "/hello", "-o", out.path + "/big", base + "/big.bin",
            "-o", out.path + "/generated", base + "/big?n=1000000",
        ])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.error.contains("ALPN: server accepted http/1.1"))
        #expect(result.error.contains("Re-using existing connection"))
        #expect(try String(contentsOfFile: out.path + "/hello", encoding: .utf8) == "hello")
        #expect(try Data(contentsOf: URL(fileURLWithPath: out.path + "/big")) == Data(big))
        let generated = try Data(contentsOf: URL(fileURLWithPath: out.path + "/generated"))
        #expect(generated == Data((0..<1_000_000).map { UInt8(truncatingIfNeeded: $0 % 251) }))
        let heads = try String(contentsOfFile: out.path + "/heads", encoding: .utf8)
        #expect(heads.components(separatedBy: "Strict-Transport-Security: max-age=31536000").count == 4)
    }

    @Test func hstsOffWithZero() throws {
        let certificate = try TestCertificate()
        let server = try Self.server(certificate) { $0.hstsMaxAge = 0 }
        defer { server.stop() }
        let result = run([
            "curl", "-sS", "-D", "-", "-o", "/dev/null", "--cacert", certificate.certificate,
            "https://127.0.0.1:\(server.port)/hello",
        ])
        #expect(result.output.hasPrefix("HTTP/1.1 200"))
        #expect(!result.output.contains("Strict-Transport-Security"))
    }

    @Test func pythonPipelinesAndResumesSessions() throws {
        let certificate = try TestCertificate()
        let server = try Self.server(certificate)
        defer { server.stop() }
        let result = python(
            """
            s = connect()
            assert s.version() == "TLSv1.3", s.version()
            assert s.selected_alpn_protocol() == "http/1.1"
            s.sendall(b"GET /hello HTTP/1.1\\r\\nHost: t\\r\\n\\r\\n" * 3 + b"POST /echo HTTP/1.1\\r\\nHost: t\\r\\nContent-Length: 5\\r\\n\\r\\nabcde")
            rest = b""
            for expected in [b"hello", b"hello", b"hello", b"abcde"]:
                response, rest = read_response(s, rest)
                assert response.startswith(b"HTTP/1.1 200") and response.endswith(expected), response
            # TLS 1.2: the session is resumed from the server's cache or ticket.
            tls12 = context(maximum=ssl.TLSVersion.TLSv1_2)
            first = connect(tls12)
            first.sendall(b"GET /hello HTTP/1.1\\r\\nHost: t\\r\\n\\r\\n"); read_response(first)
            second = connect(tls12, session=first.session)
            assert second.version() == "TLSv1.2" and second.session_reused, (second.version(), second.session_reused)
            # By session ID alone (no tickets), after the first connection closed without close_notify, as most do.
            ids = context(maximum=ssl.TLSVersion.TLSv1_2)
            ids.options |= ssl.OP_NO_TICKET
            first = connect(ids)
            first.sendall(b"GET /hello HTTP/1.1\\r\\nHost: t\\r\\n\\r\\n"); read_response(first)
            session = first.session
            first.close()
            time.sleep(0.2)
            assert connect(ids, session=session).session_reused, "not resumed by session ID"
            # TLS 1.3: tickets arrive after the handshake, so read an answer before taking the session.
            tls13 = context()
            a = connect(tls13); a.sendall(b"GET /hello HTTP/1.1\\r\\nHost: t\\r\\n\\r\\n"); read_response(a)
            b = connect(tls13, session=a.session)
            assert b.session_reused
            print("ok")
            """, port: server.port, cafile: certificate.certificate)
        #expect(result.output == "ok\n", "\(result.error)")
    }

    /// TLS 1.3 clients use a ticket once (OpenSSL's own do when they reuse their SSL object, as wrk does): every
    /// resumption brings a new ticket, or such a client makes a full handshake every other connection.
    @Test func tls13ResumptionBringsANewTicket() throws {
        let certificate = try TestCertificate()
        let server = try Self.server(certificate)
        defer { server.stop() }
        let result = python(
            """
            tls13, session, ids = context(), None, []
            for i in range(4):
                s = connect(tls13, session=session)
                s.sendall(b"GET /hello HTTP/1.1\\r\\nHost: t\\r\\n\\r\\n"); read_response(s)
                assert s.version() == "TLSv1.3" and s.session_reused == (i > 0), (i, s.session_reused)
                session = s.session
                ids.append(session.id)
            assert len(set(ids)) == 4, "a resumption brought no new ticket"
            print("ok")
            """, port: server.port, cafile: certificate.certificate)
        #expect(result.output == "ok\n", "\(result.error)")
    }

    /// A TLS 1.2 ticket survives one rotation of the ticket key (it is sealed with the previous key) and not two.
    @Test func ticketKeysRotate() throws {
        let certificate = try TestCertificate()
        let server = try Self.server(certificate)
        defer { server.stop() }
        let python = try Tool([
            "python3", "-c",
            """
            import socket, ssl, sys
            ctx = ssl.create_default_context(cafile="\(certificate.certificate)")
            ctx.maximum_version = ssl.TLSVersion.TLSv1_2
            def connect(session=None):
                s = ctx.wrap_socket(socket.create_connection(("127.0.0.1", \(server.port))), server_hostname="localhost",
                                    session=session)
                s.sendall(b"GET /hello HTTP/1.1\\r\\nHost: t\\r\\n\\r\\n"); s.recv(65536)
                return s
            first = connect()
            ticket = first.session
            assert ticket.has_ticket
            for _ in range(3):
                print(connect(ticket).session_reused, flush=True)
                sys.stdin.readline()
            """,
        ])
        var lines: [String] = []
        for step in 0..<3 {
            lines.append(python.readLine() ?? "")
            if step < 2 { server.server.tls?.rotateTicketKeys() }
            python.write("\n")
        }
        python.wait()
        #expect(lines == ["True", "True", "False"])
    }

    /// One pipelined batch whose answers are larger than a record and than the socket's buffer: the answers come
    /// back whole and in order, through blocked writes.
    @Test func pipelinedLargeAnswersArriveInOrder() throws {
        let certificate = try TestCertificate()
        let server = try Self.server(certificate)
        defer { server.stop() }
        let result = python(
            """
            s = connect()
            sizes = [300000, 17, 70000, 16384, 1]
            s.sendall(b"".join(b"GET /big?n=%d HTTP/1.1\\r\\nHost: t\\r\\n\\r\\n" % n for n in sizes))
            time.sleep(0.3)
            rest = b""
            for n in sizes:
                data = rest
                while b"\\r\\n\\r\\n" not in data: data += s.recv(65536)
                head, _, body = data.partition(b"\\r\\n\\r\\n")
                while len(body) < n: body += s.recv(65536)
                body, rest = body[:n], body[n:]
                assert body == bytes(i % 251 for i in range(n)), n
            print("ok")
            """, port: server.port, cafile: certificate.certificate)
        #expect(result.output == "ok\n", "\(result.error)")
    }

    @Test func rsaCertificatesWorkToo() throws {
        let certificate = try TestCertificate(.rsa)
        let server = try Self.server(certificate)
        defer { server.stop() }
        let result = python(
            """
            for maximum in [ssl.TLSVersion.TLSv1_2, ssl.TLSVersion.TLSv1_3]:
                s = connect(context(maximum=maximum))
                s.sendall(b"GET /hello HTTP/1.1\\r\\nHost: t\\r\\n\\r\\n")
                assert read_response(s)[0].endswith(b"hello")
                print(s.version(), s.cipher()[0])
            """, port: server.port, cafile: certificate.certificate)
        #expect(
            result.output == "TLSv1.2 ECDHE-RSA-AES256-GCM-SHA384\nTLSv1.3 TLS_AES_256_GCM_SHA384\n", "\(result.error)")
    }

    /// The client is let offer them (security level 0), so each refusal is the server's: its alert says so.
    @Test func oldProtocolsAndSuitesWithoutForwardSecrecyAreRefused() throws {
        let certificate = try TestCertificate(.rsa)
        let server = try Self.server(certificate)
        defer { server.stop() }
        func handshake(_ options: [String]) -> ToolResult {
            run(
                ["openssl", "s_client", "-connect", "127.0.0.1:\(server.port)", "-CAfile", certificate.certificate]
                    + options, input: "")
        }
        for version in ["-tls1", "-tls1_1"] {
            let result = handshake([version, "-cipher", "DEFAULT@SECLEVEL=0"])
            #expect(result.error.contains("alert protocol version"), "\(version): \(result.error)")
        }
        for suite in ["AES128-GCM-SHA256", "AES256-SHA256", "ECDHE-RSA-AES128-SHA", "DHE-RSA-AES128-GCM-SHA256"] {
            let result = handshake(["-tls1_2", "-cipher", suite + "@SECLEVEL=0"])
            #expect(result.error.contains("alert handshake failure"), "\(suite): \(result.error)")
        }
        // The same client with a forward-secret AEAD suite gets through: the refusals above were about the offer.
        let accepted = handshake(["-tls1_2", "-cipher", "ECDHE-RSA-AES128-GCM-SHA256@SECLEVEL=0"])
        #expect(accepted.output.contains("Cipher is ECDHE-RSA-AES128-GCM-SHA256"), "\(accepted.error)")
    }

    @Test func halfOpenHandshakeIsCutAtTheHeaderTimeout() throws {
        let certificate = try TestCertificate()
        let server = try Self.server(certificate) { $0.headerTimeout = 0.6 }
        defer { server.stop() }
        // A ClientHello's record header and the start of its body, then nothing.
        let client = try server.client()
        client.send([0x16, 0x03, 0x01, 0x02, 0x00, 0x01, 0x00, 0x01, 0xFC, 0x03, 0x03])
        let silent = try server.client()
        #expect(try !client.closes(within: 0.2))
        #expect(try client.closes(within: 2))
        #expect(try silent.closes(within: 1))
    }

    @Test func handshakesAreBoundedPerAddress() throws {
        let certificate = try TestCertificate()
        let server = try Self.server(certificate) { $0.maxHandshakesPerAddress = 4 }
        defer { server.stop() }
        let result = python(
            """
            held = [socket.create_connection(("127.0.0.1", port), source_address=("127.0.0.2", 0)) for _ in range(4)]
            time.sleep(0.3)
            extra = socket.create_connection(("127.0.0.1", port), source_address=("127.0.0.2", 0), timeout=2)
            assert extra.recv(10) == b"", "a fifth handshake from one address was accepted"
            other = connect(source="127.0.0.3")
            other.sendall(b"GET /hello HTTP/1.1\\r\\nHost: t\\r\\n\\r\\n")
            assert read_response(other)[0].endswith(b"hello")
            # Finished handshakes no longer count: 127.0.0.2 may start new ones once its held ones end.
            for h in held: h.close()
            time.sleep(0.3)
            again = connect(source="127.0.0.2")
            again.sendall(b"GET /hello HTTP/1.1\\r\\nHost: t\\r\\n\\r\\n")
            assert read_response(again)[0].endswith(b"hello")
            print("ok")
            """, port: server.port, cafile: certificate.certificate)
        #expect(result.output == "ok\n", "\(result.error)")
    }

    @Test func slowBodyIsCutOffOverTLSToo() throws {
        let certificate = try TestCertificate()
        let server = try Self.server(certificate) {
            $0.bodyGracePeriod = 0.3
            $0.minBodyRate = 1000
            $0.bodyTimeout = 5
        }
        defer { server.stop() }
        let result = python(
            """
            s = connect()
            s.sendall(b"POST /echo HTTP/1.1\\r\\nHost: t\\r\\nContent-Length: 100000\\r\\n\\r\\n")
            start = time.monotonic()
            s.settimeout(0.1)
            answer = b""
            while time.monotonic() - start < 4 and b"\\r\\n\\r\\n" not in answer:
                try:
                    s.sendall(b"x")
                    answer += s.recv(65536)
                except (socket.timeout, ssl.SSLWantReadError):
                    pass
            print(answer.split(b"\\r\\n")[0].decode())
            """, port: server.port, cafile: certificate.certificate)
        #expect(result.output == "HTTP/1.1 408 Request Timeout\n", "\(result.error)")
    }

    /// Malformed requests of the kinds llhttp's strict mode refuses, and the fuzzer's seed corpus: each gets the
    /// same answer over TLS as in plain text.
    @Test func malformedRequestsGetTheSameAnswersOverTLS() throws {
        let certificate = try TestCertificate()
        let secure = try Self.server(certificate)
        let plain = try TestServer()
        defer {
            secure.stop()
            plain.stop()
        }
        let result = python(
            """
            import glob, json
            cases = [
                b"GET /hello HTTP/1.1\\nHost: t\\n\\n",
                b"GET /hello HTTP/1.1\\r\\nHost: t\\r\\nX: a\\r\\n b\\r\\n\\r\\n",
                b"POST /echo HTTP/1.1\\r\\nHost: t\\r\\nContent-Length: 3\\r\\nContent-Length: 4\\r\\n\\r\\nabcd",
                b"POST /echo HTTP/1.1\\r\\nHost: t\\r\\nTransfer-Encoding: chunked\\r\\nContent-Length: 3\\r\\n\\r\\n0\\r\\n\\r\\n",
                b"POST /echo HTTP/1.1\\r\\nHost: t\\r\\nTransfer-Encoding: chunked\\r\\n\\r\\nzz\\r\\nab\\r\\n0\\r\\n\\r\\n",
                b"GET /hello HTTP/1.1\\r\\nHost : t\\r\\n\\r\\n",
                b"GET /hello HTTP/1.1\\r\\nHost: t\\x00\\r\\n\\r\\n",
                b"GET /hello HTTP/1.1\\r\\nHost: t\\r\\nX: " + b"a" * 20000 + b"\\r\\n\\r\\n",
                b"GET /" + b"a" * 20000 + b" HTTP/1.1\\r\\nHost: t\\r\\n\\r\\n",
                b"GET /hello HTTP/2.0\\r\\nHost: t\\r\\n\\r\\n",
                b"BREW /hello HTTP/1.1\\r\\nHost: t\\r\\n\\r\\n",
                b"GET /hello HTTP/1.1\\r\\n\\r\\n",
                b"\\x16\\x03\\x01\\x00\\x05hello\\r\\n\\r\\n",
            ] + [open(f, "rb").read() for f in sorted(glob.glob("scripts/fuzz/corpus/*"))]
            def answer(s, request):
                s.settimeout(3)
                data = b""
                try:
                    s.sendall(request)
                    while b"\\r\\n" not in data:
                        chunk = s.recv(65536)
                        if not chunk: break
                        data += chunk
                except (ConnectionResetError, BrokenPipeError, ssl.SSLError):
                    pass  # refused early: what was read so far stands
                return data.split(b"\\r\\n")[0].decode("latin-1") or "closed"
            plain_port = int(sys.argv[1])
            differ = []
            for request in cases:
                over_plain = answer(socket.create_connection(("127.0.0.1", plain_port)), request)
                over_tls = answer(connect(), request)
                if over_plain != over_tls: differ.append((request[:40].decode("latin-1"), over_plain, over_tls))
            print(json.dumps({"cases": len(cases), "differ": differ}))
            """, port: secure.port, cafile: certificate.certificate, arguments: ["\(plain.port)"])
        #expect(result.output.contains("\"differ\": []"), "\(result.output) \(result.error)")
        #expect(result.output.contains("\"cases\": 20"), "\(result.output)")
    }

    /// Fails on 8f8cef3, where the redirect always copied the request's Host (which the client chose).
    @Test func theRedirectGoesToThePublicHostWhenOneIsSet() throws {
        let site = Router()
        let redirect = try HTTPSRedirect(
            httpsPort: 443, publicHost: "arcade.example.com", acmeDirectory: nil, to: site.build())
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.accessLog = false
        let server = try HTTPServer(configuration: configuration, responder: redirect)
        server.start()
        defer {
            server.shutdown()
            server.wait()
        }
        let client = try RawClient(port: server.port)
        client.send("GET /mastermind?lang=ja HTTP/1.1\r\nHost: phishing.example:80\r\n\r\n")
        let moved = try client.readResponse()
        #expect(moved.status == 308)
        #expect(moved.header("Location") == "https://arcade.example.com/mastermind?lang=ja")
    }

    @Test func plainHTTPIsRedirectedButChallengesAndHealthAreServed() throws {
        let webroot = ScratchDirectory()
        let site = Router()
        site.get("/healthz") { _ in .text("ok") }
        let redirect = try HTTPSRedirect(
            httpsPort: 8443, acmeDirectory: webroot.path + "/acme",
            passing: ["/healthz"], to: site.build())
        webroot.write("acme/.well-known/acme-challenge/token-1", "token-1.thumbprint")
        var configuration = ServerConfiguration()
        configuration.port = 0
        configuration.accessLog = false
        let server = try HTTPServer(configuration: configuration, responder: redirect)
        server.start()
        defer {
            server.shutdown()
            server.wait()
        }
        func ask(_ request: String) throws -> WireResponse {
            let client = try RawClient(port: server.port)
            client.send(request)
            return try client.readResponse()
        }
        let moved = try ask("GET /mastermind?lang=ja HTTP/1.1\r\nHost: example.org:8080\r\n\r\n")
        #expect(moved.status == 308)
        #expect(moved.header("Location") == "https://example.org:8443/mastermind?lang=ja")
        let posted = try ask("POST /admin/login HTTP/1.1\r\nHost: [::1]:80\r\nContent-Length: 0\r\n\r\n")
        #expect(posted.status == 308)
        #expect(posted.header("Location") == "https://[::1]:8443/admin/login")
        let forged = try ask("GET / HTTP/1.1\r\nHost: evil.org/x@y\r\n\r\n")
        #expect(forged.header("Location") == "https://localhost:8443/")
        let challenge = try ask("GET /.well-known/acme-challenge/token-1 HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(challenge.status == 200)
        #expect(challenge.text == "token-1.thumbprint")
        #expect(try ask("GET /.well-known/acme-challenge/missing HTTP/1.1\r\nHost: t\r\n\r\n").status == 404)
        #expect(try ask("GET /.well-known/acme-challenge/../../x HTTP/1.1\r\nHost: t\r\n\r\n").status != 200)
        let health = try ask("GET /healthz HTTP/1.1\r\nHost: t\r\n\r\n")
        #expect(health.status == 200)
        #expect(health.text == "ok")
    }
}

/// `arcade serve` with a certificate: the flags, the reload, the redirect port, and the secure defaults.
@Suite("TLS serve")
struct TLSServeTests {
    /// A free port below the kernel's ephemeral range: one the kernel chose and freed could be chosen again for the
    /// server's own `--port 0` (a run's redirect port was its HTTPS port: "Address already in use").
    static func freePort() throws -> Int {
        let probe = run([
            "python3", "-c",
            "import random, socket\nwhile True:\n s = socket.socket(); p = random.randint(20000, 32000)\n"
                + " try: s.bind(('127.0.0.1', p)); print(p); break\n except OSError: s.close()",
        ])
        guard let port = Int(probe.output.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw TestFailure("no free port: \(probe.error)")
        }
        return port
    }

    @Test func sighupLoadsANewCertificateAndABrokenOneKeepsTheOld() throws {
        let certificate = try TestCertificate()
        let db = ScratchDirectory()
        let redirectPort = try Self.freePort()
        let child = try ChildProcess([
            "serve", "--port", "0", "--db", db.path + "/a.sqlite", "--public", "Public",
            "--tls-cert", certificate.certificate, "--tls-key", certificate.key,
            "--redirect-http", "\(redirectPort)", "--hsts-max-age", "600",
        ])
        let port = try child.waitForPort()
        #expect(child.standardOutput.contains("https://127.0.0.1:\(port)"))
        // Said just after the start-up line: waited for (a loaded CI machine read the output between the two).
        #expect(child.waitForOutput("kernel TLS"), "\(child.standardOutput)")
        let firstSerial = certificate.serial(of: certificate.certificate)
        func servedSerial() -> String {
            let chain = run(["openssl", "s_client", "-connect", "127.0.0.1:\(port)"], input: "").output
            return run(["openssl", "x509", "-noout", "-serial"], input: chain).output
                .replacingOccurrences(of: "serial=", with: "").trimmingCharacters(in: .whitespacesAndNewlines)
        }
        #expect(servedSerial() == firstSerial)

        // Secure defaults: cookies are Secure without --secure-cookies, and pages send HSTS.
        let page = run([
            "curl", "-sS", "-D", "-", "-o", "/dev/null", "--cacert", certificate.certificate,
            "https://127.0.0.1:\(port)/",
        ])
        #expect(page.output.contains("Strict-Transport-Security: max-age=600"), "\(page.error)")
        let cookies = page.output.split(separator: "\r\n").filter { $0.lowercased().hasPrefix("set-cookie:") }
        #expect(!cookies.isEmpty)
        #expect(cookies.allSatisfy { $0.contains("; Secure") })
        // The plain port redirects, and still answers the health check.
        let moved = run(["curl", "-sS", "-D", "-", "-o", "/dev/null", "http://127.0.0.1:\(redirectPort)/credits?a=1"])
        #expect(moved.output.hasPrefix("HTTP/1.1 308"))
        #expect(moved.output.contains("Location: https://127.0.0.1:\(port)/credits?a=1"))
        #expect(run(["curl", "-sS", "http://127.0.0.1:\(redirectPort)/healthz"]).output == "ok")

        // A connection opened before the reload: it asks again after, on the same connection.
        let script = """
            import socket, ssl, sys
            c = ssl.create_default_context(cafile="\(certificate.certificate)")
            s = c.wrap_socket(socket.create_connection(("127.0.0.1", \(port))), server_hostname="localhost")
            s.sendall(b"GET /healthz HTTP/1.1\\r\\nHost: t\\r\\n\\r\\n"); first = s.recv(65536)
            print("open", flush=True)
            sys.stdin.readline()
            s.sendall(b"GET /healthz HTTP/1.1\\r\\nHost: t\\r\\n\\r\\n"); second = s.recv(65536)
            print("again", second.split(b"\\r\\n")[0].decode(), second.endswith(b"ok"), flush=True)
            """
        let before = try Tool(["python3", "-c", script])
        #expect(before.readLine()?.hasPrefix("open") == true)

        try certificate.make(.rsa, into: "next-")
        let nextSerial = certificate.serial(of: certificate.folder.path + "/next-cert.pem")
        _ = rename(certificate.folder.path + "/next-key.pem", certificate.key)
        _ = rename(certificate.folder.path + "/next-cert.pem", certificate.certificate)
        child.signal(SIGHUP)
        var served = ""
        for _ in 0..<20 {
            served = servedSerial()
            if served == nextSerial { break }
            sleep(seconds: 0.05)
        }
        // Within a second of SIGHUP: the poll for changed files waits two periods of 2 s, so this was the signal.
        #expect(served == nextSerial)
        #expect(child.standardOutput.contains("reloaded the certificate: /CN=localhost, serial \(nextSerial)"))
        before.write("\n")
        let again = before.readToEnd()
        before.wait()
        #expect(again.contains("again HTTP/1.1 200 OK True\n"))

        // A broken pair: a key that does not belong to the certificate.
        try certificate.make(.ecdsa, into: "other-")
        _ = rename(certificate.folder.path + "/other-key.pem", certificate.key)
        child.signal(SIGHUP)
        sleep(seconds: 0.5)
        #expect(child.standardError.contains("kept the old certificate (/CN=localhost, serial \(nextSerial)"))
        #expect(child.standardError.contains("the key does not match the certificate"))
        #expect(servedSerial() == nextSerial)
        #expect(
            run(["curl", "-sS", "--cacert", certificate.certificate, "https://127.0.0.1:\(port)/healthz"])
                .output == "ok")
        child.signal(SIGTERM)
        #expect(child.wait(timeout: 10) == 0)
    }

    @Test func changedFilesAreLoadedWithoutASignal() throws {
        let certificate = try TestCertificate()
        let db = ScratchDirectory()
        let child = try ChildProcess(
            ["serve", "--port", "0", "--db", db.path + "/a.sqlite", "--public", "Public"],
            environment: [
                "ARCADE_TLS_CERT": certificate.certificate,
                "ARCADE_TLS_KEY": certificate.key,
            ])
        _ = try child.waitForPort()
        try certificate.make(.ecdsa, into: "next-")
        let nextSerial = certificate.serial(of: certificate.folder.path + "/next-cert.pem")
        _ = rename(certificate.folder.path + "/next-key.pem", certificate.key)
        _ = rename(certificate.folder.path + "/next-cert.pem", certificate.certificate)
        var seen = false
        for _ in 0..<100 where !seen {
            sleep(seconds: 0.1)
            seen = child.standardOutput.contains("reloaded the certificate: /CN=localhost, serial \(nextSerial)")
        }
        #expect(seen, "\(child.standardOutput + child.standardError)")
        #expect(!child.standardError.contains("kept the old"))
        child.signal(SIGTERM)
        #expect(child.wait(timeout: 10) == 0)
    }

    @Test func flagsComeInPairs() throws {
        let certificate = try TestCertificate()
        let lone = try ChildProcess(["serve", "--port", "0", "--tls-cert", certificate.certificate])
        #expect(lone.wait(timeout: 10) == 2)
        #expect(lone.standardError.contains("--tls-cert and --tls-key go together"))
        let broken = ScratchDirectory()
        broken.write("key.pem", "not a key")
        let bad = try ChildProcess([
            "serve", "--port", "0", "--db", broken.path + "/a.sqlite", "--public", "Public",
            "--tls-cert", certificate.certificate, "--tls-key", broken.path + "/key.pem",
        ])
        #expect(bad.wait(timeout: 20) == 1)
        #expect(bad.standardError.contains("cannot load the key \(broken.path)/key.pem"))
    }
}
