/// An ordered list of header fields kept as bytes, so that a parsed request
/// costs two allocations however many fields it has. Names compare
/// case-insensitively (ASCII), values are kept as sent.
public struct HTTPHeaders: Sendable, Sequence {
    @usableFromInline struct Field: Sendable {
        var nameStart: Int32, nameEnd: Int32, valueStart: Int32, valueEnd: Int32
    }

    @usableFromInline var bytes: [UInt8] = []
    @usableFromInline var fields: [Field] = []

    public init() {}

    public init(_ pairs: [(String, String)]) {
        for (name, value) in pairs { append(name, value) }
    }

    public var count: Int { fields.count }
    public var isEmpty: Bool { fields.isEmpty }

    public mutating func append(_ name: String, _ value: String) {
        let nameStart = Int32(bytes.count)
        append(name)
        let nameEnd = Int32(bytes.count)
        append(value)
        fields.append(Field(nameStart: nameStart, nameEnd: nameEnd, valueStart: nameEnd, valueEnd: Int32(bytes.count)))
    }

    /// A string's bytes copied from where they lie: appending its UTF-8 view took a sixth more instructions.
    private mutating func append(_ text: String) {
        if text.utf8.withContiguousStorageIfAvailable({ bytes.append(contentsOf: $0) }) == nil {
            bytes.append(contentsOf: text.utf8)
        }
    }

    /// Appends every field of `other` (a block of fields built once) with one copy of its bytes.
    public mutating func append(contentsOf other: HTTPHeaders) {
        let shift = Int32(bytes.count)
        bytes.append(contentsOf: other.bytes)
        fields.reserveCapacity(fields.count + other.fields.count)
        for field in other.fields {
            fields.append(
                Field(
                    nameStart: field.nameStart + shift, nameEnd: field.nameEnd + shift,
                    valueStart: field.valueStart + shift, valueEnd: field.valueEnd + shift))
        }
    }

    /// Replaces every field of that name with one field.
    public mutating func set(_ name: String, _ value: String) {
        remove(name)
        append(name, value)
    }

    public mutating func remove(_ name: String) {
        // `set` calls this on every response, mostly for a name it does not hold: nothing to copy then.
        guard contains(name) else { return }
        let kept = fields.filter { !matches($0, name) }
        fields = kept
    }

    /// Room for `bytes` of names and values in `fields` fields, so a response's head is built without growing.
    public mutating func reserveCapacity(bytes count: Int, fields fieldCount: Int) {
        bytes.reserveCapacity(count)
        fields.reserveCapacity(fieldCount)
    }

    public func contains(_ name: String) -> Bool { fields.contains { matches($0, name) } }

    /// Whether a field here has the name of one of `other`'s (ignoring ASCII case): one pass over both, lengths
    /// compared first (every page checks the security block this way).
    public func sharesName(with other: HTTPHeaders) -> Bool {
        bytes.withUnsafeBufferPointer { mine in
            other.bytes.withUnsafeBufferPointer { theirs in
                for field in fields {
                    let length = Int(field.nameEnd - field.nameStart)
                    for candidate in other.fields where Int(candidate.nameEnd - candidate.nameStart) == length {
                        let a = Int(field.nameStart)
                        let b = Int(candidate.nameStart)
                        if (0..<length).allSatisfy({ lowerASCII(mine[a + $0]) == lowerASCII(theirs[b + $0]) }) {
                            return true
                        }
                    }
                }
                return false
            }
        }
    }

    /// The first value of a field, or nil.
    public subscript(_ name: String) -> String? {
        for field in fields where matches(field, name) { return value(field) }
        return nil
    }

    public func values(_ name: String) -> [String] {
        fields.filter { matches($0, name) }.map(value)
    }

    /// Calls `body` with the bytes of each value of that name, in order, without copying them.
    func forEachValue(of name: String, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        bytes.withUnsafeBufferPointer { buffer in
            for field in fields where matches(field, name) {
                body(UnsafeBufferPointer(rebasing: buffer[Int(field.valueStart)..<Int(field.valueEnd)]))
            }
        }
    }

