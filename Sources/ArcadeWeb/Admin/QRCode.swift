/// A QR code (ISO/IEC 18004) in byte mode at error-correction level M, versions 1 to 10: enough for an
/// `otpauth://` address (up to 213 bytes), drawn as an SVG path so the page needs no image, script or style.
struct QRCode: Equatable {
    /// Modules per side.
    let size: Int
    /// Row-major, true for dark.
    let modules: [Bool]
    let version: Int
    let mask: Int

    subscript(x: Int, y: Int) -> Bool { modules[y * size + x] }

    /// Level M's blocks per version (1...10): error-correction codewords per block, then (blocks, data codewords)
    /// for each of the two groups.
    private static let blocks: [(ec: Int, groups: [(count: Int, data: Int)])] = [
        (10, [(1, 16)]), (16, [(1, 28)]), (26, [(1, 44)]), (18, [(2, 32)]), (24, [(2, 43)]),
        (16, [(4, 27)]), (18, [(4, 31)]), (22, [(2, 38), (2, 39)]), (22, [(3, 36), (2, 37)]),
        (26, [(4, 43), (1, 44)]),
    ]
    /// Alignment pattern centres per version (1 has none).
    private static let alignment: [[Int]] = [
        [], [6, 18], [6, 22], [6, 26], [6, 30], [6, 34], [6, 22, 38], [6, 24, 42], [6, 26, 46], [6, 28, 50],
    ]

    /// The smallest version that holds `bytes`, with the mask of lowest penalty; nil past version 10.
    /// `mask` forces one (for tests against reference encoders).
    init?(_ bytes: [UInt8], mask forcedMask: Int? = nil) {
        guard
            let version = (1...10).first(where: { v in
                let capacity = Self.blocks[v - 1].groups.reduce(0) { $0 + $1.count * $1.data }
                return 4 + (v < 10 ? 8 : 16) + bytes.count * 8 <= capacity * 8
            })
        else { return nil }
        var grid = Grid(version: version)
        grid.drawFunctionPatterns(alignment: Self.alignment[version - 1])
        grid.drawCodewords(Self.codewords(bytes, version: version))
        let chosen =
            forcedMask
            ?? (0..<8).min { a, b in grid.masked(a).penalty() < grid.masked(b).penalty() }!
        let final = grid.masked(chosen)
        self.size = final.size
        self.modules = final.dark
        self.version = version
        self.mask = chosen
    }

    /// The data bits, padded, split into blocks, each followed by its Reed–Solomon codewords, interleaved.
    static func codewords(_ bytes: [UInt8], version: Int) -> [UInt8] {
        let layout = blocks[version - 1]
        let capacity = layout.groups.reduce(0) { $0 + $1.count * $1.data }
        var bits: [Bool] = []
        func append(_ value: Int, _ count: Int) { for i in (0..<count).reversed() { bits.append(value >> i & 1 == 1) } }
        append(0b0100, 4)
        append(bytes.count, version < 10 ? 8 : 16)
        for byte in bytes { append(Int(byte), 8) }
        append(0, min(4, capacity * 8 - bits.count))
        append(0, (8 - bits.count % 8) % 8)
        var data = stride(from: 0, to: bits.count, by: 8).map { start in
            bits[start..<start + 8].reduce(UInt8(0)) { $0 << 1 | ($1 ? 1 : 0) }
        }
        for pad in 0..<(capacity - data.count) { data.append(pad % 2 == 0 ? 0xEC : 0x11) }
        var dataBlocks: [[UInt8]] = []
        var offset = 0
        for group in layout.groups {
            for _ in 0..<group.count {
                dataBlocks.append(Array(data[offset..<offset + group.data]))
                offset += group.data
            }
        }
        let divisor = ReedSolomon.divisor(degree: layout.ec)
        let ecBlocks = dataBlocks.map { ReedSolomon.remainder($0, divisor) }
        var out: [UInt8] = []
        for i in 0..<dataBlocks.map(\.count).max()! {
            for block in dataBlocks where i < block.count { out.append(block[i]) }
        }
        for i in 0..<layout.ec {
            for block in ecBlocks { out.append(block[i]) }
        }
        return out
    }

