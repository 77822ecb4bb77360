import HTMLEscaping

/// Renders nodes against a stack of contexts, straight into a byte buffer.
struct TemplateRenderer {
    let partials: (String, String) -> Template?  // (name, indent) → template
    var stack: [TemplateValue]
    var depth = 0
    static let maxDepth = 100  // bounds recursive partials
    /// Counts names found nowhere, when compiling: a part that needs one cannot be rendered ahead.
    var misses: Misses? = nil

    final class Misses { var count = 0 }

    mutating func render(_ nodes: [Template.Node], into out: inout [UInt8]) {
        for index in nodes.indices {
            switch nodes[index] {
            case .text(let bytes):
                out.append(contentsOf: bytes)
            case .variable(let name, let escaped, let arguments):
                write(
                    lookup(name, arguments: arguments.isEmpty ? [] : arguments.map { lookup($0) }), escaped: escaped,
                    into: &out)
            case .bound(let function, let escaped, let arguments):
                write(function(arguments.map { lookup($0) }), escaped: escaped, into: &out)
            case .section(let name, let children, let inverted):
                let value = lookup(name)
                if inverted {
                    if value.isFalsey { render(children, into: &out) }
                } else if case .list(let items) = value {
                    for item in items {
                        stack.append(item)
                        render(children, into: &out)
                        stack.removeLast()
                    }
                } else if !value.isFalsey {
                    stack.append(value)
                    render(children, into: &out)
                    stack.removeLast()
                }
            case .partial(let name, let indent):
                include(name, indent: indent, into: &out)
            case .dynamicPartial(let name, let indent):
                include(lookup(name).text, indent: indent, into: &out)
            }
        }
    }

    private mutating func include(_ name: String, indent: String, into out: inout [UInt8]) {
        guard depth < Self.maxDepth, let template = partials(name, indent) else { return }
        depth += 1
        render(template.nodes, into: &out)
        depth -= 1
    }

    func write(_ value: TemplateValue, escaped: Bool, into out: inout [UInt8]) {
        if case .string(var text) = value {
            if escaped { HTMLEscaper.append(text, to: &out) } else { text.withUTF8 { out.append(contentsOf: $0) } }
        } else if escaped {
            HTMLEscaper.append(value.text, to: &out)
        } else {
            out.append(contentsOf: value.text.utf8)
        }
    }

    /// Finds the first part of a name up the stack, then the rest inside it.
    func lookup(_ name: Template.Name, arguments: [TemplateValue] = []) -> TemplateValue {
        guard !name.parts.isEmpty else { return stack.last ?? .null }
        var level = stack.count - 1
        while level >= 0 {
            defer { level -= 1 }
            guard case .object(let fields) = stack[level], let found = fields[name.keys[0], name.parts[0]] else {
                continue
            }
            if case .function(let function) = found { return function.call(name.tail, arguments) }
            var value = found
            var part = 1
            while part < name.parts.count {
                switch value {
                case .object(let inner):
                    value = inner[name.keys[part], name.parts[part]] ?? .null
                case .function(let function):
                    return function.call(name.parts[part...].joined(separator: "."), arguments)
                default:
                    return .null
                }
                part += 1
            }
            if case .function(let function) = value { return function.call("", arguments) }
            return value
        }
        misses?.count += 1
        return .null
    }
}
