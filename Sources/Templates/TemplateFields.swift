/// An object's fields, in the order they were given. Pages have a dozen fields at most, so a linear scan over
/// fingerprints of the names (one integer compare a field, the names compared only on a match) beats hashing them,
/// and building one allocates no hash table.
public struct TemplateFields: Sendable, ExpressibleByDictionaryLiteral, Sequence {
    struct Field: Sendable {
        let key: UInt64
        let name: String
        var value: TemplateValue
    }
    private(set) var fields: [Field]

    public init() { fields = [] }

    /// Later fields replace earlier ones of the same name.
    public init<S: Sequence>(_ fields: S) where S.Element == (String, TemplateValue) {
        self.fields = []
        self.fields.reserveCapacity(fields.underestimatedCount)
        for (name, value) in fields { self[name] = value }
    }

    public init(dictionaryLiteral elements: (String, TemplateValue)...) { self.init(elements) }

    public subscript(name: String) -> TemplateValue? {
        get { self[TemplateFields.key(name), name] }
        set {
            let key = TemplateFields.key(name)
            if let index = fields.firstIndex(where: { $0.key == key && $0.name == name }) {
                if let newValue { fields[index].value = newValue } else { fields.remove(at: index) }
            } else if let newValue {
                fields.append(Field(key: key, name: name, value: newValue))
            }
        }
    }

    /// The lookup a compiled name makes: its key was computed when the template was parsed.
    subscript(key: UInt64, name: String) -> TemplateValue? {
        for field in fields where field.key == key && field.name == name { return field.value }
        return nil
    }

    public var count: Int { fields.count }

    public func makeIterator() -> AnyIterator<(String, TemplateValue)> {
        var iterator = fields.makeIterator()
        return AnyIterator { iterator.next().map { ($0.name, $0.value) } }
    }

    /// FNV-1a over the name's UTF-8: a few instructions a byte, no per-process seed to set up.
    static func key(_ name: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in name.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        return hash
    }
}
