import Testing

@testable import HTTP

/// The parser in response mode (the HTTP client's): the same fields, chunked coding and limits as for requests,
/// framed as RFC 9112 §6.3 says.
@Suite("Responses through the request parser")
struct ResponseParsingTests {
    /// "STATUS body" per final or interim response, then "end" if the stream's end completed one, or "failed STATUS";
    /// fed whole and a byte at a time, which must agree.
    static func read(_ text: String, maxBody: Int = 1 << 20, closes: Bool = true) -> [String] {
        let bytes = Array(text.utf8)
        var results: [[String]] = []
        for step in [bytes.count, 1] {
            var limits = ParserLimits()
            limits.maxBody = maxBody
            var parser = RequestParser(responses: limits)
            var seen: [String] = []
            var offset = 0
            var pending: [UInt8] = []
            func note(_ event: RequestParser.Event) -> Bool {
                switch event {
                case .response(let status, _, let body):
                    seen.append("\(status) \(String(decoding: body, as: UTF8.self))")
                case .failure(let error):
                    seen.append("failed \(error.status.code)")
                    return false
                default: break
                }
                return true
            }
            feeding: while offset < bytes.count {
                pending += bytes[offset..<min(bytes.count, offset + max(step, 1))]
                offset += max(step, 1)
                while !pending.isEmpty {
                    let (used, event) = pending.withUnsafeBytes { parser.parse($0) }
                    pending.removeFirst(used)
                    guard note(event) else { break feeding }
                    if case .needMore = event { break }
                }
            }
            // The stream ends: what it leaves begun (or nothing at all) is for `finish` to judge.
            if closes, seen.last?.hasPrefix("failed") != true, !parser.isIdle || seen.isEmpty {
                let before = seen.count
                if note(parser.finish()), seen.count > before { seen[seen.count - 1] += " end" }
            }
            results.append(seen)
        }
        #expect(results[0] == results[1], "whole and byte by byte agree")
        return results[0]
    }

    @Test func bodiesAreFramedAsTheStatusAndHeadersSay() {
        #expect(Self.read("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello") == ["200 hello"])
        #expect(
            Self.read(
                "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;x=\"y\"\r\nhello\r\n1\r\n!\r\n0\r\nT: 1\r\n\r\n"
            )
                == ["200 hello!"])
        #expect(
            Self.read("HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n\r\n3\n0\n7\n") == ["200 3\n0\n7\n end"],
            "no length: the body runs to the end of the stream")
        #expect(Self.read("HTTP/1.1 204 No Content\r\nContent-Length: 9\r\n\r\n") == ["204 "])
        #expect(Self.read("HTTP/1.1 304 Not Modified\r\n\r\n") == ["304 "])
        #expect(
            Self.read("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok") == [
                "100 ", "200 ok",
            ],
            "an interim response, then the final one")
        #expect(Self.read("HTTP/1.1 200\r\nContent-Length: 0\r\n\r\n") == ["200 "], "a status line without a reason")
        #expect(
            Self.read("HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\nContent-Length: 0\r\n\r\n") == ["503 "],
            "repeated equal lengths")
    }

    @Test func malformedOrOversizedResponsesFail() {
        for bad in [
            "HTTP/2 200 OK\r\n\r\n", "HTTP/1.1 20 OK\r\n\r\n", "HTTP/1.1 700 Odd\r\n\r\n", "HTTP/1.1 200OK\r\n\r\n",
            "ICY 200 OK\r\n\r\n", "HTTP/1.1 200 OK\n\n", "HTTP/1.1 200 OK\r\nBad Header: x\r\n\r\n",
            "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nhello",
            "HTTP/1.1 200 OK\r\nContent-Length: -1\r\n\r\n",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n",
        ] {
            #expect(Self.read(bad).last?.hasPrefix("failed") == true, "\(bad)")
        }
        #expect(Self.read("HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip\r\n\r\n") == ["failed 501"])
        #expect(Self.read("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n", maxBody: 10) == ["failed 413"])
        #expect(
            Self.read("HTTP/1.1 200 OK\r\n\r\n" + String(repeating: "x", count: 50), maxBody: 10) == ["failed 413"],
            "a body read to the end is bounded too")
        #expect(
            Self.read("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nshort") == ["failed 400"], "closed inside the body")
        #expect(Self.read("HTTP/1.1 200 O") == ["failed 400"], "closed inside the head")
        #expect(Self.read("") == ["failed 400"], "closed before a response")
        #expect(
            Self.read("HTTP/1.1 200 OK\r\n" + String(repeating: "X-A: b\r\n", count: 200) + "\r\n") == ["failed 431"])
    }
}