    /// The dark modules as one SVG path (a run of dark modules in a row is one rectangle), offset by a quiet zone.
    func svgPath(quietZone: Int = 4) -> String {
        var path = ""
        for y in 0..<size {
            var x = 0
            while x < size {
                guard self[x, y] else {
                    x += 1
                    continue
                }
                let start = x
                while x < size && self[x, y] { x += 1 }
                path += "M\(start + quietZone) \(y + quietZone)h\(x - start)v1h-\(x - start)z"
            }
        }
        return path
    }
}

/// The module grid while a code is drawn: which modules are fixed patterns, which data.
private struct Grid {
    let version: Int
    let size: Int
    var dark: [Bool]
    var function: [Bool]

    init(version: Int) {
        self.version = version
        size = version * 4 + 17
        dark = Array(repeating: false, count: size * size)
        function = dark
    }

    mutating func set(_ x: Int, _ y: Int, _ value: Bool) {
        dark[y * size + x] = value
        function[y * size + x] = true
    }

    mutating func drawFunctionPatterns(alignment: [Int]) {
        for i in 0..<size {
            set(6, i, i % 2 == 0)
            set(i, 6, i % 2 == 0)
        }
        for (cx, cy) in [(3, 3), (size - 4, 3), (3, size - 4)] {
            for dy in -4...4 {
                for dx in -4...4 where (0..<size).contains(cx + dx) && (0..<size).contains(cy + dy) {
                    let distance = max(abs(dx), abs(dy))
                    set(cx + dx, cy + dy, distance != 2 && distance != 4)
                }
            }
        }
        let last = alignment.count - 1
        for (i, cx) in alignment.enumerated() {
            for (j, cy) in alignment.enumerated()
            where !(i == 0 && j == 0 || i == 0 && j == last || i == last && j == 0) {
                for dy in -2...2 {
                    for dx in -2...2 { set(cx + dx, cy + dy, max(abs(dx), abs(dy)) != 1) }
                }
            }
        }
        drawFormat(mask: 0)
        if version >= 7 { drawVersion() }
    }

    /// Level M (bits 00) and the mask, BCH-protected, in both copies; and the dark module beside them.
    mutating func drawFormat(mask: Int) {
        let data = mask
        var remainder = data
        for _ in 0..<10 { remainder = (remainder << 1) ^ ((remainder >> 9) * 0x537) }
        let bits = (data << 10 | remainder) ^ 0x5412
        func bit(_ i: Int) -> Bool { bits >> i & 1 == 1 }
        for i in 0...5 { set(8, i, bit(i)) }
        set(8, 7, bit(6))
        set(8, 8, bit(7))
        set(7, 8, bit(8))
        for i in 9..<15 { set(14 - i, 8, bit(i)) }
        for i in 0..<8 { set(size - 1 - i, 8, bit(i)) }
        for i in 8..<15 { set(8, size - 15 + i, bit(i)) }
        set(8, size - 8, true)
    }

    mutating func drawVersion() {
        var remainder = version
        for _ in 0..<12 { remainder = (remainder << 1) ^ ((remainder >> 11) * 0x1F25) }
        let bits = version << 12 | remainder
        for i in 0..<18 {
            let bit = bits >> i & 1 == 1
            let a = size - 11 + i % 3
            let b = i / 3
            set(a, b, bit)
            set(b, a, bit)
        }
    }

    /// The codewords' bits in the standard zigzag, two columns at a time from the right, skipping the timing column.
    mutating func drawCodewords(_ codewords: [UInt8]) {
        var i = 0
        var right = size - 1
        while right >= 1 {
            if right == 6 { right = 5 }
            for vertical in 0..<size {
                for j in 0..<2 {
                    let x = right - j
                    let upward = (right + 1) & 2 == 0
                    let y = upward ? size - 1 - vertical : vertical
                    if !function[y * size + x] && i < codewords.count * 8 {
                        dark[y * size + x] = codewords[i >> 3] >> (7 - i & 7) & 1 == 1
                        i += 1
                    }
                }
            }
            right -= 2
        }
    }

