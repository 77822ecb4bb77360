/// The photo formats the site accepts, recognised by their first bytes (never by a file's name or declared type).
/// SVG is not among them: it is a document that can carry script.
public enum ImageType: String, Sendable, CaseIterable {
    case jpeg, png, webp

    /// What the bytes are, or nil for anything else (including a truncated header).
    public static func sniff(_ bytes: some Collection<UInt8>) -> ImageType? {
        let head = Array(bytes.prefix(12))
        if head.count >= 3 && head[0] == 0xFF && head[1] == 0xD8 && head[2] == 0xFF { return .jpeg }
        if head.count >= 8 && head[..<8].elementsEqual([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) {
            return .png
        }
        if head.count >= 12 && head[..<4].elementsEqual("RIFF".utf8) && head[8..<12].elementsEqual("WEBP".utf8) {
            return .webp
        }
        return nil
    }

    public var mediaType: String { "image/\(rawValue)" }
    public var fileExtension: String { self == .jpeg ? "jpg" : rawValue }
}
