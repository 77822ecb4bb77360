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

    /// Writes `bytes` to a new file (refusing to replace one), flushed to disk with its folder (made if missing) before
    /// returning: a caller may then record the file as saved.
    public static func writeDurably(_ bytes: [UInt8], to path: String) -> Bool {
        let folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        // Photos and the like are the site's alone: no other user of the machine reads them.
        if mkdir(folder, 0o700) != 0 && errno != EEXIST { return false }
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return false }
        var written = 0
        let ok = bytes.withUnsafeBytes { raw -> Bool in
            while written < raw.count {
                let n = write(fd, raw.baseAddress! + written, raw.count - written)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { return false }
                written += n
            }
            return fsync(fd) == 0
        }
        close(fd)
        guard ok else {
            unlink(path)
            return false
        }
        let dir = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dir >= 0 {
            _ = fsync(dir)
            close(dir)
        }
        return true
    }

    /// Removes a file; true if it is gone.
    @discardableResult
    public static func remove(_ path: String) -> Bool { unlink(path) == 0 || errno == ENOENT }
}
