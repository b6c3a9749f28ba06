/// A zlib (RFC 1950) / DEFLATE (RFC 1951) decompressor: stored, fixed-Huffman and
/// dynamic-Huffman blocks, with the Adler-32 check.
enum Inflate {
    /// Decompresses a zlib stream.
    ///
    /// - Parameters:
    ///   - data: The zlib stream (2-byte header, DEFLATE blocks, Adler-32).
    ///   - expectedSize: A capacity hint for the output.
    /// - Throws: ``ImageError/corruptData(_:)`` for a malformed stream.
    static func zlib(_ data: [UInt8], expectedSize: Int = 0) throws -> [UInt8] {
        guard data.count >= 6 else { throw ImageError.corruptData("zlib stream too short") }
        let cmf = Int(data[0]), flg = Int(data[1])
        guard cmf & 0x0F == 8, cmf >> 4 <= 7 else { throw ImageError.corruptData("not a deflate zlib stream") }
        guard (cmf * 256 + flg) % 31 == 0 else { throw ImageError.corruptData("bad zlib header check") }
        guard flg & 0x20 == 0 else { throw ImageError.corruptData("preset dictionary not supported") }
        var reader = BitReader(bytes: data, position: 2)
        var output: [UInt8] = []
        output.reserveCapacity(expectedSize)
        try inflate(&reader, into: &output)
        reader.alignToByte()
        let end = reader.position
        guard end + 4 <= data.count else { throw ImageError.corruptData("missing Adler-32") }
        let stored = UInt32(data[end]) << 24 | UInt32(data[end + 1]) << 16 | UInt32(data[end + 2]) << 8 | UInt32(data[end + 3])
        guard adler32(output) == stored else { throw ImageError.corruptData("Adler-32 mismatch") }
        return output
    }

    /// Decompresses raw DEFLATE blocks from `reader` into `output`.
    static func inflate(_ reader: inout BitReader, into output: inout [UInt8]) throws {
        var isFinal = false
        while !isFinal {
            isFinal = try reader.bits(1) == 1
            switch try reader.bits(2) {
            case 0:
                reader.alignToByte()
                let lengthLow = try reader.byteValue(), lengthHigh = try reader.byteValue()
                let complementLow = try reader.byteValue(), complementHigh = try reader.byteValue()
                let length = lengthLow | lengthHigh << 8
                let complement = complementLow | complementHigh << 8
                guard length == ~complement & 0xFFFF else { throw ImageError.corruptData("stored block length mismatch") }
                guard reader.position + length <= reader.bytes.count else { throw ImageError.corruptData("stored block truncated") }
                output.append(contentsOf: reader.bytes[reader.position..<reader.position + length])
                reader.position += length
            case 1:
                try inflateBlock(&reader, into: &output, literals: fixedLiterals, distances: fixedDistances)
            case 2:
                let (literals, distances) = try readDynamicTables(&reader)
                try inflateBlock(&reader, into: &output, literals: literals, distances: distances)
            default:
                throw ImageError.corruptData("reserved block type")
            }
        }
    }

    private static func inflateBlock(_ reader: inout BitReader, into output: inout [UInt8], literals: Huffman, distances: Huffman) throws {
        while true {
            let symbol = try literals.decode(&reader)
            if symbol < 256 {
                output.append(UInt8(symbol))
            } else if symbol == 256 {
                return
            } else {
                let lengthIndex = symbol - 257
                guard lengthIndex < lengthBase.count else { throw ImageError.corruptData("bad length symbol") }
                let length = lengthBase[lengthIndex] + (try reader.bits(lengthExtra[lengthIndex]))
                let distanceSymbol = try distances.decode(&reader)
                guard distanceSymbol < distanceBase.count else { throw ImageError.corruptData("bad distance symbol") }
                let distance = distanceBase[distanceSymbol] + (try reader.bits(distanceExtra[distanceSymbol]))
                guard distance <= output.count else { throw ImageError.corruptData("distance too far back") }
                let start = output.count - distance
                for offset in 0..<length { output.append(output[start + offset]) }
            }
        }
    }

