import Testing

@testable import HTTP

@Suite("Request parser: accepted requests")
struct ParserAcceptsTests {
    @Test func simpleGet() {
        let (result, requests) = parseAll(
            Array("GET /index.html?x=1 HTTP/1.1\r\nHost: a\r\nX-Thing:  spaced value \t\r\n\r\n".utf8))
        #expect(result == .requests(["GET /index.html?x=1 0"]))
        #expect(requests[0].headers["host"] == "a")
        #expect(requests[0].headers["X-THING"] == "spaced value")
        #expect(requests[0].rawPath == "/index.html")
        #expect(requests[0].rawQuery == "x=1")
        #expect(requests[0].version == .http11)
        #expect(requests[0].wantsKeepAlive)
    }

    @Test func byteAtATimeMatchesWhole() {
        let text = "POST /a HTTP/1.1\r\nHost: h\r\nContent-Length: 5\r\n\r\nhelloGET /b HTTP/1.1\r\nHost: h\r\n\r\n"
        let whole = parseAll(Array(text.utf8))
        let trickled = parseAll(Array(text.utf8), chunkSize: 1)
        #expect(whole.0 == .requests(["POST /a 5", "GET /b 0"]))
        #expect(trickled.0 == whole.0)
        #expect(trickled.1[0].body == Array("hello".utf8))
    }

    @Test func everySplitPointGivesTheSameRequests() {
        let text = Array(
            "POST /c HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n3;a=b\r\nabc\r\n0\r\nT: v\r\n\r\n".utf8)
        for size in 1...text.count {
            let (result, requests) = parseAll(text, chunkSize: size)
            #expect(result == .requests(["POST /c 3"]), "chunk size \(size)")
            #expect(requests.first?.body == Array("abc".utf8))
        }
    }

    @Test func pipelinedRequestsInOneBuffer() {
        let text = ["/1", "/2", "/3"].map { "GET \($0) HTTP/1.1\r\nHost: h\r\n\r\n" }.joined()
        #expect(outcome(text) == .requests(["GET /1 0", "GET /2 0", "GET /3 0"]))
    }

    @Test func http10NeedsNoHostAndClosesByDefault() {
        let (result, requests) = parseAll(Array("GET / HTTP/1.0\r\n\r\n".utf8))
        #expect(result == .requests(["GET / 0"]))
        #expect(requests[0].version == .http10)
        #expect(!requests[0].wantsKeepAlive)
        let (_, kept) = parseAll(Array("GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n".utf8))
        #expect(kept[0].wantsKeepAlive)
    }

    @Test func connectionCloseIsHonoured() {
        let (_, requests) = parseAll(Array("GET / HTTP/1.1\r\nHost: h\r\nConnection: foo, close\r\n\r\n".utf8))
        #expect(!requests[0].wantsKeepAlive)
    }

    @Test func chunkedBodyWithExtensionsAndTrailers() {
        let text =
            "POST /u HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: Chunked\r\n\r\n"
            + "5;name=value ; flag;q=\"a \\\" b\"\r\nhello\r\nA\r\n0123456789\r\n0\r\nExpires: never\r\n\r\n"
        let (result, requests) = parseAll(Array(text.utf8))
        #expect(result == .requests(["POST /u 15"]))
        #expect(requests[0].body == Array("hello0123456789".utf8))
        #expect(requests[0].headers["Expires"] == nil, "trailers are not merged into the head")
        #expect(outcome(text) == result)
    }

