#if canImport(Glibc)
import Glibc
#endif

/// The few file-system calls the loaders need, without Foundation.
public enum Files {
    /// The whole file, or nil if it cannot be read.
    public static func read(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = Glibc.read(fd, &chunk, chunk.count)
            if n < 0 && errno == EINTR { continue }
            if n < 0 { return nil }
            if n == 0 { return bytes }
            bytes += chunk[0..<n]
        }
    }

    /// The names in a directory (not `.` or `..`), sorted; nil if it cannot be read.
    public static func list(_ path: String) -> [String]? {
        guard let dir = opendir(path) else { return nil }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: 256) { String(cString: $0) }
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    /// A number that changes when the file's contents or times change.
    public static func stamp(_ path: String) -> Int? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Int(info.st_mtim.tv_sec) &* 1_000_000_007 &+ Int(info.st_mtim.tv_nsec) &+ Int(info.st_size) &* 31
    }
}
