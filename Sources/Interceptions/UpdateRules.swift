/// A dotted version compared component by component as numbers, missing
/// parts counting as 0: `9` equals `9.0`, and `8.2.1` is older than `8.10`.
public struct Version: Sendable, Comparable, CustomStringConvertible {
    public let components: [Int]
    public let text: String

    /// Digits and dots only ("8.2.1"); nil otherwise.
    public init?(_ text: String) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard !text.isEmpty, parts.count <= 8,
            parts.allSatisfy({ !$0.isEmpty && $0.count <= 9 && $0.allSatisfy { $0.isASCII && $0.isNumber } })
        else { return nil }
        components = parts.map { Int($0)! }
        self.text = text
    }

    public static func == (a: Version, b: Version) -> Bool { compare(a, b) == 0 }
    public static func < (a: Version, b: Version) -> Bool { compare(a, b) < 0 }

    static func compare(_ a: Version, _ b: Version) -> Int {
        for i in 0..<max(a.components.count, b.components.count) {
            let x = i < a.components.count ? a.components[i] : 0
            let y = i < b.components.count ? b.components[i] : 0
            if x != y { return x < y ? -1 : 1 }
        }
        return 0
    }

    public var description: String { text }
}

public enum Restriction: Int, Sendable, Comparable, CaseIterable {
    case low = 0, medium = 1, high = 2

    public static func < (a: Restriction, b: Restriction) -> Bool { a.rawValue < b.rawValue }
    public var name: String { ["low", "medium", "high"][rawValue] }
}

/// A minimum version with what to tell people below it, per language.
public struct Requirement: Sendable {
    public let version: Version
    public let messages: [String: String]

    public init(version: Version, messages: [String: String]) {
        self.version = version
        self.messages = messages
    }

    /// The message for a language: `pt-BR`, then `pt`, then the base language.
    public func message(for language: String, base: String) -> String {
        var tag = language
        while true {
            if let text = messages[tag] ?? messages.first(where: { $0.key.lowercased() == tag.lowercased() })?.value {
                return text
            }
            guard let dash = tag.lastIndex(of: "-") else { break }
            tag = String(tag[..<dash])
        }
        return messages[base] ?? ""
    }
}

/// An update rule for one platform (GTConstants' model).
public struct UpdateRule: Sendable {
    public let id: Int
    public let platform: String
    public let restriction: Restriction
    public let active: Bool
    public let minimumApp: Requirement?
    public let minimumOS: Requirement?
    /// For browser rules: the operating system the rule is for (`ios`,
    /// `android`, `macos`, `windows`), or nil for every one. OS versions
    /// mean nothing across systems, so `Windows 10` is never held to `iOS 15`.
    public let os: String?

    public init(
        id: Int, platform: String, restriction: Restriction, active: Bool, minimumApp: Requirement?,
        minimumOS: Requirement?,
        os: String? = nil
    ) {
        self.id = id
        self.platform = platform
        self.restriction = restriction
        self.active = active
        self.minimumApp = minimumApp
        self.minimumOS = minimumOS
        self.os = os
    }
}

/// Which rule a client breaks, and what it is told.
public struct Violation: Sendable {
    public enum Kind: String, Sendable { case app, os }
    public let rule: UpdateRule
    public let kind: Kind
    public let requirement: Requirement
    public let message: String
}

public enum UpdateCheck {
    /// GTConstants' evaluation: only active rules for the platform; the
    /// highest restriction first (ties in rule order); within a rule the app
    /// version before the OS version; the first violation wins. A rule
    /// naming a system applies only to clients on it (`system`).
    public static func evaluate(
        _ rules: [UpdateRule], platform: String, app: Version, os: Version, system: String? = nil,
        language: String, base: String = "en"
    ) -> Violation? {
        let candidates = rules.enumerated()
            .filter {
                $0.element.active && $0.element.platform == platform
                    && ($0.element.os == nil || $0.element.os == system)
            }
            .sorted {
                $0.element.restriction != $1.element.restriction
                    ? $0.element.restriction > $1.element.restriction : $0.offset < $1.offset
            }
            .map(\.element)
        for rule in candidates {
            if let requirement = rule.minimumApp, app < requirement.version {
                return Violation(
                    rule: rule, kind: .app, requirement: requirement,
                    message: requirement.message(for: language, base: base))
            }
            if let requirement = rule.minimumOS, os < requirement.version {
                return Violation(
                    rule: rule, kind: .os, requirement: requirement,
                    message: requirement.message(for: language, base: base))
            }
        }
        return nil
    }
}
