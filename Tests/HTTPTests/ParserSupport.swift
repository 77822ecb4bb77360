@testable import HTTP

/// What the parser made of some bytes, fed all at once or one byte at a time.
enum Outcome: Equatable, CustomStringConvertible {
    case requests([String])  // "METHOD target body-length" per request
    case failed(Int)  // the status code
    case incomplete

    var description: String {
        switch self {
        case .requests(let r): "requests(\(r))"
        case .failed(let s): "failed(\(s))"
        case .incomplete: "incomplete"
        }
    }
}

func summary(_ r: Request) -> String { "\(r.method) \(r.target) \(r.body.count)" }

func parseAll(_ bytes: [UInt8], limits: ParserLimits = ParserLimits(), chunkSize: Int? = nil) -> (Outcome, [Request]) {
    var parser = RequestParser(limits: limits)
    var requests: [Request] = []
    var offset = 0
    let step = chunkSize ?? max(1, bytes.count)
    var pending: [UInt8] = []
    while offset < bytes.count || !pending.isEmpty {
        if offset < bytes.count {
            pending += bytes[offset..<min(bytes.count, offset + step)]
            offset += step
        }
        var progressed = true
        while !pending.isEmpty && progressed {
            let (used, event) = pending.withUnsafeBytes { parser.parse($0) }
            pending.removeFirst(used)
            switch event {
            case .needMore: progressed = false
            case .expectsContinue: break
            case .request(let r): requests.append(r)
            case .failure(let e): return (.failed(e.status.code), requests)
            case .response: return (.failed(0), requests)  // never, in request mode
            case .approval(let headers):
                // The gate is the caller's to ask (the server may ask it off the loop): here, synchronously.
                switch parser.approve(limits.uploadGate?.allows(headers) ?? true) {
                case .failure(let e)?: return (.failed(e.status.code), requests)
                case .request(let r)?: requests.append(r)
                default: break
                }
            }
        }
        if offset >= bytes.count && !pending.isEmpty && !progressed { break }
    }
    if !parser.isIdle { return (.incomplete, requests) }
    return (.requests(requests.map(summary)), requests)
}

/// Parses whole and byte by byte, requiring both to agree.
func outcome(_ text: String, limits: ParserLimits = ParserLimits()) -> Outcome {
    outcome(Array(text.utf8), limits: limits)
}

func outcome(_ bytes: [UInt8], limits: ParserLimits = ParserLimits()) -> Outcome {
    let whole = parseAll(bytes, limits: limits).0
    let trickled = parseAll(bytes, limits: limits, chunkSize: 1).0
    precondition(whole == trickled, "whole \(whole) but byte-by-byte \(trickled)")
    return whole
}
