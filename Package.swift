// swift-tools-version:6.0
import PackageDescription

// The parsers of what a site reads at start (strings, templates, JSON, property lists) are optimized in debug builds
// too: unoptimized, they were most of a site's start (0.3 CPU-s), which the Swift suite pays hundreds of times.
let parsers: [SwiftSetting] = [.unsafeFlags(["-O"], .when(configuration: .debug))]

// The package graph is the architecture: pure modules at the bottom, the C shims beside them, the site's stores, the
// web on top of them, and the command line.
let package = Package(
    name: "Arcade",
    products: [
        .executable(name: "arcade", targets: ["arcade"])
    ],
    targets: [
        // C libraries, reached through pkg-config.
        .systemLibrary(
            name: "CSQLite", pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(
            name: "COpenSSL", pkgConfig: "openssl",
            providers: [.apt(["libssl-dev"])]),
        // libpq, loaded at run time only when a PostgreSQL URL is given: nothing to install for SQLite.
        .target(name: "CPostgres"),
        // What the Glibc overlay does not expose: epoll, eventfd, sendfile, …
        .target(name: "CSystem"),

        // HTTP/1.1 messages, the incremental parser and the router: no I/O.
        .target(name: "HTMLEscaping"),
        .target(name: "HTTP", dependencies: ["HTMLEscaping"]),
        // The program's one log: levels, fields, JSON or plain lines, repeated lines counted.
        .target(name: "Logger", dependencies: ["CSystem"]),
        // Threads, a condition variable and the event-loop marker, shared by the server and the database writer.
        .target(name: "Threads", dependencies: ["CSystem"]),
        // The epoll reactor that serves HTTP over sockets.
        .target(
            name: "HTTPServer", dependencies: ["HTTP", "CSystem", "COpenSSL", "Files", "Threads", "Metrics", "Logger"]),
        // Counters and histograms, rendered in Prometheus' text format (`/metrics`).
        .target(name: "Metrics"),

        // Mustache templates rendered straight into bytes.
        .target(name: "Templates", dependencies: ["HTMLEscaping"], swiftSettings: parsers),
        // .strings and .stringsdict files, formatting, plurals, locale negotiation.
        .target(name: "Localization", dependencies: ["PropertyList", "Files"], swiftSettings: parsers),
        // Typed site constants with overrides and hotfixes (the GTConstants model).
        .target(name: "Constants", dependencies: ["PropertyList", "Files"]),
        // Reading files and directories without Foundation.
        .target(name: "Files"),
        // XML property lists, as GTConstants and .stringsdict use them.
        .target(name: "PropertyList", swiftSettings: parsers),
        // JSON values, a strict parser and a writer.
        .target(name: "JSON", swiftSettings: parsers),
        // A blocking HTTP/1.1 client, https through OpenSSL; for off-loop work.
        .target(name: "HTTPClient", dependencies: ["HTTP", "COpenSSL", "CSystem"]),
        // HMAC, random bytes and password hashing from OpenSSL.
        .target(name: "Crypto", dependencies: ["COpenSSL"]),
        // SQLite or PostgreSQL behind one small typed wrapper.
        .target(name: "Storage", dependencies: ["CSQLite", "CPostgres", "Threads", "Metrics", "Logger"]),
        // Passkeys: CBOR, COSE keys and the server's checks of WebAuthn registrations and assertions.
        .target(name: "WebAuthn", dependencies: ["COpenSSL", "Crypto", "JSON"]),

        // Games: pure domain modules, no I/O.
        // Optimized in debug builds too: a finished board's analysis runs the solver once per row, which unoptimized
        // took seconds (16 s under load), so the tests' pages timed out on a busy machine; released, it takes ms.
        .target(name: "Mastermind", swiftSettings: [.unsafeFlags(["-O"], .when(configuration: .debug))]),
        .target(name: "NameGame", dependencies: ["JSON", "SpacedRepetition"]),
        .target(name: "Once"),
        .target(name: "Cheats"),
        .target(name: "Interceptions"),
        // Spaced repetition (FSRS-5): when to ask about each person again. Pure; the caller passes the time.
        .target(name: "SpacedRepetition"),

        // The site's records and stores: schema, queries, caches of what is stored, background jobs. No HTTP, no
        // templates: a store is tested without a socket.
        .target(
            name: "ArcadeStore",
            dependencies: [
                "Storage", "CSystem", "Localization", "JSON", "PropertyList", "Crypto", "Constants", "Files",
                "Mastermind", "HTTPClient", "NameGame", "Once", "Interceptions", "Cheats", "SpacedRepetition", "Logger",
                "Threads",
            ]),
        // The site on the web: controllers, middleware, pages, identity, and the composition root that builds every
        // component once (`Services`) and routes them (`Site`).
        .target(
            name: "ArcadeWeb",
            dependencies: [
                "ArcadeStore", "HTTP", "HTTPServer", "Storage", "Localization", "JSON", "Templates", "PropertyList",
                "Crypto", "Constants", "Files", "Mastermind", "NameGame", "Once", "Interceptions", "Cheats",
                "SpacedRepetition", "Metrics", "Logger", "WebAuthn", "HTMLEscaping", "Threads",
            ]),
        // The command line: `arcade` serves, or runs an admin, backup, copy or Mastermind command.
        .executableTarget(
            name: "arcade",
            dependencies: [
                "ArcadeWeb", "ArcadeStore", "CSystem", "Files", "HTTPServer", "JSON", "Localization", "Logger",
                "Mastermind", "PropertyList", "Storage",
            ]),

        // Helpers shared by the test targets: a raw loopback client, child processes, scratch folders.
        .target(name: "TestSupport", dependencies: ["CSystem", "Storage"], path: "Tests/Support"),
        .testTarget(name: "HTTPTests", dependencies: ["HTTP"]),
        .testTarget(name: "FilesTests", dependencies: ["Files"]),
        .testTarget(name: "JSONTests", dependencies: ["JSON"]),
        .testTarget(name: "LoggerTests", dependencies: ["Logger"]),
        .testTarget(name: "MastermindTests", dependencies: ["Mastermind"]),
        .testTarget(name: "OnceTests", dependencies: ["Once"]),
        .testTarget(name: "CheatsTests", dependencies: ["Cheats"]),
        .testTarget(name: "InterceptionsTests", dependencies: ["Interceptions"]),
        .testTarget(name: "NameGameTests", dependencies: ["NameGame", "JSON", "Files", "SpacedRepetition"]),
        .testTarget(name: "SpacedRepetitionTests", dependencies: ["SpacedRepetition"]),
        .testTarget(name: "CryptoTests", dependencies: ["Crypto"]),
        .testTarget(name: "WebAuthnTests", dependencies: ["WebAuthn", "COpenSSL", "Crypto"]),
        .testTarget(name: "StorageTests", dependencies: ["Storage", "TestSupport", "Threads"]),
        // Unit suites of the site's pure parts (files, tables, times, limits): no server, no database.
        .testTarget(
            name: "ArcadeUnitTests",
            dependencies: [
                "ArcadeWeb", "ArcadeStore", "HTTP", "Cheats", "JSON", "Localization", "TestSupport", "Threads",
            ]),
        // The site end to end, one folder per feature: a real server on loopback, real databases.
        .testTarget(
            name: "SiteTests",
            dependencies: [
                "ArcadeWeb", "ArcadeStore", "HTTP", "HTTPServer", "CSystem", "Storage", "Crypto", "TestSupport",
                "HTTPClient",
                "Mastermind", "NameGame", "PropertyList", "Files", "JSON", "Interceptions", "Localization",
            ]),
        .testTarget(name: "ConstantsTests", dependencies: ["Constants", "PropertyList"]),
        // The official Mustache spec (MIT), vendored as test data so any clone runs it.
        .testTarget(name: "TemplatesTests", dependencies: ["Templates", "JSON"], exclude: ["MustacheSpec"]),
        .testTarget(name: "LocalizationTests", dependencies: ["Localization", "PropertyList", "Files"]),
        .testTarget(
            name: "HTTPServerTests",
            dependencies: ["HTTPServer", "HTTP", "CSystem", "TestSupport", "Threads"]),
        // The real `arcade` executable as a child process: flags, environment, signals.
        .testTarget(name: "CommandLineTests", dependencies: ["CSystem", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
