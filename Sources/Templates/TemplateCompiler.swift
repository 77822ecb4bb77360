/// Compiles parsed templates against values known before any request (a language's strings, its menus): tags on
/// them become text, functions are bound to their paths, static partials are linked in place, and adjacent text is
/// joined, so rendering a page looks up only what the request brings.
struct TemplateCompiler {
    let constants: TemplateFields
    /// The source library, for partials (parsed once per indent there).
    let library: TemplateLibrary
    private var linking: [String] = []
    static let maxLinkDepth = 16

    init(constants: TemplateFields, library: TemplateLibrary) {
        self.constants = constants
        self.library = library
    }

    mutating func compile(_ template: Template) -> Template {
        Template(nodes: compile(template.nodes), name: template.name)
    }

    private mutating func compile(_ nodes: [Template.Node]) -> [Template.Node] {
        var out: [Template.Node] = []
        func append(_ bytes: [UInt8], to out: inout [Template.Node]) {
            guard !bytes.isEmpty else { return }
            if case .text(let previous)? = out.last { out[out.count - 1] = .text(previous + bytes) } else { out.append(.text(bytes)) }
        }
        for node in nodes {
            switch node {
            case .text(let bytes):
                append(bytes, to: &out)
            case .variable(let name, let escaped, let arguments) where isConstant(name):
                let renderer = TemplateRenderer(partials: { _, _ in nil }, stack: [.object(constants)])
                if arguments.allSatisfy(isConstant) {
                    var bytes: [UInt8] = []
                    renderer.write(renderer.lookup(name, arguments: arguments.map { renderer.lookup($0) }), escaped: escaped,
                                   into: &bytes)
                    append(bytes, to: &out)
                } else if let root = name.parts.first, case .function(let function)? = constants[root],
                          let bound = function.bind(name.tail) {
                    out.append(.bound(bound, escaped: escaped, arguments: arguments))
                } else {
                    out.append(node)
                }
            case .variable, .bound:
                out.append(node)
            case .section(let name, let children, let inverted):
                // On a constant (the language menu), rendered now if everything inside is found in it.
                if isConstant(name) {
                    var renderer = TemplateRenderer(partials: { [library] in library.partial($0, indent: $1) },
                                                    stack: [.object(constants)], misses: .init())
                    var bytes: [UInt8] = []
                    renderer.render([node], into: &bytes)
                    if renderer.misses?.count == 0 { append(bytes, to: &out); continue }
                }
                out.append(.section(name, compile(children), inverted: inverted))
            case .partial(let name, let indent) where !linking.contains(name) && linking.count < Self.maxLinkDepth:
                guard let partial = library.partial(name, indent: indent) else { continue }  // missing renders nothing
                linking.append(name)
                for linked in compile(partial.nodes) {
                    if case .text(let bytes) = linked { append(bytes, to: &out) } else { out.append(linked) }
                }
                linking.removeLast()
            case .partial, .dynamicPartial:
                out.append(node)   // recursive, or dynamic: found by name when rendered
            }
        }
        return out
    }

    private func isConstant(_ name: Template.Name) -> Bool {
        guard let root = name.parts.first else { return false }
        return constants[root] != nil
    }
}
