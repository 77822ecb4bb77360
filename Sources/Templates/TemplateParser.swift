/// Turns Mustache source into nodes. Standalone tags (a section, inverted,
/// closing, comment, partial or delimiter tag alone on its line) take the
/// whole line with them, as the spec requires.
struct TemplateParser {
    let source: [UInt8]
    let file: String
    private var open: [UInt8] = Array("{{".utf8)
    private var close: [UInt8] = Array("}}".utf8)
    private var position = 0

    private struct Frame {
        var name: Substring
        var inverted: Bool
        var nodes: [Template.Node]
        var at: Int
    }

    init(source: [UInt8], file: String) {
        self.source = source
        self.file = file
    }

    mutating func parse() throws(TemplateError) -> [Template.Node] {
        var stack = [Frame(name: "", inverted: false, nodes: [], at: 0)]
        var text: [UInt8] = []
        var lineStart = 0  // where the current line began
        var tagOnLine = false  // a non-standalone tag already sits on this line

        func flush(_ text: inout [UInt8], into stack: inout [Frame]) {
            if !text.isEmpty {
                stack[stack.count - 1].nodes.append(.text(text))
                text = []
            }
        }

        while position < source.count {
            guard let tagStart = find(open, from: position) else {
                text += source[position...]
                position = source.count
                break
            }
            // Text up to the tag; note line starts inside it.
            for i in position..<tagStart where source[i] == 0x0A {
                lineStart = i + 1
                tagOnLine = false
            }
            text += source[position..<tagStart]

            let (kind, content, tagEnd) = try readTag(at: tagStart)

            // Standalone: only blanks before it on its line, and after it up to the newline.
            var standalone = false
            var lineEnd = tagEnd
            if !kind.isEmpty, "#^/!>=".contains(kind), !tagOnLine, isBlank(lineStart..<tagStart) {
                var j = tagEnd
                while j < source.count, source[j] == 0x20 || source[j] == 0x09 { j += 1 }
                if j == source.count {
                    standalone = true
                    lineEnd = j
                } else if source[j] == 0x0A {
                    standalone = true
                    lineEnd = j + 1
                } else if source[j] == 0x0D, j + 1 < source.count, source[j + 1] == 0x0A {
                    standalone = true
                    lineEnd = j + 2
                }
            }
            var indent = ""
            if standalone {
                indent = String(decoding: source[lineStart..<tagStart], as: UTF8.self)
                text.removeLast(tagStart - lineStart)
                position = lineEnd
                lineStart = lineEnd
                tagOnLine = false
            } else {
                position = tagEnd
                if kind != "\n" { tagOnLine = true }
            }

            let trimmed = content.trimmingBlanks
            switch kind {
            case "!":
                break
            case "=":
                flush(&text, into: &stack)
                let parts = trimmed.split(whereSeparator: { $0 == " " || $0 == "\t" })
                guard parts.count == 2, !parts.contains(where: { $0.contains("=") }) else {
                    throw error("expected two delimiters such as {{=<% %>=}}", at: tagStart)
                }
                open = Array(parts[0].utf8)
                close = Array(parts[1].utf8)
            case "#", "^":
                flush(&text, into: &stack)
                try checkName(trimmed, at: tagStart)
                stack.append(Frame(name: trimmed, inverted: kind == "^", nodes: [], at: tagStart))
            case "/":
                flush(&text, into: &stack)
                guard stack.count > 1 else { throw error("found {{/\(trimmed)}} with no open section", at: tagStart) }
                let frame = stack.removeLast()
                guard frame.name == trimmed else {
                    throw error(
                        "expected {{/\(frame.name)}} to close the section opened at \(location(frame.at)), but found {{/\(trimmed)}}",
                        at: tagStart)
                }
                stack[stack.count - 1].nodes.append(
                    .section(Template.Name(frame.name), frame.nodes, inverted: frame.inverted))
            case ">":
                flush(&text, into: &stack)
                let dynamic = trimmed.hasPrefix("*")
                let name = dynamic ? trimmed.dropFirst().trimmingBlanks : trimmed
                guard !name.isEmpty else { throw error("expected a partial name", at: tagStart) }
                stack[stack.count - 1].nodes.append(
                    dynamic
                        ? .dynamicPartial(Template.Name(name), indent: indent)
                        : .partial(String(name), indent: indent))
            default:  // "", "{", "&": interpolation, with optional arguments
                flush(&text, into: &stack)
                let words = trimmed.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" })
                guard let first = words.first else { throw error("expected a name inside the tag", at: tagStart) }
                for word in words { try checkName(word, at: tagStart) }
                stack[stack.count - 1].nodes.append(
                    .variable(
                        Template.Name(first), escaped: kind == "",
                        arguments: words.dropFirst().map(Template.Name.init)))
            }
        }
        flush(&text, into: &stack)
        if stack.count > 1 {
            let frame = stack[stack.count - 1]
            throw error("expected {{/\(frame.name)}} before the end of the template", at: frame.at)
        }
        return stack[0].nodes
    }

