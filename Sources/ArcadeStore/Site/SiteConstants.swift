import Constants
import Mastermind
import PropertyList

/// Every constant the site reads, with its allowed range and whether native apps may see it.
package enum SiteConstants {
    /// The hint solver enumerates every code: rules with more codes than this are refused.
    package static let maxCodes = 1_000_000

    package static func schema(randomHosts: [String]) -> Constants.Schema {
        let rules: [String: Constants.Rule] = [
            "site.version": .init(.text(maxBytes: 32), forApps: true),
            "mastermind.codeLength": .init(.integer(1...8), forApps: true),
            "mastermind.digitMin": .init(.integer(0...9), forApps: true),
            "mastermind.digitMax": .init(.integer(0...9), forApps: true),
            "mastermind.attempts": .init(.integer(1...30), forApps: true),
            "mastermind.random": .init(.choice(["csprng", "random.org"]), forApps: false),
            "mastermind.randomOrgURL": .init(.httpsURL, forApps: false),
            "mastermind.randomOrgTimeout": .init(.real(0.1...10), forApps: false),
            "mastermind.randomOrgCertificates": .init(.text(maxBytes: 1024), forApps: false),
            "namegame.hintInterval": .init(.real(0.2...60), forApps: true),
            "namegame.timedSeconds": .init(.integer(5...3600), forApps: true),
            "namegame.lessonRounds": .init(.integer(3...50), forApps: false),
            "namegame.newPerDay": .init(.integer(1...500), forApps: false),
            "namegame.profiles": .init(.text(maxBytes: 1024), forApps: false),
            "cheats.maxGap": .init(.real(0.1...10), forApps: true),
            "cheats.file": .init(.text(maxBytes: 1024), forApps: false),
            "names.refused": .init(.text(maxBytes: 4000), forApps: false),
        ]
        return Constants.Schema(rules: rules, hosts: randomHosts) { value in
            guard case .integer(let length) = value("mastermind.codeLength"),
                case .integer(let low) = value("mastermind.digitMin"),
                case .integer(let high) = value("mastermind.digitMax")
            else { return nil }
            guard low <= high else { return "mastermind.digitMin ≤ mastermind.digitMax" }
            let colors = high - low + 1
            var count = 1
            for _ in 0..<max(0, length) {
                count *= colors
                if count > maxCodes { return "(digitMax − digitMin + 1) ^ codeLength ≤ \(maxCodes)" }
            }
            return nil
        }
    }
}
