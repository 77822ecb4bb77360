import CSystem

#if canImport(Glibc)
import Glibc
#endif

/// A command-line client (curl, openssl, python3) with pipes to its standard input and output, spawned with
/// posix_spawn. Foundation's `Process.run` on this toolchain now and then reads past a directory entry of
/// `/proc/self/fd` and crashes the whole test run (swift-corelibs-foundation#5472).
public final class Tool {
    public let pid: pid_t
    private var input: Int32
    private let output: Int32
    private let scratch = ScratchDirectory()
    private var pending: [UInt8] = []
    private var status: Int32?

    /// Runs `arguments` through `/usr/bin/env` (found on PATH), in this process's environment.
    public init(_ arguments: [String]) throws {
        var toChild: [Int32] = [0, 0]
        var fromChild: [Int32] = [0, 0]
        // Close-on-exec: a client spawned meanwhile by another test must not hold these ends open (no EOF then).
        guard csys_pipe(&toChild) == 0 else { throw TestFailure("pipe: errno \(errno)") }
        guard csys_pipe(&fromChild) == 0 else { throw TestFailure("pipe: errno \(errno)") }
        let err = open(scratch.path + "/stderr", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        let argv = (["/usr/bin/env"] + arguments).map { strdup($0) } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            close(toChild[0])
            close(fromChild[1])
            close(err)
        }
        pid = csys_spawn("/usr/bin/env", argv, environ, toChild[0], fromChild[1], err)
        input = toChild[1]
        output = fromChild[0]
        guard pid > 0 else {
            close(input)
            close(output)
            throw TestFailure("spawn failed: errno \(errno)")
        }
    }

    deinit {
        closeInput()
        close(output)
        if status == nil {
            _ = csys_send_signal(pid, SIGKILL)
            _ = wait()
        }
    }

    public func write(_ text: String) {
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let n = bytes.withUnsafeBytes { Glibc.write(input, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return }
            bytes = bytes.dropFirst(n)
        }
    }

    /// The end of its input.
    public func closeInput() {
        if input >= 0 { close(input) }
        input = -1
    }

    /// The next line it prints, without the newline; nil at the end of its output.
    public func readLine() -> String? {
        while true {
            if let newline = pending.firstIndex(of: 0x0A) {
                let line = String(decoding: pending[..<newline], as: UTF8.self)
                pending.removeSubrange(...newline)
                return line
            }
            guard fill() else {
                defer { pending = [] }
                return pending.isEmpty ? nil : String(decoding: pending, as: UTF8.self)
            }
        }
    }

    /// Everything it prints from here to its end.
    public func readToEnd() -> String {
        while fill() {}
        defer { pending = [] }
        return String(decoding: pending, as: UTF8.self)
    }

    /// Its exit status (128 + the signal when killed); it is killed if it has not ended within two minutes.
    @discardableResult
    public func wait() -> Int32 {
        if let status { return status }
        var code: Int32 = 0
        if csys_wait_exit(pid, &code, 120_000) != 0 {
            _ = csys_send_signal(pid, SIGKILL)
            _ = csys_wait_exit(pid, &code, 5_000)
        }
        status = code
        return code
    }

    /// What it wrote to standard error (read once it has ended).
    public var standardError: String { readText(scratch.path + "/stderr") }

    private func fill() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(output, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return false }
            pending += chunk[0..<n]
            return true
        }
    }
}
