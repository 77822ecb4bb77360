import Files
import Testing

@Suite("Image sniffing")
struct ImageTypeTests {
    @Test func imagesAreKnownByTheirBytes() {
        #expect(ImageType.sniff([0xFF, 0xD8, 0xFF, 0xE0, 0, 0x10]) == .jpeg)
        #expect(ImageType.sniff([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D]) == .png)
        #expect(ImageType.sniff(Array("RIFF".utf8) + [0x24, 0, 0, 0] + Array("WEBPVP8 ".utf8)) == .webp)
        #expect(ImageType.png.mediaType == "image/png" && ImageType.jpeg.fileExtension == "jpg")
    }

    @Test func everythingElseIsRefused() {
        #expect(
            ImageType.sniff(Array("<svg xmlns=\"http://www.w3.org/2000/svg\"><script>alert(1)</script></svg>".utf8))
                == nil)
        #expect(ImageType.sniff(Array("GIF89a".utf8) + [1, 0, 1, 0]) == nil)
        #expect(ImageType.sniff(Array("just text renamed to photo.png".utf8)) == nil)
        #expect(ImageType.sniff(Array("RIFF\u{0}\u{0}\u{0}\u{0}WAVE".utf8)) == nil, "a RIFF that is not WebP")
        #expect(ImageType.sniff([0x89, 0x50, 0x4E, 0x47]) == nil, "a truncated PNG signature")
        #expect(ImageType.sniff([UInt8]()) == nil)
    }
}
