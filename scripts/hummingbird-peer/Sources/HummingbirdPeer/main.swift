// hummingbird-peer FILE PORT: serves FILE's bytes (read once at start) as text/html at every path, on one event loop
// thread (the bench pins each server to one CPU).
import Hummingbird
import NIOCore
import NIOPosix

#if canImport(Glibc)
import Glibc
#endif

let arguments = CommandLine.arguments
guard arguments.count == 3, let port = Int(arguments[2]), let file = fopen(arguments[1], "rb") else {
    print("usage: hummingbird-peer FILE PORT")
    exit(2)
}
var bytes: [UInt8] = []
var chunk = [UInt8](repeating: 0, count: 65_536)
while true {
    let count = fread(&chunk, 1, chunk.count, file)
    if count <= 0 { break }
    bytes += chunk[0..<count]
}
fclose(file)
let page = ByteBuffer(bytes: bytes)

let router = Router()
router.get("/") { _, _ in
    Response(status: .ok, headers: [.contentType: "text/html; charset=utf-8"], body: .init(byteBuffer: page))
}
let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)),
                      eventLoopGroupProvider: .shared(MultiThreadedEventLoopGroup(numberOfThreads: 1)))
try await app.runService()
