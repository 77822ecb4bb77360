import Synchronization

/// Chooses a shipped language for a request: RFC 4647 lookup over
/// `Accept-Language` (q=0 means "not acceptable"), with the regional
/// equivalences browsers need (zh-TW → zh-Hant, es-MX → es-419 → es, …).
public struct LanguageNegotiation: Sendable {
    public let available: [String]
    public let fallback: String
    /// Browsers send a few distinct headers and tags: each is negotiated once (forgotten all at once past a bound).
    private let memo = Memo()

    final class Memo: Sendable {
        let headers = Mutex<[String: String]>([:])
        let tags = Mutex<[String: String?]>([:])
        static let limit = 4_096
    }

    public init(available: [String], fallback: String) {
        self.available = available
        self.fallback = fallback
    }

    /// Language ranges with their weights, best first (stable for ties).
    public static func parse(_ header: String) -> [(range: String, q: Double)] {
        var ranges: [(String, Double, Int)] = []
        for (order, part) in header.split(separator: ",").enumerated() {
            let pieces = part.split(separator: ";")
            guard let tag = pieces.first.map({ String($0.filter { !$0.isWhitespace }) }), !tag.isEmpty,
                tag.count <= 64,
                tag.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "*") })
            else { continue }
            var q = 1.0
            for parameter in pieces.dropFirst() {
                let kv = parameter.split(separator: "=", maxSplits: 1).map { $0.filter { !$0.isWhitespace } }
                if kv.count == 2, kv[0].lowercased() == "q" {
                    guard let value = Double(kv[1]), (0...1).contains(value) else {
                        q = -1
                        break
                    }
                    q = value
                }
            }
            if q >= 0 { ranges.append((tag, q, order)) }
        }
        return ranges.sorted { $0.1 != $1.1 ? $0.1 > $1.1 : $0.2 < $1.2 }.map { ($0.0, $0.1) }
    }

    /// The chain RFC 4647 lookup tries for a tag, with equivalences folded in.
    public static func lookupChain(_ tag: String) -> [String] {
        let lower = tag.lowercased()
        var chain: [String] = []
        var parts = lower.split(separator: "-").map(String.init)
        while !parts.isEmpty {
            let candidate = parts.joined(separator: "-")
            chain.append(candidate)
            if let equivalent = equivalences[candidate] { chain.append(contentsOf: equivalent) }
            parts.removeLast()
        }
        var seen = Set<String>()
        return chain.filter { seen.insert($0).inserted }
    }

    static let latinAmericanSpanish = [
        "ar", "bo", "cl", "co", "cr", "cu", "do", "ec", "gt", "hn", "mx", "ni", "pa", "pe",
        "pr", "py", "sv", "us", "uy", "ve", "419",
    ]
    static let equivalences: [String: [String]] = {
        var map: [String: [String]] = [
            "zh-tw": ["zh-hant"], "zh-hk": ["zh-hant"], "zh-mo": ["zh-hant"],
            "zh-cn": ["zh-hans"], "zh-sg": ["zh-hans"], "pt-br": ["pt"],
        ]
        for region in latinAmericanSpanish where region != "419" { map["es-\(region)"] = ["es-419", "es"] }
        return map
    }()

    public func negotiate(_ header: String?) -> String {
        let header = header ?? ""
        if let known = memo.headers.withLock({ $0[header] }) { return known }
        let chosen = choose(header)
        memo.headers.withLock {
            if $0.count >= Memo.limit { $0.removeAll() }
            $0[header] = chosen
        }
        return chosen
    }

    private func choose(_ header: String) -> String {
        let ranges = Self.parse(header)
        let refused = Set(ranges.filter { $0.q == 0 }.flatMap { Self.lookupChain($0.range).prefix(1) })
        let acceptable = available.filter { !refused.contains($0.lowercased()) }
        for (range, q) in ranges where q > 0 {
            if range == "*" { return acceptable.contains(fallback) ? fallback : acceptable.first ?? fallback }
            if let match = self.match(range, among: acceptable) { return match }
        }
        return acceptable.contains(fallback) || acceptable.isEmpty ? fallback : acceptable[0]
    }

    /// The shipped language a single tag looks up to, if any.
    public func match(_ tag: String) -> String? {
        if let known = memo.tags.withLock({ $0[tag] }) { return known }
        let found = match(tag, among: available)
        memo.tags.withLock {
            if $0.count >= Memo.limit { $0.removeAll() }
            $0[tag] = found
        }
        return found
    }

    private func match(_ tag: String, among candidates: [String]) -> String? {
        for candidate in Self.lookupChain(tag) {
            if let found = candidates.first(where: { $0.lowercased() == candidate }) { return found }
        }
        return nil
    }
}
