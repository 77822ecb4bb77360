// libFuzzer entry point for the HTTP parser, in request mode (the server's) and response mode (the client's). Linked
// by scripts/fuzz-parser against the HTTP module's instrumented objects.
//
// Oracle: the same bytes must give the same requests and the same refusal
// whether they arrive at once or in pieces; and nothing may trap.
import HTTP

private func limits() -> ParserLimits {
    // Small limits so the fuzzer reaches every limit path quickly.
    var limits = ParserLimits()
    limits.maxRequestLine = 300
    limits.maxHeaderLine = 200
    limits.maxHeaderBytes = 600
    limits.maxHeaderCount = 12
    limits.maxBody = 2000
    limits.maxChunkLine = 64
    return limits
}

private func run(_ bytes: UnsafeBufferPointer<UInt8>, piece: Int, responses: Bool) -> [String] {
    var parser = responses ? RequestParser(responses: limits()) : RequestParser(limits: limits())
    var log: [String] = []
    var pending: [UInt8] = []
    var offset = 0
    while offset < bytes.count || !pending.isEmpty {
        if offset < bytes.count {
            let end = min(bytes.count, offset + piece)
            pending += bytes[offset..<end]
            offset = end
        }
        var progressed = true
        while progressed && !pending.isEmpty {
            let (used, event) = pending.withUnsafeBytes { parser.parse($0) }
            precondition(used >= 0 && used <= pending.count, "consumed out of range")
            pending.removeFirst(used)
            switch event {
            case .needMore:
                precondition(pending.isEmpty, "needMore with unconsumed input")
                progressed = false
            case .expectsContinue:
                log.append("continue")
            case .request(let request):
                precondition(request.body.count <= 2000, "body over the limit")
                precondition(request.headers.count <= 12, "too many headers")
                // Exercise what handlers will do with the request.
                _ = request.pathSegments
                _ = request.query
                _ = request.cookies
                _ = request.wantsKeepAlive
                _ = FormFields(body: request.body)
                log.append("\(request.method) \(request.target) \(request.headers.count) \(request.body)")
            case .response(let status, let headers, let body):
                precondition(responses, "a response in request mode")
                precondition(body.count <= 2000 && headers.count <= 12, "response over the limits")
                log.append("\(status) \(headers.count) \(body)")
            case .approval:
                preconditionFailure("no upload paths here, so no approval is asked")
            case .failure(let error):
                precondition([400, 413, 414, 417, 431, 501, 505].contains(error.status.code), "unexpected status")
                log.append("fail \(error.status.code)")
                return log
            }
        }
        if offset >= bytes.count && !progressed { break }
    }
    if responses { log.append("\(parser.finish())") }
    return log
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzParser(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let piece = 1 + Int(size > 0 ? data[0] % 7 : 0)
    for responses in [false, true] {
        let whole = run(bytes, piece: max(1, size), responses: responses)
        let pieces = run(bytes, piece: piece, responses: responses)
        precondition(whole == pieces, "whole and split parses differ")
    }
    return 0
}
