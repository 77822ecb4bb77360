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

    /// A literal's names are distinct (as a dictionary literal's must be): appended without a search.
    public init(dictionaryLiteral elements: (String, TemplateValue)...) { self.init(distinct: elements) }

    /// Fields with distinct names, taken over: moved in, where a dictionary literal's are copied one by one (a retain
    /// of every name and value) and its array then dropped (a release of each). For a page's hot path.
    /// `room`: capacity for that many fields more (which a page's chrome adds), so adding them does not copy these.
    public init(owning elements: consuming [(String, TemplateValue)], room: Int = 0) {
        var elements = elements
        let count = elements.count
        fields = Array(unsafeUninitializedCapacity: count + room) { buffer, initialized in
            var index = count
            while let (name, value) = elements.popLast() {
                index -= 1
                (buffer.baseAddress! + index).initialize(
                    to: Field(key: TemplateFields.key(name), name: name, value: value))
            }
            initialized = count
        }
    }

    init(distinct elements: [(String, TemplateValue)]) {
        fields = elements.map { Field(key: TemplateFields.key($0.0), name: $0.0, value: $0.1) }
    }

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
        // Through the buffer: iterating the array would copy (retain and release) every field it passes.
        fields.withUnsafeBufferPointer { fields in
            for index in fields.indices where fields[index].key == key && fields[index].name == name {
                return fields[index].value
            }
            return nil
        }
    }

    /// Adds the field unless one of that name is there: one fingerprint and one scan, where a read and then a write
    /// made two of each.
    public mutating func add(_ name: String, ifAbsent value: @autoclosure () -> TemplateValue) {
        let key = TemplateFields.key(name)
        let present = fields.withUnsafeBufferPointer { fields in
            fields.contains { $0.key == key && $0.name == name }
        }
        if !present { fields.append(Field(key: key, name: name, value: value())) }
    }

    public var count: Int { fields.count }

    public mutating func reserveCapacity(_ count: Int) { fields.reserveCapacity(count) }

    public func makeIterator() -> Iterator { Iterator(fields: fields.makeIterator()) }

    public struct Iterator: IteratorProtocol {
        var fields: IndexingIterator<[Field]>
        public mutating func next() -> (String, TemplateValue)? { fields.next().map { ($0.name, $0.value) } }
    }

    /// Adds `other`'s fields, replacing those of the same name (their keys are reused, not computed again).
    public mutating func merge(_ other: TemplateFields) {
        for field in other.fields {
            if let index = fields.firstIndex(where: { $0.key == field.key && $0.name == field.name }) {
                fields[index].value = field.value
            } else {
                fields.append(field)
            }
        }
    }

    /// FNV-1a over the name's UTF-8: a few instructions a byte, no per-process seed to set up.
    static func key(_ name: String) -> UInt64 {
        func fnv<Bytes: Sequence<UInt8>>(_ bytes: Bytes) -> UInt64 {
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
            return hash
        }
        // The contiguous bytes: the string's own iterator costs several times as much a byte.
        return name.utf8.withContiguousStorageIfAvailable(fnv) ?? fnv(name.utf8)
    }
}
