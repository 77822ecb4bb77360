import HTMLEscaping

/// Renders nodes against a stack of contexts, straight into a byte buffer.
struct TemplateRenderer {
    let partials: (String, String) -> Template?  // (name, indent) → template
    var stack: [TemplateValue]
    var depth = 0
    static let maxDepth = 100  // bounds recursive partials
    /// Counts names found nowhere, when compiling: a part that needs one cannot be rendered ahead.
    var misses: Misses? = nil
    /// Where an interpolated name given by nothing is noted, and the page's template (partials are inside it).
    var audit: (TemplateAudit, String)? = nil

    final class Misses { var count = 0 }

    /// Nodes the compiler renders once, ahead (laid out flat first).
    mutating func render(_ nodes: [Template.Node], into out: inout [UInt8]) {
        render(TemplateProgram(nodes), into: &out)
    }

    mutating func render(_ program: TemplateProgram, into out: inout [UInt8]) {
        program.ops.withUnsafeBufferPointer { ops in
            program.text.withUnsafeBufferPointer { text in
                program.names.withUnsafeBufferPointer { names in
                    run(Tables(ops: ops, text: text, names: names), program, 0..<ops.count, into: &out)
                }
            }
        }
    }

    /// A program's tables, read in place.
    private struct Tables {
        let ops: UnsafeBufferPointer<TemplateProgram.Op>
        let text: UnsafeBufferPointer<UInt8>
        let names: UnsafeBufferPointer<Template.Name>

        func name(_ index: Int32) -> UnsafePointer<Template.Name> { names.baseAddress! + Int(index) }
    }

    private mutating func run(
        _ tables: Tables, _ program: TemplateProgram, _ range: Range<Int>, into out: inout [UInt8]
    ) {
        var next = range.lowerBound
        while next < range.upperBound {
            let op = tables.ops[next]
            next += 1
            switch op {
            case .text(let start, let count):
                out.append(contentsOf: UnsafeBufferPointer(rebasing: tables.text[Int(start)..<Int(start + count)]))
            case .variable(let name, let escaped, let arguments, let count):
                let values = self.arguments(tables, arguments, count)
                let value = lookup(tables.name(name), arguments: values)
                if case .null = value, let (audit, page) = audit, !resolves(tables.name(name)) {
                    audit.note(tables.name(name).pointee, in: page)
                }
                write(value, escaped: escaped, into: &out)
            case .bound(let function, let escaped, let arguments, let count):
                let values = self.arguments(tables, arguments, count)
                write(program.functions[Int(function)](values), escaped: escaped, into: &out)
            case .section(let name, let end, let inverted):
                let value = lookup(tables.name(name))
                let children = next..<Int(end)
                next = Int(end)
                if inverted {
                    if value.isFalsey { run(tables, program, children, into: &out) }
                } else if case .list(let items) = value {
                    for item in items {
                        stack.append(item)
                        run(tables, program, children, into: &out)
                        stack.removeLast()
                    }
                } else if !value.isFalsey {
                    stack.append(consume value)
                    run(tables, program, children, into: &out)
                    stack.removeLast()
                }
            case .partial(let name, let indent):
                include(program.strings[Int(name)], indent: program.strings[Int(indent)], into: &out)
            case .dynamicPartial(let name, let indent):
                include(lookup(tables.name(name)).text, indent: program.strings[Int(indent)], into: &out)
            }
        }
    }

    private func arguments(_ tables: Tables, _ start: Int32, _ count: Int32) -> [TemplateValue] {
        count == 0 ? [] : (Int(start)..<Int(start + count)).map { lookup(tables.name(Int32($0))) }
    }

    private mutating func include(_ name: String, indent: String, into out: inout [UInt8]) {
        guard depth < Self.maxDepth, let template = partials(name, indent) else { return }
        depth += 1
        render(template.program, into: &out)
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

    /// Whether a name is given at all (a null given is given): `lookup`'s walk, for `TemplateAudit`.
    func resolves(_ name: UnsafePointer<Template.Name>) -> Bool {
        let name = name.pointee
        guard !name.parts.isEmpty else { return true }
        for frame in stack.reversed() {
            guard case .object(let fields) = frame, var value = fields[name.keys[0], name.parts[0]] else { continue }
            for part in 1..<name.parts.count {
                if case .function = value { return true }
                guard case .object(let inner) = value, let next = inner[name.keys[part], name.parts[part]] else {
                    return false
                }
                value = next
            }
            return true
        }
        return false
    }

    /// Finds the first part of a name up the stack, then the rest inside it.
    func lookup(_ name: Template.Name, arguments: [TemplateValue] = []) -> TemplateValue {
        withUnsafePointer(to: name) { lookup($0, arguments: arguments) }
    }

    /// The name read in place (a program's, or the compiler's).
    func lookup(_ name: UnsafePointer<Template.Name>, arguments: [TemplateValue] = []) -> TemplateValue {
        guard !name.pointee.parts.isEmpty else { return stack.last ?? .null }
        var level = stack.count - 1
        while level >= 0 {
            defer { level -= 1 }
            guard case .object(let fields) = stack[level],
                let found = fields[name.pointee.keys[0], name.pointee.parts[0]]
            else {
                continue
            }
            if case .function(let function) = found { return function.call(name.pointee.tail, arguments) }
            // Most names have one part: the value found is the answer (a copy into `value` retained it twice more).
            if name.pointee.parts.count == 1 { return found }
            var value = found
            var part = 1
            while part < name.pointee.parts.count {
                switch value {
                case .object(let inner):
                    value = inner[name.pointee.keys[part], name.pointee.parts[part]] ?? .null
                case .function(let function):
                    return function.call(name.pointee.parts[part...].joined(separator: "."), arguments)
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
