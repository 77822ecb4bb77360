/// An object's fields, in the order they were given. Pages have a dozen fields at most, so a linear scan that compares
/// names (short names compare as two machine words) beats hashing them, and building one allocates no hash table.
public struct TemplateFields: Sendable, ExpressibleByDictionaryLiteral, Sequence {
    private(set) var names: [String]
    private(set) var values: [TemplateValue]

    public init() { names = []; values = [] }

    /// Later fields replace earlier ones of the same name.
    public init<S: Sequence>(_ fields: S) where S.Element == (String, TemplateValue) {
        names = []
        values = []
        for (name, value) in fields { self[name] = value }
    }

    public init(dictionaryLiteral elements: (String, TemplateValue)...) { self.init(elements) }

    public subscript(name: String) -> TemplateValue? {
        get {
            for index in names.indices where names[index] == name { return values[index] }
            return nil
        }
        set {
            if let index = names.firstIndex(of: name) {
                if let newValue { values[index] = newValue } else { names.remove(at: index); values.remove(at: index) }
            } else if let newValue {
                names.append(name)
                values.append(newValue)
            }
        }
    }

    public var count: Int { names.count }

    public func makeIterator() -> Zip2Sequence<[String], [TemplateValue]>.Iterator { zip(names, values).makeIterator() }
}
