/// The data a template renders: what a page's state is made of.
public enum TemplateValue: Sendable, ExpressibleByStringLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByIntegerLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    /// Text; escaped on output unless the tag is `{{{triple}}}` or `{{& amp}}`.
    case string(String)
    case list([TemplateValue])
    case object(TemplateFields)
    /// A value computed from the rest of a dotted name and the tag's
    /// arguments: `{{t.home.title}}` calls it with `"home.title"`, and
    /// `{{t.greeting player.name}}` also passes the value of `player.name`.
    case function(TemplateFunction)

    public init(stringLiteral value: String) { self = .string(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int) { self = .int(value) }
    public init(arrayLiteral elements: TemplateValue...) { self = .list(elements) }
    public init(dictionaryLiteral elements: (String, TemplateValue)...) {
        self = .object(TemplateFields(distinct: elements))
    }

    /// Mustache truthiness: false, null, "" and empty lists are false.
    var isFalsey: Bool {
        switch self {
        case .null: true
        case .bool(let b): !b
        case .string(let s): s.isEmpty
        case .list(let l): l.isEmpty
        default: false
        }
    }

    /// The text an interpolation tag writes.
    public var text: String {
        switch self {
        case .null: ""
        case .bool(let b): b ? "true" : "false"
        case .int(let i): String(i)
        case .double(let d): d == d.rounded() && abs(d) < 1e15 ? String(Int(d)) : String(d)
        case .string(let s): s
        case .list, .object, .function: ""
        }
    }
}

/// See `TemplateValue.function`.
public struct TemplateFunction: Sendable {
    public typealias Bound = @Sendable (_ arguments: [TemplateValue]) -> TemplateValue
    public let call: @Sendable (_ path: String, _ arguments: [TemplateValue]) -> TemplateValue
    /// The function with its path fixed, for a template compiled against it (`t.home.title` looks its
    /// string up once, at compile time); nil where the path alone says nothing.
    public let bind: @Sendable (_ path: String) -> Bound?

    public init(
        _ call: @escaping @Sendable (_ path: String, _ arguments: [TemplateValue]) -> TemplateValue,
        bind: @escaping @Sendable (_ path: String) -> Bound? = { _ in nil }
    ) {
        self.call = call
        self.bind = bind
    }
}
