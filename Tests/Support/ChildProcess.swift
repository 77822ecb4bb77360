import CSystem

#if canImport(Glibc)
import Glibc
#endif

/// The `arcade` executable run as a child process, its output in files.
public final class ChildProcess {
    public let pid: pid_t
    public let scratch = ScratchDirectory()
    public private(set) var exitStatus: Int32?

    /// The binary SwiftPM built beside this test bundle.
    public static var arcadeBinary: String {
        let bundle = CommandLine.arguments[0]
        let directory = bundle.contains("/") ? String(bundle[..<bundle.lastIndex(of: "/")!]) : "."
        var candidate = directory
        // The test bundle may sit inside `X.xctest/` folders; walk up to the build directory.
        while !candidate.isEmpty {
            if access(candidate + "/arcade", X_OK) == 0 { return candidate + "/arcade" }
            guard let slash = candidate.lastIndex(of: "/") else { break }
            candidate = String(candidate[..<slash])
        }
        return directory + "/arcade"
    }

    /// Runs `arcade` with `arguments`, or another program (nginx) when `executable` names it.
    public init(_ arguments: [String], executable: String? = nil, environment: [String: String] = [:]) throws {
        let binary = executable ?? Self.arcadeBinary
        guard access(binary, X_OK) == 0 else {
            throw TestFailure("no executable at \(binary) (for arcade: run `swift build` first)")
        }
        let out = open(scratch.path + "/stdout", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let err = open(scratch.path + "/stderr", O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        defer {
            close(out)
            close(err)
        }
        var env = ["PATH=/usr/bin:/bin"]
        for (k, v) in environment { env.append("\(k)=\(v)") }
        let argv = ([binary] + arguments).map { strdup($0) } + [nil]
        let envp = env.map { strdup($0) } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        pid = csys_spawn(binary, argv, envp, -1, out, err)
        guard pid > 0 else { throw TestFailure("spawn failed: errno \(errno)") }
    }

    deinit {
        if exitStatus == nil {
            _ = csys_send_signal(pid, SIGKILL)
            var status: Int32 = 0
            _ = csys_wait_exit(pid, &status, 5000)
        }
    }

    /// Waits for the exit; nil on timeout.
    @discardableResult
    public func wait(timeout: Double) -> Int32? {
        if let exitStatus { return exitStatus }
        var status: Int32 = 0
        guard csys_wait_exit(pid, &status, Int32(timeout * 1000)) == 0 else { return nil }
        exitStatus = status
        return status
    }

    public func signal(_ number: Int32) { _ = csys_send_signal(pid, number) }

    public var standardOutput: String { readText(scratch.path + "/stdout") }
    public var standardError: String { readText(scratch.path + "/stderr") }

    /// Waits until the child has written `text` to its standard output (lines after the start-up line come a moment
    /// later); false on timeout.
    public func waitForOutput(_ text: String, timeout: Double = 10) -> Bool {
        let end = csysNow() + timeout
        while csysNow() < end {
            if standardOutput.contains(text) { return true }
            sleep(seconds: 0.02)
        }
        return standardOutput.contains(text)
    }

    /// Waits for the start-up line and returns the port it names.
    public func waitForPort(timeout: Double = 60) throws -> Int {
        let end = csysNow() + timeout
        while csysNow() < end {
            let out = standardOutput
            if let range = out.firstRange(of: "://127.0.0.1:") {
                let digits = out[range.upperBound...].prefix { $0.isNumber }
                if let port = Int(digits), out[range.upperBound...].dropFirst(digits.count).first == " " { return port }
            }
            if wait(timeout: 0) != nil { throw TestFailure("arcade exited: \(standardError)") }
            sleep(seconds: 0.02)
        }
        throw TestFailure("arcade did not start: \(standardOutput) \(standardError)")
    }
}

/// A file's whole text ("" when it cannot be opened): a child's output, written to a file.
public func readText(_ path: String) -> String {
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else { return "" }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
        if n <= 0 { break }
        bytes += chunk[0..<n]
    }
    return String(decoding: bytes, as: UTF8.self)
}
