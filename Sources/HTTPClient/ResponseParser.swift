/// Reads a response once enough bytes have arrived: the head, then a body
/// framed by Content-Length, chunked coding, or the end of the stream.
struct ResponseParser {
    typealias Outcome = Result<HTTPClient.Response, HTTPClient.Failure>

    /// The response if `bytes` holds all of it; nil while more is needed.
    func complete(_ bytes: [UInt8]) -> Outcome? {
        guard let (status, headers, bodyStart) = head(bytes) else { return nil }
        if case .failure(let failure) = status { return .failure(failure) }
        guard case .success(let code) = status else { return nil }
        let response = { (body: [UInt8]) in Outcome.success(HTTPClient.Response(status: code, headers: headers, body: body)) }
        if (100..<200).contains(code) || code == 204 || code == 304 { return response([]) }
        let body = Array(bytes[bodyStart...])
        if headers.contains(where: { $0.0.lowercased() == "transfer-encoding" && $0.1.lowercased().contains("chunked") }) {
            switch dechunk(body) {
            case .none: return nil
            case .some(.success(let decoded)): return response(decoded)
            case .some(.failure(let failure)): return .failure(failure)
            }
        }
        if let length = headers.first(where: { $0.0.lowercased() == "content-length" }).map({ $0.1 }) {
            guard let n = Int(length), n >= 0 else { return .failure(.malformed("Content-Length \(length)")) }
            return body.count >= n ? response(Array(body.prefix(n))) : nil
        }
        return nil  // read to the end of the stream
    }

    /// At the end of the stream: what was received must be a whole response.
    func finish(_ bytes: [UInt8]) -> Outcome {
        if let outcome = complete(bytes) { return outcome }
        guard let (status, headers, bodyStart) = head(bytes), case .success(let code) = status else {
            return .failure(.malformed("the connection closed before a whole response head"))
        }
        if headers.contains(where: { ["content-length", "transfer-encoding"].contains($0.0.lowercased()) }) {
            return .failure(.malformed("the connection closed before the whole body"))
        }
        return .success(HTTPClient.Response(status: code, headers: headers, body: Array(bytes[bodyStart...])))
    }

    private func head(_ bytes: [UInt8]) -> (Result<Int, HTTPClient.Failure>, [(String, String)], Int)? {
        guard bytes.count >= 4 else { return nil }
        var end: Int?
        for i in 0...(bytes.count - 4) where bytes[i] == 13 && bytes[i + 1] == 10 && bytes[i + 2] == 13 && bytes[i + 3] == 10 {
            end = i
            break
        }
        guard let end else { return bytes.count > 64 * 1024 ? (.failure(.malformed("head too long")), [], 0) : nil }
        let lines = String(decoding: bytes[0..<end], as: UTF8.self).split(separator: "\r\n", omittingEmptySubsequences: false)
        let statusLine = lines[0].split(separator: " ", maxSplits: 2)
        guard statusLine.count >= 2, statusLine[0].hasPrefix("HTTP/1."), let code = Int(statusLine[1]), (100...599).contains(code) else {
            return (.failure(.malformed("status line \(lines[0].prefix(60))")), [], 0)
        }
        var headers: [(String, String)] = []
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { return (.failure(.malformed("header line")), [], 0) }
            headers.append((String(line[..<colon]), String(line[line.index(after: colon)...].trimmingPrefix(" "))))
        }
        return (.success(code), headers, end + 4)
    }

    /// nil while incomplete.
    private func dechunk(_ body: [UInt8]) -> Result<[UInt8], HTTPClient.Failure>? {
        var out: [UInt8] = [], i = 0
        while true {
            guard let lineEnd = (i..<max(i, body.count - 1)).first(where: { body[$0] == 13 && body[$0 + 1] == 10 }) else { return nil }
            let sizeText = String(decoding: body[i..<lineEnd], as: UTF8.self).split(separator: ";")[0]
            guard let size = Int(sizeText.trimmingCharacters, radix: 16), size >= 0 else { return .failure(.malformed("chunk size")) }
            i = lineEnd + 2
            if size == 0 { return .success(out) }
            guard body.count >= i + size + 2 else { return nil }
            out += body[i..<(i + size)]
            i += size + 2
        }
    }
}

extension Substring {
    var trimmingCharacters: String { String(self.filter { !$0.isWhitespace }) }
}
