import Testing

@testable import HTTP

@Suite("Multipart form data")
struct MultipartParserTests {
    static let boundary = "----arcadeBoundary7MA4YWxkTrZu0gW"
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x0D, 0x0A, 0x2D, 0x2D, 0x00, 0xFF]

    /// A form as a browser sends it: a field, a file whose bytes hold CRLF and `--` (but not the delimiter), and a
    /// preamble and an epilogue that must be ignored.
    static var body: [UInt8] {
        var out = Array("This is the preamble.\r\n--\(boundary)\r\n".utf8)
        out += Array("Content-Disposition: form-data; name=\"first\"\r\n\r\nAda\r\n--\(boundary)\r\n".utf8)
        out += Array("Content-Disposition: form-data; name=\"photo\"; filename=\"C:\\\\fakepath\\\\ada.png\"\r\n".utf8)
        out += Array("Content-Type: image/png\r\n\r\n".utf8) + png
        out += Array(
            "\r\n--\(boundary)\r\nContent-Disposition: form-data; name=\"empty\"\r\n\r\n\r\n--\(boundary)--\r\nepilogue"
                .utf8)
        return out
    }

    static let expected = [
        MultipartPart(name: "first", body: Array("Ada".utf8)),
        MultipartPart(name: "photo", filename: "ada.png", contentType: "image/png", body: png),
        MultipartPart(name: "empty", body: []),
    ]

    func parse(
        _ chunks: [ArraySlice<UInt8>], limits: MultipartLimits = MultipartLimits()
    ) throws(HTTPError) -> [MultipartPart] {
        var parser = try MultipartParser(boundary: Self.boundary, limits: limits)
        for chunk in chunks { try parser.feed(chunk) }
        return try parser.finish()
    }

    @Test func wholeByteByByteAndSplitAnywhereGiveTheSameParts() throws {
        let body = Self.body
        #expect(try parse([body[...]]) == Self.expected)
        #expect(try parse(body.indices.map { body[$0...$0] }) == Self.expected, "one byte at a time")
        for split in 0...body.count {
            #expect(try parse([body[..<split], body[split...]]) == Self.expected, "split at \(split)")
        }
        #expect(
            try MultipartParser.parse(body, contentType: "multipart/form-data; boundary=\(Self.boundary)")
                == Self.expected)
    }

    @Test func theBoundaryComesFromTheContentType() {
        #expect(MultipartParser.boundary(contentType: "multipart/form-data; boundary=abc") == "abc")
        #expect(
            MultipartParser.boundary(contentType: "Multipart/Form-Data; charset=utf-8; BOUNDARY=\"a b:c\"") == "a b:c")
        #expect(MultipartParser.boundary(contentType: "multipart/form-data") == nil)
        #expect(MultipartParser.boundary(contentType: "multipart/form-data; boundary=\"unclosed") == nil)
        #expect(MultipartParser.boundary(contentType: "application/x-www-form-urlencoded; boundary=abc") == nil)
        #expect(throws: HTTPError.self) { try MultipartParser(boundary: String(repeating: "a", count: 71)) }
        #expect(throws: HTTPError.self) { try MultipartParser(boundary: "bad\rboundary") }
        #expect(throws: HTTPError.self) { try MultipartParser(boundary: "") }
    }

    @Test func aMissingClosingBoundaryIsRefused() {
        var body = Self.body
        body.removeLast("--\r\nepilogue".utf8.count)
        #expect(throws: HTTPError(.badRequest, "multipart body without its closing boundary")) {
            try parse([body[...]])
        }
        #expect(throws: HTTPError.self) { try parse([Array("no boundary at all".utf8)[...]]) }
    }

    @Test func boundsAreKept() {
        let body = Self.body
        #expect(throws: HTTPError(.contentTooLarge, "a part is larger than 10 bytes")) {
            try parse([body[...]], limits: MultipartLimits(maxPartBytes: 10))
        }
        #expect(throws: HTTPError(.contentTooLarge, "more than 2 parts")) {
            try parse([body[...]], limits: MultipartLimits(maxParts: 2))
        }
        #expect(throws: HTTPError(.contentTooLarge, "part headers too large")) {
            try parse([body[...]], limits: MultipartLimits(maxHeaderBytes: 40))
        }
        // Headers that never end are refused as soon as they pass the bound, fed byte by byte.
        let endless = Array("--\(Self.boundary)\r\nX-Long: ".utf8) + Array(repeating: UInt8(ascii: "a"), count: 10_000)
        #expect(throws: HTTPError.self) { try parse(endless.indices.map { endless[$0...$0] }) }
    }

    /// A filename cannot smuggle a header or a folder: raw line breaks in it break the header block (400), control
    /// characters are refused, folders are dropped, escaped quotes are kept.
    @Test func filenamesCannotInjectHeadersOrFolders() throws {
        func part(_ disposition: String) throws(HTTPError) -> [MultipartPart] {
            let text = "--\(Self.boundary)\r\nContent-Disposition: \(disposition)\r\n\r\nx\r\n--\(Self.boundary)--"
            return try parse([Array(text.utf8)[...]])
        }
        #expect(throws: HTTPError.self) {
            try part("form-data; name=\"f\"; filename=\"a.png\rContent-Type: text/html\"")
        }
        #expect(throws: HTTPError.self) { try part("form-data; name=\"f\"; filename=\"a.png\nX: y\"") }
        #expect(throws: HTTPError.self) { try part("form-data; name=\"f\"; filename=\"a\u{1}.png\"") }
        #expect(throws: HTTPError.self) { try part("form-data; name=\"f\"; filename=\"unclosed") }
        #expect(throws: HTTPError.self) { try part("attachment; name=\"f\"") }
        #expect(try part("form-data; name=\"f\"; filename=\"../../etc/passwd\"").first?.filename == "passwd")
        #expect(
            try part("form-data; name=\"f\"; filename=\"say \\\"cheese\\\".png\"").first?.filename
                == "say \"cheese\".png")
        #expect(try part("form-data; name=f; filename=plain.png").first?.filename == "plain.png")
        #expect(throws: HTTPError.self) { try part("form-data; filename=\"nameless.png\"") }
    }

    @Test func aPartWithoutANameIsRefused() {
        let text = "--\(Self.boundary)\r\nContent-Type: text/plain\r\n\r\nx\r\n--\(Self.boundary)--"
        #expect(throws: HTTPError(.badRequest, "a part without Content-Disposition: form-data; name")) {
            try parse([Array(text.utf8)[...]])
        }
    }

    /// Worst case for the search: a body made of almost-delimiters. It must stay linear (this finishes at once).
    @Test func almostDelimitersDoNotMakeTheSearchQuadratic() throws {
        let almost = Array("\r\n--\(Self.boundary.dropLast())".utf8)
        var body = Array("--\(Self.boundary)\r\nContent-Disposition: form-data; name=\"f\"\r\n\r\n".utf8)
        for _ in 0..<20_000 { body += almost }
        body += Array("\r\n--\(Self.boundary)--".utf8)
        let parts = try parse([body[...]], limits: MultipartLimits(maxPartBytes: 4 << 20))
        #expect(parts.first?.body.count == 20_000 * almost.count)
    }
}
