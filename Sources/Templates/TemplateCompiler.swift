/// Compiles parsed templates against values known before any request (a language's strings, its menus): tags on
/// them become text, functions are bound to their paths, static partials are linked in place, and adjacent text is
/// joined, so rendering a page looks up only what the request brings.
///
/// Two kinds of known values: `constants` are reserved names, folded wherever they appear; `shared` values (one
/// page's title, theme, list of games) are folded only where no context pushed by a section at render time could
/// shadow them, and are looked up as usual everywhere else.
struct TemplateCompiler {
    let constants: TemplateFields
    let shared: TemplateFields
    /// Both, as the stack bottom a folded part is rendered against.
    let known: TemplateFields
    /// The source library, for partials (parsed once per indent there).
    let library: TemplateLibrary
    private var linking: [String] = []
    /// How many sections that push a context at render time enclose the node being compiled.
    private var sectionDepth = 0
    static let maxLinkDepth = 16

    init(constants: TemplateFields, shared: TemplateFields = [:], library: TemplateLibrary) {
        self.constants = constants
        self.shared = shared
        var known = constants
        known.merge(shared)
        self.known = known
        self.library = library
    }

    mutating func compile(_ template: Template) -> Template {
        Template(nodes: compile(template.nodes), name: template.name)
    }

    private mutating func compile(_ nodes: [Template.Node]) -> [Template.Node] {
        var out: [Template.Node] = []
        func append(_ bytes: [UInt8], to out: inout [Template.Node]) {
            guard !bytes.isEmpty else { return }
            if case .text(let previous)? = out.last {
                out[out.count - 1] = .text(previous + bytes)
            } else {
                out.append(.text(bytes))
            }
        }
        for node in nodes {
            switch node {
            case .text(let bytes):
                append(bytes, to: &out)
            case .variable(let name, let escaped, let arguments) where isKnown(name):
                let renderer = TemplateRenderer(partials: { _, _ in nil }, stack: [.object(known)])
                if arguments.allSatisfy(isKnown) {
                    var bytes: [UInt8] = []
                    renderer.write(
                        renderer.lookup(name, arguments: arguments.map { renderer.lookup($0) }), escaped: escaped,
                        into: &bytes)
                    append(bytes, to: &out)
                } else if let root = name.parts.first, case .function(let function)? = known[root],
                    let bound = function.bind(name.tail)
                {
                    out.append(.bound(bound, escaped: escaped, arguments: arguments))
                } else {
                    out.append(node)
                }
            case .variable, .bound:
                out.append(node)
            case .section(let name, let children, let inverted):
                // On a known value (the language menu), rendered now if everything inside is found in it.
                if isKnown(name) {
                    var renderer = TemplateRenderer(
                        partials: { [library] in library.partial($0, indent: $1) },
                        stack: [.object(known)], misses: .init())
                    var bytes: [UInt8] = []
                    renderer.render([node], into: &bytes)
                    if renderer.misses?.count == 0 {
                        append(bytes, to: &out)
                        continue
                    }
                }
                // An inverted section pushes nothing; any other may push a context that shadows shared names.
                if !inverted { sectionDepth += 1 }
                out.append(.section(name, compile(children), inverted: inverted))
                if !inverted { sectionDepth -= 1 }
            case .partial(let name, let indent):
                link(name, indent: indent, node: node, into: &out)
            case .dynamicPartial(let name, let indent) where isKnown(name):
                let renderer = TemplateRenderer(partials: { _, _ in nil }, stack: [.object(known)])
                link(renderer.lookup(name).text, indent: indent, node: node, into: &out)
            case .dynamicPartial:
                out.append(node)  // found by name when rendered
            }
        }
        return out
    }

    /// A static partial's nodes, compiled in place; a recursive one is left to be found when rendered.
    private mutating func link(_ name: String, indent: String, node: Template.Node, into out: inout [Template.Node]) {
        guard !linking.contains(name), linking.count < Self.maxLinkDepth else {
            out.append(node)
            return
        }
        guard let partial = library.partial(name, indent: indent) else { return }  // missing renders nothing
        linking.append(name)
        for linked in compile(partial.nodes) {
            if case .text(let bytes) = linked, case .text(let previous)? = out.last {
                out[out.count - 1] = .text(previous + bytes)
            } else if case .text(let bytes) = linked, bytes.isEmpty {
                continue
            } else {
                out.append(linked)
            }
        }
        linking.removeLast()
    }

    private func isKnown(_ name: Template.Name) -> Bool {
        guard let root = name.parts.first else { return false }
        return constants[root] != nil || (sectionDepth == 0 && shared[root] != nil)
    }
}
