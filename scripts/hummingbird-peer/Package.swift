// swift-tools-version:6.2
// The bench's Hummingbird 2 peer: returns one file's bytes from memory. Built by scripts/bench only, never in CI.
import PackageDescription

let package = Package(
    name: "hummingbird-peer",
    platforms: [.macOS(.v14)],
    dependencies: [.package(url: "https://github.com/hummingbird-project/hummingbird.git", exact: "2.28.1")],
    targets: [
        .executableTarget(name: "HummingbirdPeer", dependencies: [.product(name: "Hummingbird", package: "hummingbird")]),
    ]
)
