import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// One site, one writer, on SQLite: `arcade serve` holds an exclusive advisory lock (`flock`) on `PATH.lock` beside
/// the database for its life, so a second instance on the same file (which would not see the first one's cached
/// changes) refuses to start, and `db restore` refuses a database a running site holds. A separate file, since
/// SQLite's own POSIX locks on the database are released by any close of it in the process. The kernel drops the lock
/// when the process ends, however it ends. PostgreSQL needs none: its instances share through the database.
public final class SiteLock: Sendable {
    private let descriptor: Atomic<Int32>

    /// Takes the lock for `location` (nil on PostgreSQL); throws, naming the holder, when a running site has it.
    public static func take(_ location: DatabaseLocation, for purpose: String) throws(DatabaseError) -> SiteLock? {
        guard case .sqlite(let path) = location else { return nil }
        let lockPath = path + ".lock"
        let fd = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else {
            let reason = String(cString: strerror(errno))
            throw DatabaseError("cannot open database \(path): cannot create its lock file \(lockPath): \(reason)")
        }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let busy = errno == EWOULDBLOCK
            var bytes = [UInt8](repeating: 0, count: 32)
            let count = pread(fd, &bytes, bytes.count, 0)
            close(fd)
            let digits = bytes.prefix(max(0, count)).filter { $0 >= 0x30 && $0 <= 0x39 }
            let holder = String(decoding: digits, as: UTF8.self)
            guard busy else { throw DatabaseError("cannot lock \(lockPath): \(String(cString: strerror(errno)))") }
            throw DatabaseError(
                "another arcade (pid \(holder.isEmpty ? "unknown" : holder)) is serving \(path): one site has one writer;"
                    + " stop it before \(purpose)")
        }
        // The holder's pid, for the message above (the lock, not the file, is what counts).
        let pid = Array("\(getpid())\n".utf8)
        _ = ftruncate(fd, 0)
        _ = pwrite(fd, pid, pid.count, 0)
        return SiteLock(descriptor: fd)
    }

    private init(descriptor: Int32) { self.descriptor = Atomic(descriptor) }

    /// Lets another instance start (on shutdown, once the writer has committed what it held).
    public func release() {
        let fd = descriptor.exchange(-1, ordering: .relaxed)
        guard fd >= 0 else { return }
        // Unlocked before it is closed: a child forked meanwhile (a process the site or a test starts) shares the
        // open file, and a close alone left the lock held until that child's exec (a site restarted on the same file
        // at that moment was refused).
        _ = flock(fd, LOCK_UN)
        close(fd)
    }

    deinit { release() }
}
