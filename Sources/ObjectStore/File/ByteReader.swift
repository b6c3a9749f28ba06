import Foundation

// The byte-level codec of the store file: little-endian integers, LEB128 varints, CRC-32C,
// and a tagged encoding of `StoreValue`. Readers check every bound and throw
// `FileFormatError` (turned into `StoreError.corrupted` with the file offset) on bad input.

/// A decoding failure inside one record; the caller adds the record's file offset.
struct FileFormatError: Error {
    let reason: String
    init(_ reason: String) { self.reason = reason }
}

/// Reads encoded values from a byte range, checking every bound.
struct ByteReader {
    let base: UnsafeRawBufferPointer
    var position: Int
    let end: Int

    init(_ base: UnsafeRawBufferPointer, from start: Int, to end: Int) {
        self.base = base
        self.position = start
        self.end = end
    }

    var isAtEnd: Bool { position >= end }

    private func need(_ n: Int) throws {
        guard n >= 0, end - position >= n else { throw FileFormatError("unexpected end of record") }
    }

    mutating func u8() throws -> UInt8 {
        try need(1)
        defer { position += 1 }
        return base[position]
    }

    mutating func u32() throws -> UInt32 {
        try need(4)
        defer { position += 4 }
        return base.loadUnaligned(fromByteOffset: position, as: UInt32.self).littleEndian
    }

    mutating func u64() throws -> UInt64 {
        try need(8)
        defer { position += 8 }
        return base.loadUnaligned(fromByteOffset: position, as: UInt64.self).littleEndian
    }

    mutating func varint() throws -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let byte = try u8()
            if shift == 63 && byte > 1 { throw FileFormatError("varint overflows 64 bits") }
            result |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return result }
            shift += 7
            if shift > 63 { throw FileFormatError("varint too long") }
        }
    }

    /// A count of items that each take at least `minimumSize` bytes (so a corrupt count
    /// cannot make the reader allocate more than the record could hold).
    mutating func count(minimumSize: Int = 1) throws -> Int {
        let n = try varint()
        guard n <= UInt64(end - position) / UInt64(max(minimumSize, 1)) else {
            throw FileFormatError("count \(n) exceeds the record")
        }
        return Int(n)
    }

    mutating func bytes(_ n: Int) throws -> UnsafeRawBufferPointer {
        try need(n)
        defer { position += n }
        return UnsafeRawBufferPointer(rebasing: base[position..<position + n])
    }

    mutating func string() throws -> String {
        let n = try count()
        let raw = try bytes(n)
        guard let s = String(validating: raw, as: UTF8.self) else { throw FileFormatError("invalid UTF-8 in a string") }
        return s
    }

    mutating func value(depth: Int = 0) throws -> StoreValue {
        guard depth < 64 else { throw FileFormatError("values nest too deeply") }
        let tag = try u8()
        switch tag {
        case ByteWriter.tagNull: return .null
        case ByteWriter.tagFalse: return .bool(false)
        case ByteWriter.tagTrue: return .bool(true)
        case ByteWriter.tagInt:
            let z = try varint()
            return .int(Int64(bitPattern: z >> 1) ^ -Int64(bitPattern: z & 1))
        case ByteWriter.tagDouble: return .double(Double(bitPattern: try u64()))
        case ByteWriter.tagString: return .string(try string())
        case ByteWriter.tagDate: return .date(Date(timeIntervalSinceReferenceDate: Double(bitPattern: try u64())))
        case ByteWriter.tagData:
            let n = try count()
            return .data(Data(try bytes(n)))
        case ByteWriter.tagUUID:
            let raw = try bytes(16)
            var u: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            withUnsafeMutableBytes(of: &u) { $0.copyMemory(from: raw) }
            return .uuid(UUID(uuid: u))
        case ByteWriter.tagDecimal:
            let text = try string()
            guard let d = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) else {
                throw FileFormatError("invalid decimal \(text.prefix(40))")
            }
            return .decimal(d)
        case ByteWriter.tagList:
            let n = try count()
            var items: [StoreValue] = []
            items.reserveCapacity(n)
            for _ in 0..<n { items.append(try value(depth: depth + 1)) }
            return .list(items)
        case ByteWriter.tagMap:
            let n = try count(minimumSize: 2)
            var entries: [String: StoreValue] = [:]
            entries.reserveCapacity(n)
            for _ in 0..<n {
                let key = try string()
                entries[key] = try value(depth: depth + 1)
            }
            return .map(entries)
        default:
            throw FileFormatError("unknown value tag \(tag)")
        }
    }

    /// The integer at the reader's position when it is one (its tag, then a varint that
    /// decodes), read past; `nil`, with the position unspecified, for anything else.
    @inline(__always)
    mutating func intKey() -> Int64? {
        guard position < end, base[position] == ByteWriter.tagInt else { return nil }
        position += 1
        // The varint as `varint()` reads it (and refuses it), without throwing.
        var z: UInt64 = 0, shift: UInt64 = 0
        while position < end {
            let byte = base[position]
            position += 1
            if shift == 63 && byte > 1 { return nil }
            z |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return Int64(bitPattern: z >> 1) ^ -Int64(bitPattern: z & 1) }
            shift += 7
            if shift > 63 { return nil }
        }
        return nil
    }

    mutating func row() throws -> Row {
        let n = try count()
        var row = Row()
        row.reserveCapacity(n)
        for _ in 0..<n { row.append(try value()) }
        return row
    }
}
