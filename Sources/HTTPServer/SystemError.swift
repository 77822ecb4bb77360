#if canImport(Glibc)
import Glibc
#endif

/// A failed system call: what was attempted and the errno it gave.
public struct SystemError: Error, CustomStringConvertible, Sendable {
    public let operation: String
    public let code: Int32

    public init(_ operation: String, code: Int32 = errno) {
        self.operation = operation
        self.code = code
    }

    public var description: String { "\(operation): \(String(cString: strerror(code)))" }
}
