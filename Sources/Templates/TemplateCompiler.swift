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

    /// Contexts a section on a known value pushes, known now: its children are compiled once per item (or once),
    /// names found in them folded and the rest left to be looked up below, where the same lookup finds them at render
    /// time. Innermost last.
    private var frames: [TemplateValue] = []
    /// Set when a part inside `frames` needs one of them at render time (inside a section the request pushes, which
    /// might shadow it); the outermost such section is then compiled as a section instead.
    private var needsFrames = false

    private mutating func compile(_ nodes: [Template.Node]) -> [Template.Node] {
        var out: [Template.Node] = []
        for node in nodes { compile(node, into: &out) }
        return out
    }

    private static func append(_ node: Template.Node, to out: inout [Template.Node]) {
        guard case .text(let bytes) = node else { return out.append(node) }
        guard !bytes.isEmpty else { return }
        if case .text(let previous)? = out.last {
            out[out.count - 1] = .text(previous + bytes)
        } else {
            out.append(node)
        }
    }

    private mutating func compile(_ node: Template.Node, into out: inout [Template.Node]) {
        switch node {
        case .text:
            Self.append(node, to: &out)
        case .variable(let name, let escaped, let arguments):
            if canFold(name) && arguments.allSatisfy(canFold) {
                let renderer = folding()
                var bytes: [UInt8] = []
                renderer.write(
                    renderer.lookup(name, arguments: arguments.map { renderer.lookup($0) }), escaped: escaped,
                    into: &bytes)
                Self.append(.text(bytes), to: &out)
            } else if !inFrames(name), !arguments.contains(where: inFrames), isKnown(name),
                let root = name.parts.first, case .function(let function)? = known[root],
                let bound = function.bind(name.tail)
            {
                out.append(.bound(bound, escaped: escaped, arguments: arguments))
            } else {
                if inFrames(name) || arguments.contains(where: inFrames) { needsFrames = true }
                out.append(node)
            }
        case .bound:
            if !frames.isEmpty { needsFrames = true }
            out.append(node)
        case .section(let name, let children, let inverted):
            // On a known value (the language menu), rendered now if everything inside is found in it.
            if frames.isEmpty && isKnown(name) {
                var renderer = TemplateRenderer(
                    partials: { [library] in library.partial($0, indent: $1) },
                    stack: [.object(known)], misses: .init())
                var bytes: [UInt8] = []
                renderer.render([node], into: &bytes)
                if renderer.misses?.count == 0 { return Self.append(.text(bytes), to: &out) }
            }
            if sectionDepth == 0 && canFold(name) && unroll(name, children, inverted: inverted, into: &out) { return }
            if inFrames(name) { needsFrames = true }
            // An inverted section pushes nothing; any other may push a context that shadows shared names.
            if !inverted { sectionDepth += 1 }
            out.append(.section(name, compile(children), inverted: inverted))
            if !inverted { sectionDepth -= 1 }
        case .partial(let name, let indent):
            link(name, indent: indent, node: node, into: &out)
        case .dynamicPartial(let name, let indent) where canFold(name):
            link(folding().lookup(name).text, indent: indent, node: node, into: &out)
        case .dynamicPartial:
            if !frames.isEmpty { needsFrames = true }
            out.append(node)  // found by name when rendered
        }
    }

    /// A section on a value known now, outside any the request pushes: decided now, its children compiled with the
    /// value (each item of a list) as a known context. False, with nothing added, when a part inside would need that
    /// context at render time.
    private mutating func unroll(
        _ name: Template.Name, _ children: [Template.Node], inverted: Bool, into out: inout [Template.Node]
    ) -> Bool {
        let value = folding().lookup(name)
        let outer = needsFrames
        needsFrames = false
        var unrolled: [Template.Node] = []
        func add(_ nodes: [Template.Node]) { for node in nodes { Self.append(node, to: &unrolled) } }
        if inverted {
            if value.isFalsey { add(compile(children)) }
        } else if case .list(let items) = value {
            for item in items {
                frames.append(item)
                add(compile(children))
                frames.removeLast()
            }
        } else if !value.isFalsey {
            frames.append(value)
            add(compile(children))
            frames.removeLast()
        }
        // Inside another unrolled section, the need is that section's too.
        if needsFrames {
            needsFrames = outer || !frames.isEmpty
            return false
        }
        needsFrames = outer
        for node in unrolled { Self.append(node, to: &out) }
        return true
    }

    /// Looks names up as rendering would here: the known contexts above the known values.
    private func folding() -> TemplateRenderer {
        TemplateRenderer(partials: { _, _ in nil }, stack: [.object(known)] + frames)
    }

    /// Whether a name's value is known now: found in a known context (with no section of the request's in
    /// between), or a known value where nothing can shadow it.
    private func canFold(_ name: Template.Name) -> Bool {
        if inFrames(name) { return sectionDepth == 0 }
        return isKnown(name)
    }

    /// Whether a name is looked up in one of the known contexts (the implicit `.` is the innermost).
    private func inFrames(_ name: Template.Name) -> Bool {
        guard !frames.isEmpty else { return false }
        guard let root = name.parts.first else { return sectionDepth == 0 }
        let key = name.keys[0]
        return frames.contains { frame in
            if case .object(let fields) = frame { fields[key, root] != nil } else { false }
        }
    }

    /// A static partial's nodes, compiled in place; a recursive one is left to be found when rendered.
    private mutating func link(_ name: String, indent: String, node: Template.Node, into out: inout [Template.Node]) {
        guard !linking.contains(name), linking.count < Self.maxLinkDepth else {
            if !frames.isEmpty { needsFrames = true }
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
