/// Byte classes from RFC 9110 §5.6, as a lookup table.
enum CharacterClass {
    static let token: UInt8 = 1  // tchar
    static let fieldValue: UInt8 = 2  // VCHAR, obs-text, SP, HTAB
    static let target: UInt8 = 4  // what a request-target may hold
    static let hex: UInt8 = 8

    static let table: [UInt8] = {
        var t = [UInt8](repeating: 0, count: 256)
        for b in 0..<256 {
            var flags: UInt8 = 0
            let c = UInt8(b)
            switch c {
            case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: flags |= token
            default: if Array("!#$%&'*+-.^_`|~".utf8).contains(c) { flags |= token }
            }
            if c == 0x09 || c == 0x20 || (0x21...0x7E).contains(c) || c >= 0x80 { flags |= fieldValue }
            // Visible ASCII except '#' (a fragment never reaches a server), and
            // raw UTF-8, which some clients send unencoded.
            if ((0x21...0x7E).contains(c) && c != 0x23) || c >= 0x80 { flags |= target }
            if URI.hexValue(c) != nil { flags |= hex }
            t[b] = flags
        }
        return t
    }()

    /// The table at a fixed address, for the parser's loop: reading it through `withUnsafeBufferPointer` made every
    /// parse go through generic code (its result copied by value witnesses).
    nonisolated(unsafe) static let classes: UnsafePointer<UInt8> = {
        let pointer = UnsafeMutablePointer<UInt8>.allocate(capacity: 256)
        pointer.initialize(from: table, count: 256)
        return UnsafePointer(pointer)  // written once, then only read; lives as long as the process
    }()

    @inline(__always) static func isTokenByte(_ b: UInt8) -> Bool { table[Int(b)] & token != 0 }
}
