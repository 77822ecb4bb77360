#if canImport(Glibc)
import Glibc
#endif

/// A scratch directory that removes itself.
public final class ScratchDirectory {
    public let path: String

    public init() {
        var template = Array("/tmp/arcade-test-XXXXXX".utf8CString)
        path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
    }

    deinit { _ = system("rm -rf '\(path)'") }

    public func write(_ relative: String, _ contents: String) { write(relative, Array(contents.utf8)) }

    public func write(_ relative: String, _ bytes: [UInt8]) {
        let full = path + "/" + relative
        if let slash = full.lastIndex(of: "/") { _ = system("mkdir -p '\(full[..<slash])'") }
        let fd = open(full, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        precondition(fd >= 0)
        _ = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        Glibc.close(fd)
    }
}
