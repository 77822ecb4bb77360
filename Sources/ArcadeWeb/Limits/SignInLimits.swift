import Synchronization

/// Who may try a password now, decided before any hashing, in one step under one lock (so tries sent at once
/// cannot all pass a check made before any of them is counted).
/// - Per client address: a token bucket (`addressTries` at once, one more every `addressRefill` seconds).
/// - Per account, across addresses: after `freeFailures` failures in a row, each try waits 2, 4, 8… seconds after
///   the last failure, up to `maxDelay`; a success clears it.
/// - A device cookie from an earlier sign-in to that account skips both, with a bucket of its own (OWASP's
///   device cookies), so an attacker guessing the admin's password never locks the admin out of a known browser.
final class SignInLimits: Sendable {
    struct Settings: Sendable {
        var addressTries = 5
        var addressRefill: Double = 12
        var freeFailures = 5
        var maxDelay: Double = 15 * 60
        var deviceTries = 5
        var deviceRefill: Double = 60
        var accounts = 10_000
    }

    enum Decision: Equatable {
        case allowed
        /// Seconds until a try could pass.
        case refused(retryAfter: Int)
    }

    let settings: Settings
    private let clock: @Sendable () -> Double
    private let addresses: TokenBuckets
    private let devices: TokenBuckets
    private struct Failures { var count: Int, last: Double }
    private let accounts = Mutex<[String: Failures]>([:])

    init(_ settings: Settings = Settings(), clock: @escaping @Sendable () -> Double) {
        self.settings = settings
        self.clock = clock
        addresses = TokenBuckets(capacity: settings.addressTries, refill: settings.addressRefill, clock: clock)
        devices = TokenBuckets(capacity: settings.deviceTries, refill: settings.deviceRefill, clock: clock)
    }

    /// Checks and counts a try: `device` is the id of a valid device cookie issued to `name`, if one came.
    /// An allowed try counts as a failure until `succeeded` says otherwise.
    func admit(name: String, address: String, device: String?) -> Decision {
        if let device {
            return devices.take(device).map { .refused(retryAfter: $0) } ?? .allowed
        }
        let now = clock()
        return accounts.withLock { accounts in
            let failures = accounts[name] ?? Failures(count: 0, last: 0)
            let wait = delay(after: failures.count) - (now - failures.last)
            if wait > 0 { return .refused(retryAfter: Int(wait.rounded(.up))) }
            if let seconds = addresses.take(address) { return .refused(retryAfter: seconds) }
            if accounts.count >= settings.accounts, accounts[name] == nil {
                accounts = accounts.filter { $0.value.count >= settings.freeFailures }
                // Still full: the account failed longest ago goes, never all at once (an attacker's review: filling
                // the map with 10,000 names wiped every back-off, a locked account's too).
                if accounts.count >= settings.accounts, let oldest = accounts.min(by: { $0.value.last < $1.value.last })
                {
                    accounts.removeValue(forKey: oldest.key)
                }
            }
            accounts[name] = Failures(count: failures.count + 1, last: now)
            return .allowed
        }
    }

    /// The try was right: it costs nothing, and the account's failures are forgotten.
    func succeeded(name: String, address: String, device: String?) {
        if let device { devices.giveBack(device) } else { addresses.giveBack(address) }
        _ = accounts.withLock { $0.removeValue(forKey: name) }
    }

    /// The password was right and a second factor follows: this try is no failure, but the account's earlier ones
    /// stay until the code is right too (an attacker's review: a right password cleared them, so codes were guessed
    /// from 40 addresses with no account back-off).
    func passedFirstStep(name: String, address: String, device: String?) {
        if let device { devices.giveBack(device) } else { addresses.giveBack(address) }
        forgetOne(name)
    }

    /// The try never ran (the hashing was busy): it counts against no account, but the client's try is spent (an
    /// attacker's review: a refund made a flood that kept the hashing busy free, and locked the admins out).
    func cancelled(name: String, address: String, device: String?) {
        if device != nil { return }
        forgetOne(name)
    }

    /// The account's last try counts as no failure.
    private func forgetOne(_ name: String) {
        accounts.withLock { accounts in
            guard var failures = accounts[name] else { return }
            failures.count -= 1
            accounts[name] = failures.count > 0 ? failures : nil
        }
    }

    /// Seconds an account waits after `count` failures since the last one.
    func delay(after count: Int) -> Double {
        guard count >= settings.freeFailures else { return 0 }
        let doublings = min(count - settings.freeFailures + 1, 20)
        return min(settings.maxDelay, Double(1 << doublings))
    }
}
