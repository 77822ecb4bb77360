/// Writes a value as an XML property list, the format `PropertyListParser` reads (and Apple's tools write): a tab
/// for each level, dictionaries in their order.
public enum PropertyListWriter {
    public static func xml(_ value: PropertyListValue) -> String {
        var out = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">

            """
        write(value, depth: 0, into: &out)
        out += "</plist>\n"
        return out
    }

    static func write(_ value: PropertyListValue, depth: Int, into out: inout String) {
        let indent = String(repeating: "\t", count: depth)
        switch value {
        case .string(let s): out += indent + "<string>" + escape(s) + "</string>\n"
        case .integer(let i): out += indent + "<integer>\(i)</integer>\n"
        case .real(let d): out += indent + "<real>\(d)</real>\n"
        case .bool(let b): out += indent + (b ? "<true/>\n" : "<false/>\n")
        case .date(let s): out += indent + "<date>" + escape(s) + "</date>\n"
        case .data(let s): out += indent + "<data>" + escape(s) + "</data>\n"
        case .array(let items):
            out += indent + "<array>\n"
            for item in items { write(item, depth: depth + 1, into: &out) }
            out += indent + "</array>\n"
        case .dictionary(let members):
            out += indent + "<dict>\n"
            for (key, member) in members {
                out += indent + "\t<key>" + escape(key) + "</key>\n"
                write(member, depth: depth + 1, into: &out)
            }
            out += indent + "</dict>\n"
        }
    }

    /// `&`, `<` and `>` as entities; so is a carriage return, which an XML reader would otherwise turn into a newline.
    static func escape(_ text: String) -> String {
        var out = ""
        out.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\r": out += "&#13;"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