    /// Reads the tag at `start`: its kind character, content and end.
    private func readTag(at start: Int) throws(TemplateError) -> (String, Substring, Int) {
        var i = start + open.count
        guard i <= source.count else { throw error("unclosed tag", at: start) }
        var kind = ""
        var closer = close
        if i < source.count {
            switch source[i] {
            case UInt8(ascii: "{"):
                kind = "{"
                i += 1
                closer = [UInt8(ascii: "}")] + close
            case UInt8(ascii: "&"), UInt8(ascii: "#"), UInt8(ascii: "^"), UInt8(ascii: "/"),
                UInt8(ascii: "!"), UInt8(ascii: ">"):
                kind = String(Character(Unicode.Scalar(source[i])))
                i += 1
            case UInt8(ascii: "="):
                kind = "="
                i += 1
                closer = [UInt8(ascii: "=")] + close
            default: break
            }
        }
        guard let end = find(closer, from: i) else {
            throw error("expected '\(String(decoding: closer, as: UTF8.self))' to close the tag", at: start)
        }
        let content = String(decoding: source[i..<end], as: UTF8.self)[...]
        return (kind, content, end + closer.count)
    }

    private func checkName(_ name: Substring, at: Int) throws(TemplateError) {
        guard !name.isEmpty else { throw error("expected a name inside the tag", at: at) }
        guard name == "." || !name.split(separator: ".", omittingEmptySubsequences: false).contains(where: \.isEmpty)
        else {
            throw error("'\(name)' is not a valid name", at: at)
        }
    }

    private func isBlank(_ range: Range<Int>) -> Bool {
        range.allSatisfy { source[$0] == 0x20 || source[$0] == 0x09 }
    }

    private func find(_ needle: [UInt8], from start: Int) -> Int? {
        guard let first = needle.first, source.count >= needle.count else { return nil }
        var i = start
        while i + needle.count <= source.count {
            if source[i] == first && source[i..<(i + needle.count)].elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }

    private func location(_ offset: Int) -> String {
        let (line, column) = lineAndColumn(offset)
        return "\(line):\(column)"
    }

    private func lineAndColumn(_ offset: Int) -> (Int, Int) {
        var line = 1
        var column = 1
        for i in 0..<min(offset, source.count) {
            if source[i] == 0x0A {
                line += 1
                column = 1
            } else if source[i] & 0xC0 != 0x80 {
                column += 1
            }
        }
        return (line, column)
    }

    private func error(_ message: String, at offset: Int) -> TemplateError {
        let (line, column) = lineAndColumn(offset)
        return TemplateError(file: file, line: line, column: column, message: message)
    }
}

extension Substring {
    var trimmingBlanks: Substring {
        var s = self
        while let c = s.first, c == " " || c == "\t" || c == "\n" || c == "\r\n" { s.removeFirst() }
        while let c = s.last, c == " " || c == "\t" || c == "\n" || c == "\r\n" { s.removeLast() }
        return s
    }
}
