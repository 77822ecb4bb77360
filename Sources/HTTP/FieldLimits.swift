/// The most characters each form field may hold, checked before a handler
/// does any work with the form: a key is short, a message a few KB, and a
/// field nobody named is short too. What a field may hold bounds the work
/// every later step (search, validation, error pages) does with it.
public struct FieldLimits: Sendable {
    /// Limits by exact field name.
    public var byName: [String: Int]
    /// Limits for families of fields (`message_en`, `message_ja`): the first matching prefix wins.
    public var byPrefix: [(prefix: String, limit: Int)]
    /// Every other field.
    public var otherwise: Int

    public init(byName: [String: Int], byPrefix: [(prefix: String, limit: Int)] = [], otherwise: Int) {
        self.byName = byName
        self.byPrefix = byPrefix
        self.otherwise = otherwise
    }

    public func limit(for name: String) -> Int {
        if let limit = byName[name] { return limit }
        return byPrefix.first { name.hasPrefix($0.prefix) }?.limit ?? otherwise
    }

    /// The first field longer than its limit (in Unicode scalars), or nil.
    /// Linear in the form's size: most values are settled by their byte count alone.
    public func firstViolation(in fields: FormFields) -> (name: String, limit: Int)? {
        for (name, value) in fields {
            let limit = limit(for: name)
            let bytes = value.utf8.count
            if bytes <= limit { continue }
            // A scalar is at most 4 bytes, so past 4 × limit bytes no count is needed.
            if bytes > 4 * limit || value.unicodeScalars.count > limit { return (String(name.prefix(64)), limit) }
        }
        return nil
    }
}