    /// How many fields have that name.
    public func count(of name: String) -> Int { fields.reduce(0) { $0 + (matches($1, name) ? 1 : 0) } }

    /// Whether any comma-separated element of the named fields equals the
    /// token, ignoring case (for `Connection: keep-alive, Upgrade`).
    public func hasToken(_ token: String, in name: String) -> Bool {
        for field in fields where matches(field, name) {
            for element in value(field).split(separator: ",") {
                if asciiEqualIgnoringCase(trimOWS(element).utf8, token.utf8) { return true }
            }
        }
        return false
    }

    public func makeIterator() -> AnyIterator<(name: String, value: String)> {
        var index = 0
        return AnyIterator {
            guard index < fields.count else { return nil }
            defer { index += 1 }
            let field = fields[index]
            return (name(field), value(field))
        }
    }

    /// Appends `Name: value\r\n` for each field.
    public func write(into out: inout [UInt8]) {
        let start = out.count
        let count = serializedCount
        out.append(contentsOf: repeatElement(0, count: count))
        out.withUnsafeMutableBufferPointer { _ = serialize(to: $0.baseAddress! + start) }
    }

    /// How many bytes `serialize(to:)` writes.
    public var serializedCount: Int {
        var total = 4 * fields.count
        for field in fields { total += Int(field.nameEnd - field.nameStart) + Int(field.valueEnd - field.valueStart) }
        return total
    }

    /// Writes `Name: value\r\n` for each field at `out`, which has room for `serializedCount` bytes; returns
    /// that count. (The server writes a whole response head this way, with one copy per piece.)
    public func serialize(to out: UnsafeMutablePointer<UInt8>) -> Int {
        bytes.withUnsafeBufferPointer { raw in
            guard let base = raw.baseAddress else { return 0 }
            var p = out
            for field in fields {
                let nameLength = Int(field.nameEnd - field.nameStart)
                let valueLength = Int(field.valueEnd - field.valueStart)
                p.update(from: base + Int(field.nameStart), count: nameLength)
                p[nameLength] = 0x3A
                p[nameLength + 1] = 0x20
                p += nameLength + 2
                p.update(from: base + Int(field.valueStart), count: valueLength)
                p[valueLength] = 0x0D
                p[valueLength + 1] = 0x0A
                p += valueLength + 2
            }
            return p - out
        }
    }

    /// Whether the first value of the field equals `bytes` exactly.
    public func firstValue(_ name: String, equals other: [UInt8]) -> Bool? {
        for field in fields where matches(field, name) {
            let length = Int(field.valueEnd - field.valueStart)
            guard length == other.count else { return false }
            return bytes.withUnsafeBufferPointer { buffer in
                other.withUnsafeBufferPointer { o in
                    for i in 0..<length where buffer[Int(field.valueStart) + i] != o[i] { return false }
                    return true
                }
            }
        }
        return nil
    }

    // MARK: parser support: fields are written straight into storage.

    mutating func beginField() -> Int32 { Int32(bytes.count) }
    mutating func appendRaw(_ source: UnsafeRawBufferPointer) { bytes.append(contentsOf: source) }
    mutating func appendRaw(_ byte: UInt8) { bytes.append(byte) }
    var rawCount: Int { bytes.count }
    mutating func truncateRaw(to count: Int) { bytes.removeSubrange(count...) }
    mutating func addField(nameStart: Int32, nameEnd: Int32, valueStart: Int32, valueEnd: Int32) {
        fields.append(Field(nameStart: nameStart, nameEnd: nameEnd, valueStart: valueStart, valueEnd: valueEnd))
    }

