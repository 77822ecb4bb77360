import Storage
import Threads

/// Something the site runs beside its requests, from its start until `Site.close` stops it (in reverse order).
package protocol BackgroundWork: Sendable {
    func stop()
}

extension PeriodicThread: BackgroundWork {}
extension Housekeeping: BackgroundWork {}
extension ChangeFeed: BackgroundWork {}
extension Leadership: BackgroundWork {
    /// Another instance may lead at once.
    package func stop() { resign() }
}
