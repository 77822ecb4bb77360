/// CLDR plural categories for the shipped languages (integer counts; a
/// fractional count is `other` everywhere but French, where 0 ≤ n < 2 is `one`).
public enum PluralCategory: String, Sendable, CaseIterable {
    case zero, one, two, few, many, other
}

public enum PluralRules {
    public static func category(for count: Double, language: String) -> PluralCategory {
        let base = language.split(separator: "-").first.map(String.init) ?? language
        let isInteger = count == count.rounded() && abs(count) < 1e15
        let i = isInteger ? Int(abs(count)) : Int(abs(count).rounded(.down))
        switch base {
        case "ja", "zh", "ko":
            return .other
        case "fr":
            return abs(count) < 2 ? .one : (isInteger && i != 0 && i % 1_000_000 == 0 ? .many : .other)
        case "ru", "uk":
            guard isInteger else { return .other }
            let mod10 = i % 10
            let mod100 = i % 100
            if mod10 == 1 && mod100 != 11 { return .one }
            if (2...4).contains(mod10) && !(12...14).contains(mod100) { return .few }
            return .many
        case "es", "it", "pt":
            if isInteger && i == 1 { return .one }
            return isInteger && i != 0 && i % 1_000_000 == 0 ? .many : .other
        default:  // en, de, and the Germanic rule as a fallback
            return isInteger && i == 1 ? .one : .other
        }
    }
}
