import CSystem

#if canImport(Glibc)
import Glibc
#endif

public struct TestFailure: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// A response as read off the wire.
public struct WireResponse {
    public var status: Int
    public var reason: String
    public var headers: [(String, String)]
    public var body: [UInt8]

    public init(status: Int, reason: String, headers: [(String, String)], body: [UInt8]) {
        (self.status, self.reason, self.headers, self.body) = (status, reason, headers, body)
    }

    public func header(_ name: String) -> String? {
        headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }
    public var text: String { String(decoding: body, as: UTF8.self) }
}

/// A blocking loopback client that speaks raw bytes, with deadlines on
/// every read so a misbehaving server fails a test instead of hanging it.
public final class RawClient {
    public private(set) var fd: Int32
    private var buffer: [UInt8] = []
    public private(set) var sawEOF = false

    public init(port: Int, receiveBuffer: Int = 0) throws {
        fd = csys_connect_tcp("127.0.0.1", Int32(port), Int32(receiveBuffer))
        guard fd >= 0 else { throw TestFailure("connect to \(port): errno \(errno)") }
    }

    /// A client from another loopback address (127.0.0.x): to the server, a distinct visitor.
    public init(port: Int, from source: String) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw TestFailure("socket: errno \(errno)") }
        var local = sockaddr_in()
        local.sin_family = sa_family_t(AF_INET)
        guard inet_pton(AF_INET, source, &local.sin_addr) == 1 else { throw TestFailure("bad address \(source)") }
        var remote = sockaddr_in()
        remote.sin_family = sa_family_t(AF_INET)
        remote.sin_port = in_port_t(UInt16(port).bigEndian)
        _ = inet_pton(AF_INET, "127.0.0.1", &remote.sin_addr)
        let bound = withUnsafePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        let connected = withUnsafePointer(to: &remote) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, connected == 0 else { throw TestFailure("connect from \(source) to \(port): errno \(errno)") }
    }

    deinit { if fd >= 0 { Glibc.close(fd) } }

    public func close() {
        if fd >= 0 { Glibc.close(fd) }
        fd = -1
    }

    /// Sends everything; false if the server has closed or reset.
    @discardableResult
    public func send(_ text: String) -> Bool { send(Array(text.utf8)) }

    @discardableResult
    public func send(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { csys_send(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return false }
            offset += n
        }
        return true
    }

    /// Reads whatever arrives within the timeout into the buffer; false on timeout.
    private func fill(deadline: Int64) throws -> Bool {
        let remaining = max(0, Int32((deadline - csys_monotonic_ns()) / 1_000_000))
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let ready = poll(&p, 1, remaining)
        if ready == 0 { return false }
        var chunk = [UInt8](repeating: 0, count: 65536)
        let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if n > 0 {
            buffer += chunk[0..<n]
            return true
        }
        if n == 0 || errno == ECONNRESET {
            sawEOF = true
            return true
        }
        if errno == EINTR || errno == EAGAIN { return true }
        throw TestFailure("recv: errno \(errno)")
    }

    private func deadline(_ seconds: Double) -> Int64 { csys_monotonic_ns() + Int64(seconds * 1e9) }

    /// How long a read waits for a response by default: a bound for a server that never answers, not a speed test.
    /// (5 s failed on a CI machine whose load kept both cores busy: a fixed short wait measures the machine.)
    /// Tests of timing give their own, shorter limits.
    public static let patience: Double = 60

    /// Reads one response. `head` says the request was HEAD (no body follows).
    public func readResponse(timeout: Double = RawClient.patience, head: Bool = false) throws -> WireResponse {
        let end = deadline(timeout)
        var headEnd: Int?
        while true {
            if let i = find([13, 10, 13, 10]) {
                headEnd = i
                break
            }
            if sawEOF {
                throw TestFailure(
                    "connection closed before a response head; got \(String(decoding: buffer, as: UTF8.self).prefix(200))"
                )
            }
            guard try fill(deadline: end) else { throw TestFailure("timed out waiting for a response head") }
        }
        let headText = String(decoding: buffer[0..<headEnd!], as: UTF8.self)
        buffer.removeFirst(headEnd! + 4)
        var lines = headText.split(separator: "\r\n", omittingEmptySubsequences: false).map(String.init)
        let statusLine = lines.removeFirst().split(separator: " ", maxSplits: 2).map(String.init)
        guard statusLine.count >= 2, statusLine[0] == "HTTP/1.1", let status = Int(statusLine[1]) else {
            throw TestFailure("bad status line \(statusLine)")
        }
        let headers = lines.map { line -> (String, String) in
            let colon = line.firstIndex(of: ":")!
            return (String(line[..<colon]), String(line[line.index(after: colon)...].drop(while: { $0 == " " })))
        }
        var response = WireResponse(
            status: status, reason: statusLine.count > 2 ? statusLine[2] : "", headers: headers, body: [])
        if head || status < 200 || status == 204 || status == 304 { return response }
        if let length = response.header("Content-Length").flatMap(Int.init) {
            while buffer.count < length {
                if sawEOF { throw TestFailure("closed after \(buffer.count) of \(length) body bytes") }
                guard try fill(deadline: end) else {
                    throw TestFailure("timed out reading body (\(buffer.count)/\(length))")
                }
            }
            response.body = Array(buffer[0..<length])
            buffer.removeFirst(length)
        } else {
            while !sawEOF {
                guard try fill(deadline: end) else { throw TestFailure("timed out reading body to close") }
            }
            response.body = buffer
            buffer = []
        }
        return response
    }

    /// True when the server closes (EOF or reset) within the timeout; data is discarded.
    public func closes(within timeout: Double) throws -> Bool {
        let end = deadline(timeout)
        while !sawEOF {
            buffer.removeAll()
            guard try fill(deadline: end) else { return false }
        }
        return true
    }

    /// Reads until the server closes; returns how many bytes arrived.
    public func drain(timeout: Double) throws -> Int {
        let end = deadline(timeout)
        var total = buffer.count
        buffer.removeAll()
        while !sawEOF {
            guard try fill(deadline: end) else { throw TestFailure("no close within \(timeout)s after \(total) bytes") }
            total += buffer.count
            buffer.removeAll()
        }
        return total
    }

    /// Whatever arrived within `timeout`, as text.
    public func readAvailable(timeout: Double) throws -> String {
        let end = deadline(timeout)
        while try fill(deadline: end), !sawEOF {}
        defer { buffer.removeAll() }
        return String(decoding: buffer, as: UTF8.self)
    }

    /// Reads until `text` has arrived (returning everything so far, consumed) or the timeout passes (nil).
    public func read(until text: String, timeout: Double) throws -> String? {
        let end = deadline(timeout)
        let needle = Array(text.utf8)
        while find(needle) == nil {
            guard !sawEOF, try fill(deadline: end) else { return nil }
        }
        defer { buffer.removeAll() }
        return String(decoding: buffer, as: UTF8.self)
    }

    private func find(_ needle: [UInt8]) -> Int? {
        guard buffer.count >= needle.count else { return nil }
        for i in 0...(buffer.count - needle.count) where buffer[i..<(i + needle.count)].elementsEqual(needle) {
            return i
        }
        return nil
    }
}

public func sleep(seconds: Double) {
    var ts = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - Double(Int(seconds))) * 1e9))
    nanosleep(&ts, nil)
}

/// Monotonic seconds.
public func csysNow() -> Double { Double(csys_monotonic_ns()) / 1e9 }

/// One OS thread running a closure, joinable.
public final class ThreadRunner: @unchecked Sendable {
    private var handle: UInt64 = 0
    public init(_ body: @escaping () -> Void) {
        final class Box {
            let run: () -> Void
            init(_ r: @escaping () -> Void) { run = r }
        }
        let context = Unmanaged.passRetained(Box(body)).toOpaque()
        _ = csys_thread_start({ Unmanaged<Box>.fromOpaque($0!).takeRetainedValue().run() }, context, &handle)
    }
    public func join() { _ = csys_thread_join(handle) }
}