    @Test func absoluteFormBecomesOriginForm() {
        #expect(
            outcome("GET http://example.com:8080/p/q?x HTTP/1.1\r\nHost: example.com\r\n\r\n")
                == .requests(["GET /p/q?x 0"]))
        #expect(outcome("GET HTTP://example.com HTTP/1.1\r\nHost: example.com\r\n\r\n") == .requests(["GET / 0"]))
        #expect(outcome("OPTIONS * HTTP/1.1\r\nHost: h\r\n\r\n") == .requests(["OPTIONS * 0"]))
    }

    @Test func leadingBlankLinesAreTolerated() {
        #expect(outcome("\r\n\r\nGET / HTTP/1.1\r\nHost: h\r\n\r\n") == .requests(["GET / 0"]))
    }

    @Test func expectContinueIsReported() {
        var parser = RequestParser()
        let head = Array("PUT /f HTTP/1.1\r\nHost: h\r\nExpect: 100-continue\r\nContent-Length: 3\r\n\r\n".utf8)
        let (used, event) = head.withUnsafeBytes { parser.parse($0) }
        #expect(used == head.count)
        guard case .expectsContinue = event else {
            Issue.record("got \(event)")
            return
        }
        #expect(parser.isReadingBody)
        let (_, next) = Array("abc".utf8).withUnsafeBytes { parser.parse($0) }
        guard case .request(let r) = next else {
            Issue.record("got \(next)")
            return
        }
        #expect(r.body == Array("abc".utf8))
    }

    @Test func bodyOfExactlyTheLimitIsAccepted() {
        var limits = ParserLimits()
        limits.maxBody = 10
        #expect(
            outcome("POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 10\r\n\r\n0123456789", limits: limits)
                == .requests(["POST / 10"]))
        #expect(
            outcome(
                "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n01234\r\n5\r\n56789\r\n0\r\n\r\n",
                limits: limits)
                == .requests(["POST / 10"]))
    }

    @Test func uploadPathsTakeTheLargerLimitForPostOnly() {
        var limits = ParserLimits()
        limits.maxBody = 10
        limits.maxUploadBody = 20
        limits.uploadPaths = ["/admin/people"]
        let body = String(repeating: "x", count: 15)
        #expect(
            outcome(
                "POST /admin/people/import HTTP/1.1\r\nHost: h\r\nContent-Length: 15\r\n\r\n\(body)", limits: limits)
                == .requests(["POST /admin/people/import 15"]))
        #expect(
            outcome("POST /admin/people HTTP/1.1\r\nHost: h\r\nContent-Length: 21\r\n\r\n", limits: limits)
                == .failed(413))
        #expect(
            outcome("POST /other HTTP/1.1\r\nHost: h\r\nContent-Length: 15\r\n\r\n\(body)", limits: limits)
                == .failed(413))
        #expect(
            outcome("PUT /admin/people HTTP/1.1\r\nHost: h\r\nContent-Length: 15\r\n\r\n\(body)", limits: limits)
                == .failed(413))
        #expect(
            outcome(
                "POST /admin/people HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\nf\r\n\(body)\r\n0\r\n\r\n",
                limits: limits) == .requests(["POST /admin/people 15"]))
    }

    @Test func headerLimitsAtTheirEdges() {
        let hundred = (0..<100).map { "X-\($0): v\r\n" }.joined()
        #expect(
            outcome("GET / HTTP/1.1\r\nHost: h\r\n" + (0..<99).map { "X-\($0): v\r\n" }.joined() + "\r\n")
                == .requests(["GET / 0"]))
        #expect(outcome("GET / HTTP/1.1\r\nHost: h\r\n" + hundred + "\r\n") == .failed(431))
        let target = "/" + String(repeating: "a", count: 8 * 1024 - "GET  HTTP/1.1".count - 2)
        #expect(outcome("GET \(target) HTTP/1.1\r\nHost: h\r\n\r\n") == .requests(["GET \(target) 0"]))
    }
}

@Suite("Request parser: refusals, as nginx answers them")
struct ParserRefusesTests {
    static let host = "Host: h\r\n"

    @Test func requestLineOver8KiB() {
        #expect(outcome("GET /" + String(repeating: "a", count: 8200) + " HTTP/1.1\r\n\r\n") == .failed(414))
        // Refused before the line ends: the client need not send the rest.
        let (result, _) = parseAll(Array(("GET /" + String(repeating: "a", count: 9000)).utf8))
        #expect(result == .failed(414))
    }

