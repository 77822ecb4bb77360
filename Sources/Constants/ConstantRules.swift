import PropertyList

extension Constants {
    /// What values a constant allows, checked when files load and when a hotfix is saved.
    public enum Form: Sendable {
        case integer(ClosedRange<Int>)
        case real(ClosedRange<Double>)
        case bool
        /// One of these words.
        case choice([String])
        /// Text up to this many bytes (file paths, versions).
        case text(maxBytes: Int)
        /// An `https://` URL whose host is one of the schema's `hosts` (an operator's start-up setting).
        case httpsURL

        /// The allowed range, in words an admin reads ("1 to 8", "https://www.random.org").
        func describe(hosts: [String]) -> String {
            switch self {
            case .integer(let r): "\(r.lowerBound)…\(r.upperBound)"
            case .real(let r): "\(r.lowerBound)…\(r.upperBound)"
            case .bool: "true, false"
            case .choice(let words): words.joined(separator: ", ")
            case .text(let n): "≤ \(n) bytes"
            case .httpsURL: hosts.map { "https://\($0)" }.joined(separator: ", ")
            }
        }

        func allows(_ value: PropertyListValue, hosts: [String], plain: Bool) -> Bool {
            switch (self, value) {
            case (.integer(let r), .integer(let v)): r.contains(v)
            case (.real(let r), .real(let v)): r.contains(v)
            case (.real(let r), .integer(let v)): r.contains(Double(v))
            case (.bool, .bool): true
            case (.choice(let words), .string(let v)): words.contains(v)
            case (.text(let n), .string(let v)): v.utf8.count <= n
            case (.httpsURL, .string(let v)): Self.host(ofHTTPS: v, plain: plain).map(hosts.contains) ?? false
            default: false
            }
        }

        /// The `host[:port]` of `https://host[:port][/path]`, lower-cased; nil for anything else (userinfo, queries,
        /// other schemes; `plain` also admits `http://`, for tests' fakes).
        public static func host(ofHTTPS url: String, plain: Bool = false) -> String? {
            let scheme = url.hasPrefix("https://") ? 8 : plain && url.hasPrefix("http://") ? 7 : 0
            guard scheme > 0 else { return nil }
            let rest = url.dropFirst(scheme)
            let host = rest.prefix { $0 != "/" }
            guard !host.isEmpty, host.utf8.count <= 253,
                host.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-" || $0 == ":") }),
                rest.allSatisfy({ $0.isASCII && !$0.isWhitespace && $0 != "?" && $0 != "#" && $0 != "%" })
            else { return nil }
            return host.lowercased()
        }
    }

    public struct Rule: Sendable {
        public let form: Form
        /// Published to native apps by `/api/interceptions`; server-side constants (paths, URLs) never are.
        public let forApps: Bool
        public init(_ form: Form, forApps: Bool) {
            self.form = form
            self.forApps = forApps
        }
    }

    /// Every constant's rule, and checks across constants (`values` reads a key's value as it would be).
    public struct Schema: Sendable {
        public let rules: [String: Rule]
        public let hosts: [String]
        /// Admits `http://` URLs too (tests' fakes; no flag).
        public var plainHTTP = false
        public let across: @Sendable (_ values: (String) -> PropertyListValue?) -> String?

        public init(
            rules: [String: Rule], hosts: [String],
            across: @escaping @Sendable ((String) -> PropertyListValue?) -> String? = { _ in nil }
        ) {
            self.rules = rules
            self.hosts = hosts
            self.across = across
        }

        /// No rules: any value of the default's type (tools and tests that read files alone).
        public static let open = Schema(rules: [:], hosts: [])
        var isOpen: Bool { rules.isEmpty }

        /// Why `value` may not be `key`, naming the range; nil when it may.
        public func refusal(_ key: String, _ value: PropertyListValue) -> String? {
            guard !isOpen else { return nil }
            guard let rule = rules[key] else { return "a declared constant (none is declared for '\(key)')" }
            guard rule.form.allows(value, hosts: hosts, plain: plainHTTP) else {
                return rule.form.describe(hosts: hosts)
            }
            return nil
        }

        public func range(_ key: String) -> String? { rules[key]?.form.describe(hosts: hosts) }
    }
}

extension Constants {
    static func show(_ value: PropertyListValue) -> String {
        switch value {
        case .string(let s): "\"\(s.prefix(80))\""
        case .integer(let i): String(i)
        case .real(let d): String(d)
        case .bool(let b): b ? "true" : "false"
        default: "a \(value.typeName)"
        }
    }
}
