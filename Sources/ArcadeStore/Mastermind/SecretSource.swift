import Constants
import Crypto
import HTTPClient
import Logger
import Mastermind
import Synchronization

/// Where Mastermind secrets come from: OpenSSL's CSPRNG (uniform, no modulo
/// bias), or, when `mastermind.random` is `random.org`, random.org's integer
/// generator as in the original challenge. Any failure there (a timeout
/// after 1 s, an HTTP error, a body starting `Error:`, a malformed answer)
/// falls back to the CSPRNG and is logged once per kind. It blocks on the
/// network, so callers run off the event loop.
package struct SecretSource: Sendable {
    package let constants: Constants
    private let reported = Reported()

    package final class Reported: Sendable {
        package let kinds = Mutex<Set<String>>([])
    }

    package init(constants: Constants) { self.constants = constants }

    package func secret(_ rules: Rules) -> Code {
        if constants.string("mastermind.random", default: "csprng") == "random.org" {
            switch fromRandomOrg(rules) {
            case .success(let code): return code
            case .failure(let why):
                if reported.kinds.withLock({ $0.insert(why.kind).inserted }) {
                    Log.info("random.org unavailable (\(why.detail)); using OpenSSL's generator")
                }
            }
        }
        var random = SecureRandom()
        return Game.randomSecret(rules, using: &random)
    }

    package struct Unavailable: Error {
        package let kind: String
        package let detail: String
    }

    package func fromRandomOrg(_ rules: Rules) -> Result<Code, Unavailable> {
        let base = constants.string("mastermind.randomOrgURL", default: "https://www.random.org")
        let url =
            "\(base)/integers/?num=\(rules.length)&min=\(rules.digitMin)&max=\(rules.digitMax)&col=1&base=10&format=plain&rnd=new"
        var client = HTTPClient(
            timeout: constants.double("mastermind.randomOrgTimeout", default: 1), maxResponseBytes: 4096)
        let trusted = constants.string("mastermind.randomOrgCertificates", default: "")
        if !trusted.isEmpty { client.trustedCertificates = trusted }
        switch client.get(url) {
        case .failure(let failure):
            return .failure(Unavailable(kind: failure == .timeout ? "timeout" : "network", detail: "\(failure)"))
        case .success(let response):
            guard response.status == 200 else {
                return .failure(Unavailable(kind: "http", detail: "HTTP \(response.status)"))
            }
            let text = response.text
            if text.hasPrefix("Error:") {
                return .failure(Unavailable(kind: "error", detail: String(text.prefix(120))))
            }
            let lines = text.split(whereSeparator: { $0 == "\n" || $0 == "\r" })
            let digits = lines.compactMap { Int($0) }
            guard lines.count == rules.length, digits.count == rules.length,
                digits.allSatisfy({ (rules.digitMin...rules.digitMax).contains($0) })
            else {
                return .failure(
                    Unavailable(kind: "malformed", detail: "malformed answer: \(text.prefix(60).debugDescription)"))
            }
            return .success(Code(digits: digits.map { UInt8($0) }))
        }
    }
}
