import Synchronization

/// Names a template interpolates that nothing in its context gives (a null given is given): a field a controller
/// forgot, or a name a template misspelled, renders as nothing, and nobody sees it. The tests fail on one; `--dev`
/// logs each once. Off (no audit on the library), a render does nothing more.
public final class TemplateAudit: Sendable {
    private let names = Mutex<Set<String>>([])
    private let report: (@Sendable (String) -> Void)?

    public init(report: (@Sendable (String) -> Void)? = nil) { self.report = report }

    /// Every name noted so far, as `template: {{name}}`.
    public var missing: Set<String> { names.withLock { $0 } }

    func note(_ name: Template.Name, in template: String) {
        let text = template + ": {{" + name.parts.joined(separator: ".") + "}}"
        if names.withLock({ $0.insert(text).inserted }) { report?(text) }
    }
}