    /// Whether the first field of that name has, before any `;` parameters and around optional whitespace, the
    /// value `wanted` (ASCII case ignored): a media type check without building strings.
    public func firstValue(_ name: String, hasMainValue wanted: StaticString) -> Bool {
        guard let field = fields.first(where: { matches($0, name) }) else { return false }
        return bytes.withUnsafeBufferPointer { buffer in
            var start = Int(field.valueStart)
            var end = start
            while end < Int(field.valueEnd) && buffer[end] != UInt8(ascii: ";") { end += 1 }
            while start < end && (buffer[start] == 0x20 || buffer[start] == 0x09) { start += 1 }
            while end > start && (buffer[end - 1] == 0x20 || buffer[end - 1] == 0x09) { end -= 1 }
            guard end - start == wanted.utf8CodeUnitCount else { return false }
            let w = wanted.utf8Start
            for i in 0..<(end - start) where lowerASCII(buffer[start + i]) != lowerASCII(w[i]) { return false }
            return true
        }
    }

    /// Appends the fields of `other` whose names this block lacks, and each of its fields named `always` (cookies
    /// set by middleware and by the handler are all kept), comparing names as bytes.
    public mutating func appendMissing(from other: HTTPHeaders, always: String) {
        let known = fields.count
        other.bytes.withUnsafeBufferPointer { theirs in
            for field in other.fields {
                let name = UnsafeBufferPointer(rebasing: theirs[Int(field.nameStart)..<Int(field.nameEnd)])
                let present = (0..<known).contains { index in nameEquals(fields[index], name) }
                if present && !other.matches(field, always) { continue }
                let nameStart = Int32(bytes.count)
                bytes.append(contentsOf: name)
                let nameEnd = Int32(bytes.count)
                bytes.append(
                    contentsOf: UnsafeBufferPointer(rebasing: theirs[Int(field.valueStart)..<Int(field.valueEnd)]))
                fields.append(
                    Field(nameStart: nameStart, nameEnd: nameEnd, valueStart: nameEnd, valueEnd: Int32(bytes.count)))
            }
        }
    }

    // MARK: private

    private func nameEquals(_ field: Field, _ name: UnsafeBufferPointer<UInt8>) -> Bool {
        let length = Int(field.nameEnd - field.nameStart)
        guard length == name.count else { return false }
        return bytes.withUnsafeBufferPointer { buffer in
            let start = Int(field.nameStart)
            for i in 0..<length where lowerASCII(buffer[start + i]) != lowerASCII(name[i]) { return false }
            return true
        }
    }

    @inline(__always)
    private func matches(_ field: Field, _ name: String) -> Bool {
        let length = Int(field.nameEnd - field.nameStart)
        guard length == name.utf8.count else { return false }
        var name = name
        return name.withUTF8 { wanted in
            bytes.withUnsafeBufferPointer { buffer in
                let start = Int(field.nameStart)
                for i in 0..<length where lowerASCII(buffer[start + i]) != lowerASCII(wanted[i]) { return false }
                return true
            }
        }
    }

    private func name(_ field: Field) -> String {
        String(decoding: bytes[Int(field.nameStart)..<Int(field.nameEnd)], as: UTF8.self)
    }

    private func value(_ field: Field) -> String {
        String(decoding: bytes[Int(field.valueStart)..<Int(field.valueEnd)], as: UTF8.self)
    }
}

@inline(__always)
func lowerASCII(_ byte: UInt8) -> UInt8 { byte &- 0x41 < 26 ? byte | 0x20 : byte }

func asciiEqualIgnoringCase<A: Sequence<UInt8>, B: Sequence<UInt8>>(_ a: A, _ b: B) -> Bool {
    var ia = a.makeIterator()
    var ib = b.makeIterator()
    while true {
        switch (ia.next(), ib.next()) {
        case (nil, nil): return true
        case let (x?, y?) where lowerASCII(x) == lowerASCII(y): continue
        default: return false
        }
    }
}

func trimOWS(_ s: Substring) -> Substring { s.trimmingOWS }

extension Substring {
    /// Without leading and trailing spaces and tabs (optional whitespace, RFC 9110 §5.6.3).
    public var trimmingOWS: Substring {
        var s = self
        while let c = s.first, c == " " || c == "\t" { s.removeFirst() }
        while let c = s.last, c == " " || c == "\t" { s.removeLast() }
        return s
    }
}
