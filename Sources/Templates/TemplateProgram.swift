/// A template's nodes laid out flat for rendering: instructions of plain integers over shared tables, so walking them
/// copies nothing. (Walking the node tree retained and released every node's bytes and names on every request.)
struct TemplateProgram: Sendable {
    enum Op: Sendable {
        /// `text[start..<start + count]`.
        case text(start: Int32, count: Int32)
        /// `names[name]`; the arguments are `names[arguments..<arguments + count]`.
        case variable(name: Int32, escaped: Bool, arguments: Int32, count: Int32)
        case bound(function: Int32, escaped: Bool, arguments: Int32, count: Int32)
        /// The children are the ops after this one, up to `end`.
        case section(name: Int32, end: Int32, inverted: Bool)
        /// `strings[name]` indented by `strings[indent]`.
        case partial(name: Int32, indent: Int32)
        case dynamicPartial(name: Int32, indent: Int32)
    }

    private(set) var ops: [Op] = []
    /// Every text node's bytes, one after another: written from in place, where an array per node was retained and
    /// released on every request.
    private(set) var text: [UInt8] = []
    private(set) var names: [Template.Name] = []
    private(set) var functions: [TemplateFunction.Bound] = []
    private(set) var strings: [String] = []

    init(_ nodes: [Template.Node]) { append(nodes) }

    private mutating func append(_ nodes: [Template.Node]) {
        for node in nodes {
            switch node {
            case .text(let text):
                ops.append(.text(start: Int32(self.text.count), count: Int32(text.count)))
                self.text += text
            case .variable(let name, let escaped, let arguments):
                let (start, count) = add(arguments)
                ops.append(.variable(name: add(name), escaped: escaped, arguments: start, count: count))
            case .bound(let function, let escaped, let arguments):
                functions.append(function)
                let (start, count) = add(arguments)
                ops.append(
                    .bound(function: Int32(functions.count - 1), escaped: escaped, arguments: start, count: count))
            case .section(let name, let children, let inverted):
                let at = ops.count
                let index = add(name)
                ops.append(.section(name: index, end: 0, inverted: inverted))
                append(children)
                ops[at] = .section(name: index, end: Int32(ops.count), inverted: inverted)
            case .partial(let name, let indent):
                ops.append(.partial(name: add(name), indent: add(indent)))
            case .dynamicPartial(let name, let indent):
                ops.append(.dynamicPartial(name: add(name), indent: add(indent)))
            }
        }
    }

    private mutating func add(_ name: Template.Name) -> Int32 {
        names.append(name)
        return Int32(names.count - 1)
    }

    private mutating func add(_ arguments: [Template.Name]) -> (Int32, Int32) {
        let start = Int32(names.count)
        names += arguments
        return (start, Int32(arguments.count))
    }

    private mutating func add(_ string: String) -> Int32 {
        strings.append(string)
        return Int32(strings.count - 1)
    }
}