    /// A copy with `mask` applied to the data modules and named in the format bits.
    func masked(_ mask: Int) -> Grid {
        var copy = self
        for y in 0..<size {
            for x in 0..<size where !function[y * size + x] {
                let flip: Bool
                switch mask {
                case 0: flip = (x + y) % 2 == 0
                case 1: flip = y % 2 == 0
                case 2: flip = x % 3 == 0
                case 3: flip = (x + y) % 3 == 0
                case 4: flip = (x / 3 + y / 2) % 2 == 0
                case 5: flip = x * y % 2 + x * y % 3 == 0
                case 6: flip = (x * y % 2 + x * y % 3) % 2 == 0
                default: flip = ((x + y) % 2 + x * y % 3) % 2 == 0
                }
                if flip { copy.dark[y * size + x].toggle() }
            }
        }
        copy.drawFormat(mask: mask)
        return copy
    }

    /// The standard's four penalty rules: runs, 2×2 blocks, finder-like patterns, and the balance of dark.
    func penalty() -> Int {
        var score = 0
        func module(_ a: Int, _ b: Int, _ rows: Bool) -> Bool { rows ? dark[a * size + b] : dark[b * size + a] }
        let finderLike: [Bool] = [true, false, true, true, true, false, true]
        for rows in [true, false] {
            for a in 0..<size {
                var run = 1
                for b in 1..<size {
                    if module(a, b, rows) == module(a, b - 1, rows) {
                        run += 1
                        if run == 5 { score += 3 } else if run > 5 { score += 1 }
                    } else {
                        run = 1
                    }
                }
                for b in 0...(size - 7) where (0..<7).allSatisfy({ module(a, b + $0, rows) == finderLike[$0] }) {
                    let lightBefore = (1...4).allSatisfy { b - $0 < 0 || !module(a, b - $0, rows) }
                    let lightAfter = (7...10).allSatisfy { b + $0 >= size || !module(a, b + $0, rows) }
                    if lightBefore || lightAfter { score += 40 }
                }
            }
        }
        for y in 0..<(size - 1) {
            for x in 0..<(size - 1) {
                let c = dark[y * size + x]
                if c == dark[y * size + x + 1] && c == dark[(y + 1) * size + x] && c == dark[(y + 1) * size + x + 1] {
                    score += 3
                }
            }
        }
        let darkCount = dark.reduce(0) { $0 + ($1 ? 1 : 0) }
        score += abs(darkCount * 20 - dark.count * 10) / dark.count * 10
        return score
    }
}

/// Reed–Solomon over GF(256) with QR's polynomial x⁸ + x⁴ + x³ + x² + 1.
enum ReedSolomon {
    static func multiply(_ x: UInt8, _ y: UInt8) -> UInt8 {
        var z = 0
        for i in (0..<8).reversed() {
            z = (z << 1) ^ ((z >> 7) * 0x11D)
            z ^= (Int(y) >> i & 1) * Int(x)
        }
        return UInt8(z)
    }

    /// The generator polynomial's coefficients (highest first, the leading 1 left out).
    static func divisor(degree: Int) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: degree)
        result[degree - 1] = 1
        var root: UInt8 = 1
        for _ in 0..<degree {
            for j in 0..<degree {
                result[j] = multiply(result[j], root)
                if j + 1 < degree { result[j] ^= result[j + 1] }
            }
            root = multiply(root, 0x02)
        }
        return result
    }

    static func remainder(_ data: [UInt8], _ divisor: [UInt8]) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: divisor.count)
        for byte in data {
            let factor = byte ^ result.removeFirst()
            result.append(0)
            for i in 0..<result.count { result[i] ^= multiply(divisor[i], factor) }
        }
        return result
    }
}