    @Test func headerLineOver8KiB() {
        #expect(
            outcome("GET / HTTP/1.1\r\n\(Self.host)X-Big: " + String(repeating: "b", count: 8200) + "\r\n\r\n")
                == .failed(431))
    }

    @Test func headersOver32KiB() {
        let line = "X-Fill: " + String(repeating: "f", count: 4000) + "\r\n"
        #expect(outcome("GET / HTTP/1.1\r\n\(Self.host)" + String(repeating: line, count: 9) + "\r\n") == .failed(431))
    }

    @Test func moreThan100Headers() {
        #expect(
            outcome("GET / HTTP/1.1\r\n\(Self.host)" + (0..<100).map { "X-\($0): v\r\n" }.joined() + "\r\n")
                == .failed(431))
    }

    @Test func bodyOver1MiB() {
        #expect(outcome("POST / HTTP/1.1\r\n\(Self.host)Content-Length: 1048577\r\n\r\n") == .failed(413))
        var limits = ParserLimits()
        limits.maxBody = 10
        #expect(
            outcome(
                "POST / HTTP/1.1\r\n\(Self.host)Transfer-Encoding: chunked\r\n\r\n6\r\n012345\r\n5\r\n", limits: limits)
                == .failed(413))
        #expect(
            outcome("POST / HTTP/1.1\r\n\(Self.host)Transfer-Encoding: chunked\r\n\r\nfffffffffffffffffffff\r\n")
                == .failed(413))
    }

    @Test(arguments: [
        ("two Content-Length", "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 1\r\nContent-Length: 1\r\n\r\nx"),
        ("Content-Length list", "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 1, 1\r\n\r\nx"),
        ("negative Content-Length", "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: -1\r\n\r\n"),
        (
            "Content-Length with Transfer-Encoding",
            "POST / HTTP/1.1\r\nHost: h\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"
        ),
        ("Transfer-Encoding on HTTP/1.0", "POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n"),
        ("chunked twice", "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked, chunked\r\n\r\n0\r\n\r\n"),
        ("bad chunk size", "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n"),
        ("empty chunk size", "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n\r\n"),
        ("negative chunk size", "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n-1\r\n"),
        (
            "chunk extension without name",
            "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n1;=x\r\na\r\n0\r\n\r\n"
        ),
        (
            "chunk extension bad byte",
            "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n1;a@b\r\na\r\n0\r\n\r\n"
        ),
        (
            "chunk extension open quote",
            "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n1;a=\"b\r\na\r\n0\r\n\r\n"
        ),
        ("chunk data too long", "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nab\r\n0\r\n\r\n"),
        ("bare CR in request line", "GET /\r HTTP/1.1\r\nHost: h\r\n\r\n"),
        ("bare CR after request line", "GET / HTTP/1.1\rHost: h\r\n\r\n"),
        ("bare CR in header", "GET / HTTP/1.1\r\nHost: h\rX: y\r\n\r\n"),
        ("NUL in request line", "GET /a\u{0}b HTTP/1.1\r\nHost: h\r\n\r\n"),
        ("NUL in header value", "GET / HTTP/1.1\r\nHost: h\r\nX: a\u{0}b\r\n\r\n"),
        ("control byte in header value", "GET / HTTP/1.1\r\nHost: h\r\nX: a\u{1}b\r\n\r\n"),
        ("DEL in header value", "GET / HTTP/1.1\r\nHost: h\r\nX: a\u{7F}b\r\n\r\n"),
        ("control byte in target", "GET /a\u{7}b HTTP/1.1\r\nHost: h\r\n\r\n"),
        ("obs-fold", "GET / HTTP/1.1\r\nHost: h\r\nX: a\r\n  continued\r\n\r\n"),
        ("obs-fold with tab", "GET / HTTP/1.1\r\nHost: h\r\nX: a\r\n\tcontinued\r\n\r\n"),
        ("whitespace before colon", "GET / HTTP/1.1\r\nHost : h\r\n\r\n"),
        ("header without colon", "GET / HTTP/1.1\r\nHost: h\r\nNoColon\r\n\r\n"),
        ("empty header name", "GET / HTTP/1.1\r\nHost: h\r\n: v\r\n\r\n"),
        ("missing Host on 1.1", "GET / HTTP/1.1\r\nX: y\r\n\r\n"),
        ("duplicate Host", "GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n"),
        ("invalid percent-encoding", "GET /a%zzb HTTP/1.1\r\nHost: h\r\n\r\n"),
        ("truncated percent-encoding", "GET /a% HTTP/1.1\r\nHost: h\r\n\r\n"),
        ("percent-encoding in query", "GET /a?q=%G0 HTTP/1.1\r\nHost: h\r\n\r\n"),
        ("two spaces in request line", "GET  / HTTP/1.1\r\nHost: h\r\n\r\n"),
        ("missing version", "GET /\r\nHost: h\r\n\r\n"),
        ("garbage version", "GET / HTTQ/1.1\r\nHost: h\r\n\r\n"),
        ("lowercase version", "GET / http/1.1\r\nHost: h\r\n\r\n"),
        ("relative target", "GET index.html HTTP/1.1\r\nHost: h\r\n\r\n"),
        ("asterisk without OPTIONS", "GET * HTTP/1.1\r\nHost: h\r\n\r\n"),
        ("fragment in target", "GET /a#b HTTP/1.1\r\nHost: h\r\n\r\n"),
        ("method with bad byte", "GE(T / HTTP/1.1\r\nHost: h\r\n\r\n"),
        ("leading space", " GET / HTTP/1.1\r\nHost: h\r\n\r\n"),
        ("binary garbage", "\u{16}\u{3}\u{1}\u{0}\u{1}"),
    ])
    func badRequest(_ name: String, _ text: String) {
        #expect(outcome(text) == .failed(400), "\(name)")
    }

    /// CRLF only, as llhttp's strict mode: a bare LF anywhere in a head or a chunk line is 400,
    /// and a chunk size is hex digits followed at once by `;` or CRLF.
    @Test(arguments: [
        (
            "the issue's smuggling probe",
            "GET / HTTP/1.1\r\nHost: localhost\r\nDummy: x\nContent-Length: 23\r\n\r\n"
                + "GET / HTTP/1.1\r\nDummy: GET /admin HTTP/1.1\r\nHost: localhost\r\n\r\n"
        ),
        ("bare LF ending the request line", "GET / HTTP/1.1\nHost: h\r\n\r\n"),
        ("bare LF ending a header", "GET / HTTP/1.1\r\nHost: h\n\r\n"),
        ("bare LF ending the head", "GET / HTTP/1.1\r\nHost: h\r\n\n"),
        ("bare LF before the request", "\nGET / HTTP/1.1\r\nHost: h\r\n\r\n"),
        (
            "bare LF after a chunk size",
            "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n1\nA\r\n0\r\n\r\n"
        ),
        (
            "space after a chunk size",
            "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n1 \r\nA\r\n0\r\n\r\n"
        ),
        (
            "tab after a chunk size",
            "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n1\t\r\nA\r\n0\r\n\r\n"
        ),
        (
            "space before a chunk extension",
            "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n1 ;a=b\r\nA\r\n0\r\n\r\n"
        ),
        (
            "bare LF after a chunk extension",
            "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n1;a=b\nA\r\n0\r\n\r\n"
        ),
        (
            "bare LF after chunk data",
            "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nA\n0\r\n\r\n"
        ),
        (
            "bare CR after chunk data",
            "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nA\rX0\r\n\r\n"
        ),
        ("bare LF after the last chunk", "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n0\n\r\n"),
        ("bare LF ending a trailer", "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nT: v\n\r\n"),
        ("bare LF ending the trailers", "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\n"),
    ])
    func bareLineFeedsAndLooseChunkSizes(_ name: String, _ text: String) {
        #expect(outcome(text) == .failed(400), "\(name)")
    }

    @Test(arguments: [
        "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: gzip\r\n\r\n",
        "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: gzip, chunked\r\n\r\n",
        "POST / HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: identity\r\n\r\n",
    ])
    func unsupportedTransferEncoding(_ text: String) {
        #expect(outcome(text) == .failed(501))
    }

    @Test(arguments: [
        "BREW / HTTP/1.1\r\nHost: h\r\n\r\n", "get / HTTP/1.1\r\nHost: h\r\n\r\n",
        "CONNECT example.com:443 HTTP/1.1\r\nHost: h\r\n\r\n", "TRACE / HTTP/1.1\r\nHost: h\r\n\r\n",
        "AVERYLONGMETHODNAMEINDEED / HTTP/1.1\r\nHost: h\r\n\r\n",
    ])
    func unknownMethod(_ text: String) {
        #expect(outcome(text) == .failed(501))
    }

    @Test(arguments: [
        "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", "GET / HTTP/1.2\r\nHost: h\r\n\r\n",
        "GET / HTTP/0.9\r\n\r\n", "GET / HTTP/3.0\r\nHost: h\r\n\r\n",
    ])
    func unsupportedVersion(_ text: String) {
        #expect(outcome(text) == .failed(505))
    }

    @Test func unsupportedExpectation() {
        #expect(outcome("PUT / HTTP/1.1\r\nHost: h\r\nExpect: 200-ok\r\nContent-Length: 1\r\n\r\nx") == .failed(417))
    }

    @Test func parserStaysFailed() {
        var parser = RequestParser()
        let bad = Array("GET / HTTP/1.1\r\nHost : h\r\n\r\n".utf8)
        _ = bad.withUnsafeBytes { parser.parse($0) }
        let (_, event) = Array("GET / HTTP/1.1\r\nHost: h\r\n\r\n".utf8).withUnsafeBytes { parser.parse($0) }
        guard case .failure = event else {
            Issue.record("a failed parser accepted more input")
            return
        }
    }
}
