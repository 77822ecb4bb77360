import Crypto
import Files
import Storage

/// Uploaded photos: kept in a folder beside the database under opaque names (random, with the extension of the
/// type their bytes show), served at `/photos/NAME` by `PeopleRoutes`. A name never changes content, so browsers may
/// keep a photo for good. With a database several instances share (`shared`), each photo is kept in it too
/// (`photos`), and an instance that lacks the file fetches it from there once.
package struct PhotoLibrary: Sendable {
    package static let maxBytes = 2 << 20
    package let folder: String
    package var shared: DatabasePool? = nil

    package enum Refusal: Error, Equatable {
        case empty, tooLarge, notAnImage, unsaved
    }

    /// `photos`: each photo's bytes, in a database several instances share.
    package enum Photos: TableRecord {
        package static let table = "photos"
        package enum Columns: String, ColumnName { case name, bytes }

        /// A photo's row, with `tail` (`ON CONFLICT DO NOTHING` where it may be there already).
        static func insert(name: String, bytes: [UInt8], _ tail: String = "") -> SQLStatement {
            insert(tail) { row in
                row[.name] = name
                row[.bytes] = bytes
            }
        }
    }

    /// Checks and stores a photo, flushed to disk; its path for the site.
    package func save(_ bytes: [UInt8]) -> Result<String, Refusal> {
        guard !bytes.isEmpty else { return .failure(.empty) }
        guard bytes.count <= Self.maxBytes else { return .failure(.tooLarge) }
        guard let type = ImageType.sniff(bytes) else { return .failure(.notAnImage) }
        let name = Self.hex(Crypto.randomBytes(16)) + "." + type.fileExtension
        guard Files.writeDurably(bytes, to: folder + "/" + name) else { return .failure(.unsaved) }
        if let shared {
            do {
                _ = try shared.write { db in
                    try db.execute(Photos.insert(name: name, bytes: bytes))
                }
            } catch {
                Files.remove(folder + "/" + name)
                return .failure(.unsaved)
            }
        }
        return .success("/photos/" + name)
    }

    /// Deletes an uploaded photo no one uses any more (bundled headshots are left alone).
    package func discard(_ path: String) {
        guard let name = Self.name(path) else { return }
        Files.remove(folder + "/" + name)
        _ = try? shared?.write { db in try db.execute("DELETE FROM photos WHERE name = ?", [.text(name)]) }
    }

    /// The stored photo `name` and what its bytes are, or nil if the name is not one we make or the photo is gone.
    package func photo(_ name: String) -> (bytes: [UInt8], type: ImageType)? {
        guard Self.validName(name), let bytes = Files.read(folder + "/" + name) ?? fetch(name),
            let type = ImageType.sniff(bytes)
        else { return nil }
        return (bytes, type)
    }

    /// A photo another instance took, from the shared database, kept as a file for the next time.
    private func fetch(_ name: String) -> [UInt8]? {
        guard let shared,
            let bytes = try? shared.connection().value(
                [UInt8].self, "SELECT bytes FROM photos WHERE name = ?",
                [.text(name)])
        else { return nil }
        _ = Files.writeDurably(bytes, to: folder + "/" + name)
        return bytes
    }

    /// The file name of an uploaded photo's path.
    package static func name(_ path: String) -> String? {
        guard path.hasPrefix("/photos/") else { return nil }
        let name = String(path.dropFirst("/photos/".count))
        return validName(name) ? name : nil
    }

    /// 32 lowercase hex digits and one of our extensions: nothing else reaches the file system.
    package static func validName(_ name: String) -> Bool {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].utf8.count == 32,
            parts[0].utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
        else { return false }
        return ImageType.allCases.contains { $0.fileExtension == parts[1] }
    }

    /// Where uploaded photos live when no folder is given: beside an SQLite file, else `photos`.
    package static func folder(beside database: DatabaseLocation) -> String {
        guard case .sqlite(let path) = database, let slash = path.lastIndex(of: "/") else { return "photos" }
        return String(path[..<slash]) + "/photos"
    }

    package static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 15)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    package init(folder: String, shared: DatabasePool? = nil) {
        self.folder = folder
        self.shared = shared
    }
}
