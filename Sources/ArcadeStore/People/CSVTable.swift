/// Comma-separated rows as RFC 4180 writes them: fields in double quotes may hold commas, line breaks and `""` for a
/// quote; lines end in CRLF or LF. A quote left open is an error, not a guess.
package struct CSVTable: Sendable, Equatable {
    package let rows: [[String]]

    package struct Error: Swift.Error, Equatable {
        /// 1-based line where the problem is.
        package let line: Int
    }

    package init(_ text: String) throws(Error) {
        var rows: [[String]] = []
        var row: [String] = []
        var field = ""
        var quoted = false
        var afterQuote = false
        var line = 1
        var quoteLine = 1
        var scalars = text.unicodeScalars.makeIterator()
        var pending: Unicode.Scalar? = nil
        func endRow() {
            row.append(field)
            field = ""
            // A blank line is no row.
            if !(row.count == 1 && row[0].isEmpty) { rows.append(row) }
            row = []
        }
        while let c = pending ?? scalars.next() {
            pending = nil
            if quoted {
                if c == "\"" {
                    if let next = scalars.next() {
                        if next == "\"" {
                            field.unicodeScalars.append("\"")
                            continue
                        }
                        pending = next
                    }
                    quoted = false
                    afterQuote = true
                } else {
                    if c == "\n" { line += 1 }
                    field.unicodeScalars.append(c)
                }
                continue
            }
            switch c {
            case ",":
                row.append(field)
                field = ""
                afterQuote = false
            case "\r": continue
            case "\n":
                endRow()
                line += 1
                afterQuote = false
            case "\"" where field.isEmpty && !afterQuote:
                quoted = true
                quoteLine = line
            default:
                // Text after a closing quote, or a quote inside a bare field, is malformed.
                if afterQuote || c == "\"" { throw Error(line: line) }
                field.unicodeScalars.append(c)
            }
        }
        if quoted { throw Error(line: quoteLine) }
        if !field.isEmpty || !row.isEmpty || afterQuote { endRow() }
        self.rows = rows
    }
}
