import COpenSSL
import Files
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The certificate and key files of a server that speaks TLS.
public struct TLSFiles: Sendable, Equatable {
    public var certificate: String
    public var key: String

    public init(certificate: String, key: String) {
        self.certificate = certificate
        self.key = key
    }
}

public struct TLSError: Error, CustomStringConvertible, Sendable {
    public let description: String
}

/// The context new connections are served with. A reload builds a whole new one and swaps it in: each connection's
/// SSL object holds a reference to the context it began with, so connections already open go on undisturbed.
public final class TLSContext: Sendable {
    public let files: TLSFiles
    /// Whether the kernel can take over the record layer (kTLS), so files go out with sendfile.
    public let kernelTLS: Bool
    private let current: Mutex<Loaded>
    /// Session ticket keys, shared by every context this one loads (a reload does not void the tickets out there).
    private let tickets: TicketRing
    /// How often the ticket key is replaced; a ticket is accepted for up to two periods.
    public static let ticketKeyPeriod: Int64 = 12 * 3600 * 1_000_000_000

    final class TicketRing: @unchecked Sendable {
        let pointer: UnsafeMutablePointer<arcade_ticket_ring>
        init?() {
            guard let ring = arcade_ticket_ring_new() else { return nil }
            pointer = ring
        }
        deinit { arcade_ticket_ring_free(pointer) }
    }

    struct Loaded: @unchecked Sendable {
        let context: OpaquePointer
        let stamp: [Int]
        let summary: String
    }

    public init(files: TLSFiles) throws(TLSError) {
        self.files = files
        kernelTLS = TLSContext.kernelSupportsTLS()
        guard let tickets = TicketRing() else { throw TLSError(description: "cannot make session ticket keys") }
        self.tickets = tickets
        current = Mutex(try TLSContext.load(files, kernelTLS: kernelTLS, tickets: tickets))
    }

    /// Replaces the session ticket key; tickets sealed with the one before stay valid until the next rotation.
    public func rotateTicketKeys() {
        _ = arcade_ticket_ring_rotate(tickets.pointer)
    }

    deinit { current.withLock { SSL_CTX_free($0.context) } }

    /// The loaded certificate's subject, serial and expiry.
    public var summary: String { current.withLock { $0.summary } }

    /// Loads the files again. A pair that fails to load leaves the old one in use.
    @discardableResult
    public func reload() throws(TLSError) -> String {
        let fresh = try TLSContext.load(files, kernelTLS: kernelTLS, tickets: tickets)
        let old = current.withLock { loaded in
            let old = loaded.context
            loaded = fresh
            return old
        }
        SSL_CTX_free(old)  // freed for good once the last connection that uses it closes
        return fresh.summary
    }

    /// The files' identity now, to notice a renewal (certbot swaps symlinks, so the inode changes).
    public func stampOnDisk() -> [Int] { TLSContext.stamp(files) }

    /// The stamp of the files last loaded (or last tried: a broken pair is not retried until it changes again).
    public var loadedStamp: [Int] { current.withLock { $0.stamp } }

    /// A server-side SSL object for an accepted socket, or nil.
    func session(fd: Int32) -> OpaquePointer? {
        current.withLock { loaded in
            guard let ssl = SSL_new(loaded.context) else { return nil }
            guard SSL_set_fd(ssl, fd) == 1 else {
                SSL_free(ssl)
                return nil
            }
            SSL_set_accept_state(ssl)
            return ssl
        }
    }

    private static func load(_ files: TLSFiles, kernelTLS: Bool, tickets: TicketRing) throws(TLSError) -> Loaded {
        let stamp = stamp(files)
        var error = [CChar](repeating: 0, count: 512)
        guard
            let context = arcade_tls_server_context(
                files.certificate, files.key, kernelTLS ? 1 : 0,
                tickets.pointer, &error, error.count)
        else {
            throw TLSError(description: String(decoding: error.prefix { $0 != 0 }.map(UInt8.init), as: UTF8.self))
        }
        var text = [CChar](repeating: 0, count: 512)
        arcade_tls_describe(context, &text, text.count)
        return Loaded(
            context: context, stamp: stamp,
            summary: String(decoding: text.prefix { $0 != 0 }.map(UInt8.init), as: UTF8.self))
    }

    private static func stamp(_ files: TLSFiles) -> [Int] {
        [files.certificate, files.key].flatMap { path -> [Int] in
            var info = stat()
            guard stat(path, &info) == 0 else { return [-1, -1, -1, -1] }
            return [
                Int(info.st_dev), Int(info.st_ino), Int(info.st_size),
                Int(info.st_mtim.tv_sec) * 1_000_000_000 + Int(info.st_mtim.tv_nsec),
            ]
        }
    }

    /// The kernel's TLS module is loaded (or built in): OpenSSL then hands it the keys after each handshake.
    static func kernelSupportsTLS() -> Bool {
        guard let ulps = Files.read("/proc/sys/net/ipv4/tcp_available_ulp") else { return false }
        return String(decoding: ulps, as: UTF8.self).split(whereSeparator: { $0 == " " || $0 == "\n" }).contains("tls")
    }
}
