import Files
import PropertyList
import Synchronization

/// Typed site constants in the GTConstants model: `Config/Constants.plist`
/// holds the defaults; `Constants_<env>.plist` files override them in
/// order; live hotfixes override everything. Top-level keys are replaced
/// whole. A hotfix must keep the default's type.
public final class Constants: Sendable {
    public struct Error: Swift.Error, Sendable, CustomStringConvertible {
        public let description: String
        init(_ description: String) { self.description = description }
    }

    /// The merged files, before hotfixes.
    public let base: [String: PropertyListValue]
    private let hotfixes = Mutex<[String: PropertyListValue]>([:])
    private let changes = Atomic<Int>(0)

    /// Grows with every hotfix, so caches of rendered text can tell they are stale.
    public var version: Int { changes.load(ordering: .acquiring) }

    public let schema: Schema

    public init(base: [String: PropertyListValue], schema: Schema = .open) {
        self.base = base
        self.schema = schema
    }

    /// Reads `Constants.plist` and then `Constants_<env>.plist` for each
    /// environment name, in order.
    /// Every value must fit the schema: a value out of range stops start-up, naming the file, key and range.
    public static func load(
        directory: String, environments: [String] = [], schema: Schema = .open
    ) throws
        -> Constants
    {
        var merged: [String: PropertyListValue] = [:]
        var source: [String: String] = [:]
        let files = ["Constants.plist"] + environments.map { "Constants_\($0).plist" }
        for (index, name) in files.enumerated() {
            let path = directory + "/" + name
            guard let bytes = Files.read(path) else {
                throw Error(
                    index == 0
                        ? "\(path): the constants file is missing"
                        : "\(path): no such override file for --env \(environments[index - 1])")
            }
            guard case .dictionary(let members) = try PropertyListParser.parse(bytes, file: path) else {
                throw Error("\(path): the top level must be a <dict>")
            }
            for (key, value) in members {
                if index > 0, let existing = merged[key], existing.typeName != value.typeName {
                    throw Error(
                        "\(path): '\(key)' is a \(value.typeName) here but a \(existing.typeName) in Constants.plist")
                }
                merged[key] = value
                source[key] = path
            }
        }
        // The merged values are checked: an override may replace a default the operator's settings refuse.
        for (key, value) in merged.sorted(by: { $0.key < $1.key }) {
            if let range = schema.refusal(key, value) {
                throw Error("\(source[key] ?? directory): '\(key)' must be \(range) (it is \(Self.show(value)))")
            }
        }
        if let problem = schema.across({ merged[$0] }) { throw Error("\(directory): \(problem)") }
        return Constants(base: merged, schema: schema)
    }

    /// Every live override, by key.
    public var hotfixValues: [(String, PropertyListValue)] {
        hotfixes.withLock { $0.sorted { $0.key < $1.key }.map { ($0.key, $0.value) } }
    }

    /// The hotfix for `key`, else the file's value; without hotfixes (the usual case) the name is hashed once.
    public func value(_ key: String) -> PropertyListValue? {
        hotfixes.withLock { $0.isEmpty ? nil : $0[key] } ?? base[key]
    }

    public func int(_ key: String, default fallback: Int) -> Int {
        if case .integer(let v) = value(key) { return v }
        return fallback
    }

    public func double(_ key: String, default fallback: Double) -> Double {
        switch value(key) {
        case .real(let v): v
        case .integer(let v): Double(v)
        default: fallback
        }
    }

    public func string(_ key: String, default fallback: String) -> String {
        if case .string(let v) = value(key) { return v }
        return fallback
    }

    public func bool(_ key: String, default fallback: Bool) -> Bool {
        if case .bool(let v) = value(key) { return v }
        return fallback
    }

    /// Why a hotfix would be refused (naming the allowed range), or nil.
    /// Removing a hotfix is never refused (it must always be possible to go back; readers keep their own bounds).
    /// `among`: the other hotfixes it must agree with, if not those live now.
    public func refusal(
        _ key: String, _ value: PropertyListValue?, among others: [String: PropertyListValue]? = nil
    ) -> String? {
        guard let value else { return nil }
        if let original = base[key], original.typeName != value.typeName {
            return "'\(key)' is a \(original.typeName); a \(value.typeName) cannot replace it"
        }
        if let range = schema.refusal(key, value) { return range }
        let current = others ?? hotfixes.withLock { $0 }
        return schema.across { $0 == key ? value : (current[$0] ?? base[$0]) }
    }

    /// Replaces every live override with what was read, unless one changed after `version` (taken before the
    /// reading began): then it returns false, to read again (see `StringOverlay.replaceAll`).
    public func replaceHotfixes(_ all: [String: PropertyListValue], readAt version: Int) -> Bool {
        hotfixes.withLock {
            guard changes.load(ordering: .acquiring) == version else { return false }
            $0 = all
            changes.add(1, ordering: .releasing)
            return true
        }
    }

    /// Sets or removes a live override; refuses a change of type or a value out of range.
    public func setHotfix(_ key: String, _ value: PropertyListValue?) throws(Error) {
        if let refusal = refusal(key, value) { throw Error(refusal) }
        hotfixes.withLock {
            $0[key] = value
            changes.add(1, ordering: .releasing)
        }
    }
}
