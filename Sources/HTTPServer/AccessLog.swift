import CSystem
import HTTP
import Logger
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// The access log's pieces. `--access-log json`: one object a line, for a log shipper: the time (RFC 3339, UTC), the
/// level (info) and message (`access`) every line of the log has, the client's address, the method, the path with its query's names but none of their values (they may be secrets; the
/// plain log strips them the same way), the status, the body's bytes, the microseconds taken, and the request id.
public enum AccessLog {
    /// A request's id: the client's `X-Request-Id` when it is a plain token of at most 128 characters (a proxy's),
    /// else one made here, unique in this process and unlikely to repeat across processes.
    static func requestID(_ given: String?) -> String {
        if let given, (1...128).contains(given.utf8.count),
            given.utf8.allSatisfy({
                (0x30...0x39).contains($0) || (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0)
                    || "-_.:+/=".utf8.contains($0)
            })
        {
            return given
        }
        return prefix + String(counter.add(1, ordering: .relaxed).newValue, radix: 16)
    }

    private static let counter = Atomic<Int>(0)
    private static let prefix =
        String(UInt32(truncatingIfNeeded: getpid()), radix: 16) + "-"
        + String(UInt64(truncatingIfNeeded: csys_realtime_ns()) & 0xFFFF_FFFF_FFFF, radix: 16) + "-"

    /// A JSON line: the log's core keys first (time, level, msg), as every line of the program has them.
    static func append(
        _ info: RequestInfo, status: Int, bytes: Int, micros: Int64, time: [UInt8], into out: inout [UInt8]
    ) {
        out.append(contentsOf: #"{"time":""#.utf8)
        out.append(contentsOf: time)
        out.append(contentsOf: #"","level":"info","msg":"access","client":"#.utf8)
        Log.appendJSONString(info.client, into: &out)
        out.append(contentsOf: #","method":"#.utf8)
        Log.appendJSONString(info.method?.description ?? "-", into: &out)
        out.append(contentsOf: #","path":"#.utf8)
        Log.appendJSONString(path(info.target), into: &out)
        out.append(contentsOf: #","status":"#.utf8)
        ResponseHead.appendDecimal(status, into: &out)
        out.append(contentsOf: #","bytes":"#.utf8)
        ResponseHead.appendDecimal(bytes, into: &out)
        out.append(contentsOf: #","us":"#.utf8)
        ResponseHead.appendDecimal(Int(micros), into: &out)
        out.append(contentsOf: #","request_id":"#.utf8)
        Log.appendJSONString(info.requestID, into: &out)
        out.append(contentsOf: "}\n".utf8)
    }

    /// `/search?q=secret&page=2` → `/search?q&page`.
    public static func path(_ target: String) -> String {
        let target = target.utf8.count > 2048 ? String(decoding: target.utf8.prefix(2048), as: UTF8.self) : target
        guard let question = target.firstIndex(of: "?") else { return target }
        let names = target[target.index(after: question)...].split(separator: "&", omittingEmptySubsequences: true)
            .map { $0.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)[0] }
        return String(target[..<question]) + "?" + names.joined(separator: "&")
    }
}
