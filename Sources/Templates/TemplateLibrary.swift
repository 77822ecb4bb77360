import Synchronization

/// A set of named templates that can include one another as partials.
/// Templates are parsed once; standalone partials with an indent are
/// parsed once per indent and cached.
public final class TemplateLibrary: Sendable {
    private let sources: [String: String]
    private let parsed: [String: Template]
    private let indented = Mutex<[String: Template]>([:])
    /// The context below every render's own (a compiled library's constants).
    private let base: TemplateValue?
    /// Where names given by nothing are noted, if anywhere.
    public let audit: TemplateAudit?

    /// Parses every source; the first syntax error is thrown.
    public init(sources: [String: String], audit: TemplateAudit? = nil) throws(TemplateError) {
        self.sources = sources
        self.audit = audit
        var parsed: [String: Template] = [:]
        for (name, source) in sources.sorted(by: { $0.key < $1.key }) {
            parsed[name] = try Template(source, name: name)
        }
        self.parsed = parsed
        base = nil
    }

    private init(sources: [String: String], parsed: [String: Template], base: TemplateValue, audit: TemplateAudit?) {
        self.sources = sources
        self.parsed = parsed
        self.base = base
        self.audit = audit
    }

    public var names: [String] { parsed.keys.sorted() }

    public func template(named name: String) -> Template? { parsed[name] }

    /// Renders a template by name into `out`; false if there is no such template.
    @discardableResult
    public func render(_ name: String, _ context: TemplateValue, into out: inout [UInt8]) -> Bool {
        guard let template = parsed[name] else { return false }
        render(template, context, into: &out)
        return true
    }

    public func render(_ template: Template, _ context: TemplateValue, into out: inout [UInt8]) {
        var renderer = TemplateRenderer(
            partials: { [self] in self.partial($0, indent: $1) }, stack: base.map { [$0, context] } ?? [context],
            audit: audit.map { ($0, template.name) })
        renderer.render(template.program, into: &out)
    }

    public func render(_ name: String, _ context: TemplateValue) -> String {
        var out: [UInt8] = []
        render(name, context, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// This library compiled against `constants` (see `TemplateCompiler`): what renders the same for every request is
    /// done once. The constants stay at the bottom of every render's context, for what could not be folded. Their
    /// names are reserved: tags on them are resolved at compile time even inside sections, so no context may use them.
    public func compiled(constants: TemplateFields) -> TemplateLibrary {
        var compiler = TemplateCompiler(constants: constants, library: self)
        return TemplateLibrary(
            sources: sources, parsed: parsed.mapValues { compiler.compile($0) }, base: .object(constants), audit: audit)
    }

    /// The template `name` compiled further against `shared`: values one kind of page shares across requests (its
    /// title, its theme, its list of games), folded in where no section could shadow them. The request's context must
    /// not use their names.
    public func prepared(_ name: String, shared: TemplateFields) -> PreparedTemplate? {
        guard let template = parsed[name] else { return nil }
        var constants = TemplateFields()
        if case .object(let fields)? = base { constants = fields }
        var compiler = TemplateCompiler(constants: constants, shared: shared, library: self)
        var below = constants
        below.merge(shared)
        return PreparedTemplate(
            program: compiler.compile(template).program, base: .object(below), library: self, name: name)
    }

    func partial(_ name: String, indent: String) -> Template? {
        if indent.isEmpty { return parsed[name] }
        let key = indent + "\u{0}" + name
        if let cached = indented.withLock({ $0[key] }) { return cached }
        guard let source = sources[name],
            let template = try? Template(Template.indented(source, by: indent), name: name)
        else { return parsed[name] }
        indented.withLock { $0[key] = template }
        return template
    }
}

/// A template prepared for one kind of page (see `TemplateLibrary.prepared`): rendering it looks up only what the
/// request brings.
/// A class: a page's render takes it from a cache, and copying a struct retained each of its tables. It keeps only
/// the program (the compiled nodes are not needed again).
public final class PreparedTemplate: Sendable {
    let program: TemplateProgram
    let base: TemplateValue
    let library: TemplateLibrary
    let name: String

    init(program: TemplateProgram, base: TemplateValue, library: TemplateLibrary, name: String) {
        self.program = program
        self.base = base
        self.library = library
        self.name = name
    }

    public func render(_ context: TemplateValue, into out: inout [UInt8]) {
        var renderer = TemplateRenderer(
            partials: { [library] in library.partial($0, indent: $1) }, stack: [base, context],
            audit: library.audit.map { ($0, name) })
        renderer.render(program, into: &out)
    }
}
