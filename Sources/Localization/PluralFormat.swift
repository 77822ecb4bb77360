import PropertyList

/// One `.stringsdict` entry: `NSStringLocalizedFormatKey` with `%#@var@`
/// variables, each choosing a form by the CLDR category of its argument.
public struct PluralFormat: Sendable {
    public struct Variable: Sendable {
        public let valueType: String
        public let forms: [PluralCategory: String]
    }

    public let format: String
    public let variables: [String: Variable]
    /// The format cut at its variables, parsed once: literal text, then the
    /// variable and the argument it takes (its forms already point there).
    private let pieces: [(literal: String, variable: String?, argument: Int, forms: [PluralCategory: String])]

    init(format: String, variables: [String: Variable]) {
        self.format = format
        self.variables = variables
        var pieces: [(String, String?, Int, [PluralCategory: String])] = []
        var cursor = format.startIndex
        var next = 0
        for occurrence in Self.occurrences(in: format) {
            // Plain specifiers before the variable take arguments too (`%@: %#@n@` counts the second).
            next += StringFormat.specs(Array(format[cursor..<occurrence.range.lowerBound].utf8)).count {
                $0.position == nil
            }
            let index = occurrence.position.map { $0 - 1 } ?? next
            if occurrence.position == nil { next += 1 }
            let forms = (variables[occurrence.name]?.forms ?? [:]).mapValues { Self.pointing($0, at: index + 1) }
            pieces.append((String(format[cursor..<occurrence.range.lowerBound]), occurrence.name, index, forms))
            cursor = occurrence.range.upperBound
        }
        pieces.append((String(format[cursor...]), nil, 0, [:]))
        self.pieces = pieces
    }

    /// Reads every entry of a `.stringsdict` property list.
    public static func entries(
        from plist: PropertyListValue, file: String
    ) throws(LocalizationError) -> [String: PluralFormat] {
        guard let members = plist.dictionary else {
            throw LocalizationError("\(file): the top level must be a dict of keys to plural rules")
        }
        var result: [String: PluralFormat] = [:]
        for (key, entry) in members {
            guard let format = entry["NSStringLocalizedFormatKey"]?.string else {
                throw LocalizationError("\(file): '\(key)' has no NSStringLocalizedFormatKey string")
            }
            var variables: [String: Variable] = [:]
            for name in Self.variableNames(in: format) {
                guard let spec = entry[name] else {
                    throw LocalizationError("\(file): '\(key)' uses %#@\(name)@ but does not define it")
                }
                guard spec["NSStringFormatSpecTypeKey"]?.string == "NSStringPluralRuleType" else {
                    throw LocalizationError(
                        "\(file): '\(key).\(name)' must have NSStringFormatSpecTypeKey NSStringPluralRuleType")
                }
                var forms: [PluralCategory: String] = [:]
                for category in PluralCategory.allCases {
                    if let form = spec[category.rawValue]?.string { forms[category] = form }
                }
                guard forms[.other] != nil else {
                    throw LocalizationError("\(file): '\(key).\(name)' needs an 'other' form")
                }
                variables[name] = Variable(valueType: spec["NSStringFormatValueTypeKey"]?.string ?? "d", forms: forms)
            }
            result[key] = PluralFormat(format: format, variables: variables)
        }
        return result
    }

    public static func variableNames(in format: String) -> [String] {
        occurrences(in: format).map(\.name)
    }