    private static func readDynamicTables(_ reader: inout BitReader) throws -> (Huffman, Huffman) {
        let literalCount = try reader.bits(5) + 257
        let distanceCount = try reader.bits(5) + 1
        let codeLengthCount = try reader.bits(4) + 4
        guard literalCount <= 286, distanceCount <= 30 else { throw ImageError.corruptData("too many codes") }
        var codeLengthLengths = [Int](repeating: 0, count: 19)
        for index in 0..<codeLengthCount {
            codeLengthLengths[codeLengthOrder[index]] = try reader.bits(3)
        }
        let codeLengths = try Huffman(lengths: codeLengthLengths)
        var lengths: [Int] = []
        lengths.reserveCapacity(literalCount + distanceCount)
        while lengths.count < literalCount + distanceCount {
            let symbol = try codeLengths.decode(&reader)
            switch symbol {
            case 0...15:
                lengths.append(symbol)
            case 16:
                guard let previous = lengths.last else { throw ImageError.corruptData("repeat with no previous length") }
                lengths += repeatElement(previous, count: 3 + (try reader.bits(2)))
            case 17:
                lengths += repeatElement(0, count: 3 + (try reader.bits(3)))
            default:
                lengths += repeatElement(0, count: 11 + (try reader.bits(7)))
            }
        }
        guard lengths.count == literalCount + distanceCount else { throw ImageError.corruptData("code lengths overflow") }
        guard lengths[256] > 0 else { throw ImageError.corruptData("no end-of-block code") }
        return (try Huffman(lengths: Array(lengths[0..<literalCount])), try Huffman(lengths: Array(lengths[literalCount...])))
    }

    private static let codeLengthOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]
    private static let lengthBase = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
    private static let lengthExtra = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    private static let distanceBase = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577]
    private static let distanceExtra = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13]

    // Tables built from constant lengths cannot fail.
    private static let fixedLiterals = try! Huffman(lengths: [Int](repeating: 8, count: 144) + [Int](repeating: 9, count: 112) + [Int](repeating: 7, count: 24) + [Int](repeating: 8, count: 8))
    private static let fixedDistances = try! Huffman(lengths: [Int](repeating: 5, count: 30))
}

/// Reads DEFLATE's least-significant-bit-first bit stream.
struct BitReader {
    let bytes: [UInt8]
    var position: Int
    private var buffer: UInt64 = 0
    private var count = 0

    init(bytes: [UInt8], position: Int = 0) {
        self.bytes = bytes
        self.position = position
    }

    /// Reads `n` (≤ 24) bits as an integer, first bit lowest.
    mutating func bits(_ n: Int) throws -> Int {
        if n == 0 { return 0 }
        while count < n {
            guard position < bytes.count else { throw ImageError.corruptData("unexpected end of compressed data") }
            buffer |= UInt64(bytes[position]) << UInt64(count)
            position += 1
            count += 8
        }
        let value = Int(buffer & ((1 << UInt64(n)) - 1))
        buffer >>= UInt64(n)
        count -= n
        return value
    }

    /// Drops the bits left in the current byte.
    mutating func alignToByte() {
        // Whole bytes still buffered go back to the stream.
        position -= count / 8
        buffer = 0
        count = 0
    }

    /// Reads one whole byte (after ``alignToByte()``).
    mutating func byteValue() throws -> Int {
        guard position < bytes.count else { throw ImageError.corruptData("unexpected end of compressed data") }
        defer { position += 1 }
        return Int(bytes[position])
    }
}

/// A canonical Huffman decoding table (counts per length and symbols sorted by code).
struct Huffman {
    private var counts = [Int](repeating: 0, count: 16)
    private var symbols: [Int] = []

    init(lengths: [Int]) throws {
        for length in lengths { counts[length] += 1 }
        counts[0] = 0
        var left = 1
        for length in 1...15 {
            left <<= 1
            left -= counts[length]
            guard left >= 0 else { throw ImageError.corruptData("over-subscribed Huffman code") }
        }
        var offsets = [Int](repeating: 0, count: 16)
        for length in 1..<15 { offsets[length + 1] = offsets[length] + counts[length] }
        symbols = [Int](repeating: 0, count: lengths.count)
        for (symbol, length) in lengths.enumerated() where length != 0 {
            symbols[offsets[length]] = symbol
            offsets[length] += 1
        }
    }

    func decode(_ reader: inout BitReader) throws -> Int {
        var code = 0, first = 0, index = 0
        for length in 1...15 {
            code |= try reader.bits(1)
            let count = counts[length]
            if code - first < count { return symbols[index + code - first] }
            index += count
            first += count
            first <<= 1
            code <<= 1
        }
        throw ImageError.corruptData("invalid Huffman code")
    }
}

/// Adler-32 of `bytes` (zlib's checksum).
func adler32(_ bytes: [UInt8]) -> UInt32 {
    var a: UInt32 = 1, b: UInt32 = 0
    var index = 0
    while index < bytes.count {
        let end = min(index + 5_552, bytes.count)
        while index < end {
            a += UInt32(bytes[index])
            b += a
            index += 1
        }
        a %= 65_521
        b %= 65_521
    }
    return b << 16 | a
}

/// CRC-32 (PNG's and zlib's polynomial 0xEDB88320).
func crc32<Bytes: Sequence>(_ bytes: Bytes, initial: UInt32 = 0) -> UInt32 where Bytes.Element == UInt8 {
    var crc = ~initial
    for byte in bytes {
        crc = crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8)
    }
    return ~crc
}

private let crcTable: [UInt32] = (0..<256).map { n in
    var c = UInt32(n)
    for _ in 0..<8 { c = c & 1 == 1 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
    return c
}
