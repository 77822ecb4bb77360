/// The explicit bounds the parser enforces, with nginx's defaults.
public struct ParserLimits: Sendable {
    /// Longest request line; longer is 414.
    public var maxRequestLine = 8 * 1024
    /// Longest single header line; longer is 431.
    public var maxHeaderLine = 8 * 1024
    /// All header lines together; more is 431.
    public var maxHeaderBytes = 32 * 1024
    /// Most header fields; more is 431.
    public var maxHeaderCount = 100
    /// Largest body, declared or chunked; larger is 413.
    public var maxBody = 1024 * 1024
    /// Largest body of a POST to one of `uploadPaths` (photo uploads, imports); larger is 413.
    public var maxUploadBody = 32 * 1024 * 1024
    /// Target prefixes whose POSTs may carry up to `maxUploadBody`.
    public var uploadPaths: [String] = []
    /// Asked when the head of a POST to one of `uploadPaths` arrives: false refuses it (401) before any of its
    /// body is read, so nobody unauthenticated makes the server wait for or buffer a large upload.
    public var uploadGate: UploadGate?
    /// Longest chunk-size line with its extensions; longer is 400.
    public var maxChunkLine = 4 * 1024

    public init() {}
}