    /// `%#@name@` and `%2$#@name@` occurrences, with their explicit position.
    static func occurrences(in format: String) -> [(range: Range<String.Index>, name: String, position: Int?)] {
        var result: [(Range<String.Index>, String, Int?)] = []
        var rest = format[...]
        while let percent = rest.firstIndex(of: "%") {
            var i = format.index(after: percent)
            var digits = ""
            while i < format.endIndex, format[i].isASCII, format[i].isNumber {
                digits.append(format[i])
                i = format.index(after: i)
            }
            var position: Int?
            if !digits.isEmpty {
                guard i < format.endIndex, format[i] == "$" else {
                    rest = format[i...]
                    continue
                }
                position = Int(digits)
                i = format.index(after: i)
            }
            guard format[i...].hasPrefix("#@"), let close = format[format.index(i, offsetBy: 2)...].firstIndex(of: "@")
            else {
                rest = format[(i < format.endIndex ? format.index(after: i) : i)...]
                continue
            }
            let name = String(format[format.index(i, offsetBy: 2)..<close])
            result.append((percent..<format.index(after: close), name, position))
            rest = format[format.index(after: close)...]
        }
        return result
    }

    /// The hotfix key of one form of one variable: `home.games.count#games.one`.
    /// Hotfixes replace single forms, so a hotfixed plural stays a plural.
    public static func formKey(_ key: String, variable: String, category: PluralCategory) -> String {
        "\(key)#\(variable).\(category.rawValue)"
    }

    /// The parts of a form key, or nil if it is not one.
    public static func splitFormKey(_ formKey: String) -> (key: String, variable: String, category: PluralCategory)? {
        guard let hash = formKey.lastIndex(of: "#"), let dot = formKey[hash...].lastIndex(of: "."),
            let category = PluralCategory(rawValue: String(formKey[formKey.index(after: dot)...]))
        else { return nil }
        let variable = String(formKey[formKey.index(after: hash)..<dot])
        guard !variable.isEmpty else { return nil }
        return (String(formKey[..<hash]), variable, category)
    }

    /// The shipped form for a category: its own, else `other`.
    public func form(_ variable: String, _ category: PluralCategory) -> String? {
        guard let forms = variables[variable]?.forms else { return nil }
        return forms[category] ?? forms[.other]
    }

    /// The format with every variable replaced by its chosen form, each
    /// form's specifiers pointed at the variable's argument. `override`
    /// supplies hotfixed forms, which win over the shipped ones and may add
    /// a `zero` form the language lacks.
    func resolve(
        language: String, arguments: [FormatArgument],
        override: ((_ variable: String, _ category: PluralCategory) -> String?)? = nil
    ) -> String {
        var out = ""
        for piece in pieces {
            out += piece.literal
            guard let variable = piece.variable, let other = piece.forms[.other] else { continue }
            let value = piece.argument < arguments.count ? arguments[piece.argument].asDouble : 0
            guard let override else {
                let category =
                    value == 0 && piece.forms[.zero] != nil
                    ? .zero : PluralRules.category(for: value, language: language)
                out += piece.forms[category] ?? other
                continue
            }
            let zero = value == 0 ? override(variable, .zero) : nil
            let category =
                value == 0 && (zero != nil || piece.forms[.zero] != nil)
                ? .zero : PluralRules.category(for: value, language: language)
            if let hotfix = zero ?? override(variable, category) {
                out += Self.pointing(hotfix, at: piece.argument + 1)
            } else if let shipped = piece.forms[category] {
                out += shipped
            } else {
                out += override(variable, .other).map { Self.pointing($0, at: piece.argument + 1) } ?? other
            }
        }
        return out
    }

    /// Rewrites unnumbered specifiers (`%d`, `%@`) as `%N$d`, `%N$@`.
    static func pointing(_ form: String, at position: Int) -> String {
        var out = ""
        var i = form.startIndex
        while i < form.endIndex {
            let ch = form[i]
            out.append(ch)
            i = form.index(after: i)
            guard ch == "%", i < form.endIndex else { continue }
            if form[i] == "%" {
                out.append("%")
                i = form.index(after: i)
                continue
            }
            // Leave explicitly numbered specifiers alone.
            var j = i
            while j < form.endIndex, form[j].isASCII, form[j].isNumber { j = form.index(after: j) }
            if j < form.endIndex, form[j] == "$", j > i { continue }
            out += "\(position)$"
        }
        return out
    }
}

public struct LocalizationError: Error, Sendable, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}
