/// A parsed Mustache template (the core spec, plus `{{>*dynamic}}`
/// partials and arguments on interpolation tags).
public struct Template: Sendable {
    struct Name: Sendable {
        /// Empty for the implicit iterator `.`.
        let parts: [String]
        /// Each part's `TemplateFields.key`, computed once here.
        let keys: [UInt64]
        /// The parts after the first, joined: what a function at the first part receives.
        let tail: String
        var isImplicit: Bool { parts.isEmpty }

        init(_ text: Substring) {
            parts = text == "." ? [] : text.split(separator: ".", omittingEmptySubsequences: false).map { String($0) }
            tail = parts.dropFirst().joined(separator: ".")
            keys = parts.map(TemplateFields.key)
        }
    }

    enum Node: Sendable {
        case text([UInt8])
        case variable(Name, escaped: Bool, arguments: [Name])
        case section(Name, [Node], inverted: Bool)
        /// A partial by name; `indent` is prefixed to each of its lines when it stood alone.
        case partial(String, indent: String)
        /// A partial named by the value of a name (`{{>*page}}`).
        case dynamicPartial(Name, indent: String)
        /// A compile-time function bound to its path (`t.home.games.count n`): only the arguments are looked up.
        case bound(TemplateFunction.Bound, escaped: Bool, arguments: [Name])
    }

    let nodes: [Node]
    /// The nodes laid out for rendering.
    let program: TemplateProgram
    public let name: String

    init(nodes: [Node], name: String) {
        self.nodes = nodes
        self.name = name
        program = TemplateProgram(nodes)
    }

    public init(_ source: String, name: String = "template") throws(TemplateError) {
        var parser = TemplateParser(source: Array(source.utf8), file: name)
        self.init(nodes: try parser.parse(), name: name)
    }

    /// The source with `indent` before every line, for standalone partials.
    static func indented(_ source: String, by indent: String) -> String {
        guard !indent.isEmpty else { return source }
        var out = ""
        var atLineStart = true
        for ch in source {
            if atLineStart {
                out += indent
                atLineStart = false
            }
            out.append(ch)
            if ch == "\n" || ch == "\r\n" { atLineStart = true }
        }
        return out
    }
}
