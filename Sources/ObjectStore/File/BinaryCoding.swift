internal import CRC32CHardware
import Foundation

// The byte-level codec of the store file: little-endian integers, LEB128 varints, CRC-32C,
// and a tagged encoding of `StoreValue`. Readers check every bound and throw
// `FileFormatError` (turned into `StoreError.corrupted` with the file offset) on bad input.

/// A decoding failure inside one record; the caller adds the record's file offset.
struct FileFormatError: Error {
    let reason: String
    init(_ reason: String) { self.reason = reason }
}

/// CRC-32C (Castagnoli), as used by iSCSI, ext4 and LevelDB: with the processor's own
/// instruction where it has one (SSE 4.2, ARMv8 CRC; the `CRC32CHardware` target), about six
/// times the speed of the table; slicing-by-8 tables otherwise. Both give the same checksums.
enum CRC32C {
    /// Whether the checksums below use the processor's CRC-32C instruction.
    static let usesHardware = crc32c_hardware_available() != 0

    /// Slicing-by-8 tables, flat: entry `b` of table `t` is at `t * 256 + b`.
    static let table: [UInt32] = {
        var table = [UInt32](repeating: 0, count: 8 * 256)
        for i in 0..<256 {
            var c = UInt32(i)
            for _ in 0..<8 { c = (c & 1) != 0 ? (c >> 1) ^ 0x82F6_3B78 : c >> 1 }
            table[i] = c
        }
        for i in 0..<256 {
            for t in 1..<8 {
                let prev = table[(t - 1) * 256 + i]
                table[t * 256 + i] = (prev >> 8) ^ table[Int(prev & 0xFF)]
            }
        }
        return table
    }()

    static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        guard bytes.count > 0 else { return 0 }
        if usesHardware { return crc32c_hardware_update(0xFFFF_FFFF, bytes.baseAddress!, bytes.count) ^ 0xFFFF_FFFF }
        return softwareChecksum(bytes)
    }

    /// ``checksum(_:)`` from the tables, whatever the processor has (for tests that compare).
    static func softwareChecksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        guard bytes.count > 0 else { return 0 }
        return table.withUnsafeBufferPointer { update(0xFFFF_FFFF, bytes, from: 0, $0.baseAddress!) } ^ 0xFFFF_FFFF
    }

    /// One step of slicing-by-8: the state after the eight bytes of `word` (little-endian).
    /// Every table index is a byte plus a multiple of 256, within the 2,048 entries.
    @inline(__always)
    private static func step(_ crc: UInt32, _ word: UInt64, _ t: UnsafePointer<UInt32>) -> UInt32 {
        let lo = crc ^ UInt32(truncatingIfNeeded: word)
        let hi = UInt32(truncatingIfNeeded: word >> 32)
        return t[7 * 256 + Int(lo & 0xFF)] ^ t[6 * 256 + Int((lo >> 8) & 0xFF)]
            ^ t[5 * 256 + Int((lo >> 16) & 0xFF)] ^ t[4 * 256 + Int(lo >> 24)]
            ^ t[3 * 256 + Int(hi & 0xFF)] ^ t[2 * 256 + Int((hi >> 8) & 0xFF)]
            ^ t[256 + Int((hi >> 16) & 0xFF)] ^ t[Int(hi >> 24)]
    }

    /// The state after `bytes[from...]`, starting from `crc` (not inverted at either end).
    @inline(__always)
    private static func update(_ crc: UInt32, _ bytes: UnsafeRawBufferPointer, from start: Int, _ t: UnsafePointer<UInt32>) -> UInt32 {
        var crc = crc
        let count = bytes.count
        guard count > start, let base = bytes.baseAddress else { return crc }
        var i = start
        while i + 8 <= count {
            crc = step(crc, UInt64(littleEndian: base.loadUnaligned(fromByteOffset: i, as: UInt64.self)), t)
            i += 8
        }
        while i < count {
            crc = (crc >> 8) ^ t[Int((crc ^ UInt32(base.load(fromByteOffset: i, as: UInt8.self))) & 0xFF)]
            i += 1
        }
        return crc
    }

    /// The checksums of several buffers, four at a time: their table lookups interleave, so
    /// the processor follows four independent chains instead of waiting on one (about three
    /// times the speed of one buffer after another, for the pages checked at open).
    static func checksums(_ buffers: [UnsafeRawBufferPointer]) -> [UInt32] {
        usesHardware ? hardwareChecksums(buffers) : softwareChecksums(buffers)
    }

    /// ``checksums(_:)`` with the processor's instruction, four buffers at a time.
    private static func hardwareChecksums(_ buffers: [UnsafeRawBufferPointer]) -> [UInt32] {
        var out = [UInt32](repeating: 0, count: buffers.count)
        var k = 0
        while k + 4 <= buffers.count {
            let a = buffers[k], b = buffers[k + 1], c = buffers[k + 2], d = buffers[k + 3]
            let n = min(a.count, b.count, c.count, d.count)
            if n > 0 {
                var states: (UInt32, UInt32, UInt32, UInt32) = (0xFFFF_FFFF, 0xFFFF_FFFF, 0xFFFF_FFFF, 0xFFFF_FFFF)
                var starts: (UnsafeRawPointer?, UnsafeRawPointer?, UnsafeRawPointer?, UnsafeRawPointer?) =
                    (a.baseAddress, b.baseAddress, c.baseAddress, d.baseAddress)
                withUnsafeMutableBytes(of: &states) { states in
                    withUnsafeMutableBytes(of: &starts) { starts in
                        crc32c_hardware_update4(states.baseAddress!.assumingMemoryBound(to: UInt32.self),
                                                starts.baseAddress!.assumingMemoryBound(to: UnsafeRawPointer?.self), n)
                    }
                }
                out[k] = crc32c_hardware_update(states.0, a.baseAddress! + n, a.count - n) ^ 0xFFFF_FFFF
                out[k + 1] = crc32c_hardware_update(states.1, b.baseAddress! + n, b.count - n) ^ 0xFFFF_FFFF
                out[k + 2] = crc32c_hardware_update(states.2, c.baseAddress! + n, c.count - n) ^ 0xFFFF_FFFF
                out[k + 3] = crc32c_hardware_update(states.3, d.baseAddress! + n, d.count - n) ^ 0xFFFF_FFFF
            } else {
                for j in k..<k + 4 { out[j] = checksum(buffers[j]) }
            }
            k += 4
        }
        while k < buffers.count {
            out[k] = checksum(buffers[k])
            k += 1
        }
        return out
    }

    /// ``checksums(_:)`` from the tables, whatever the processor has (for tests that compare).
    static func softwareChecksums(_ buffers: [UnsafeRawBufferPointer]) -> [UInt32] {
        var out = [UInt32](repeating: 0, count: buffers.count)
        table.withUnsafeBufferPointer { table in
            let t = table.baseAddress!
            var k = 0
            while k + 4 <= buffers.count {
                let a = buffers[k], b = buffers[k + 1], c = buffers[k + 2], d = buffers[k + 3]
                let n = min(a.count, b.count, c.count, d.count) & ~7
                var ca: UInt32 = 0xFFFF_FFFF, cb = ca, cc = ca, cd = ca
                if n > 0 {
                    let pa = a.baseAddress!, pb = b.baseAddress!, pc = c.baseAddress!, pd = d.baseAddress!
                    var i = 0
                    while i < n {
                        ca = step(ca, UInt64(littleEndian: pa.loadUnaligned(fromByteOffset: i, as: UInt64.self)), t)
                        cb = step(cb, UInt64(littleEndian: pb.loadUnaligned(fromByteOffset: i, as: UInt64.self)), t)
                        cc = step(cc, UInt64(littleEndian: pc.loadUnaligned(fromByteOffset: i, as: UInt64.self)), t)
                        cd = step(cd, UInt64(littleEndian: pd.loadUnaligned(fromByteOffset: i, as: UInt64.self)), t)
                        i += 8
                    }
                }
                out[k] = a.count == 0 ? 0 : update(ca, a, from: n, t) ^ 0xFFFF_FFFF
                out[k + 1] = b.count == 0 ? 0 : update(cb, b, from: n, t) ^ 0xFFFF_FFFF
                out[k + 2] = c.count == 0 ? 0 : update(cc, c, from: n, t) ^ 0xFFFF_FFFF
                out[k + 3] = d.count == 0 ? 0 : update(cd, d, from: n, t) ^ 0xFFFF_FFFF
                k += 4
            }
            while k < buffers.count {
                out[k] = buffers[k].count == 0 ? 0 : update(0xFFFF_FFFF, buffers[k], from: 0, t) ^ 0xFFFF_FFFF
                k += 1
            }
        }
        return out
    }

    static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        bytes.withUnsafeBytes { checksum($0) }
    }
}

/// Appends encoded values to a byte buffer.
struct ByteWriter {
    var bytes: [UInt8] = []

    mutating func u8(_ v: UInt8) { bytes.append(v) }

    mutating func u32(_ v: UInt32) {
        bytes.append(UInt8(truncatingIfNeeded: v))
        bytes.append(UInt8(truncatingIfNeeded: v >> 8))
        bytes.append(UInt8(truncatingIfNeeded: v >> 16))
        bytes.append(UInt8(truncatingIfNeeded: v >> 24))
    }

    mutating func u64(_ v: UInt64) {
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: v >> UInt64(shift))) }
    }

    mutating func varint(_ v: UInt64) {
        var v = v
        while v >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: v) | 0x80)
            v >>= 7
        }
        bytes.append(UInt8(v))
    }

    mutating func count(_ n: Int) { varint(UInt64(n)) }

    mutating func string(_ s: String) {
        var s = s
        s.withUTF8 { utf8 in
            varint(UInt64(utf8.count))
            bytes.append(contentsOf: utf8)
        }
    }

    mutating func data(_ d: Data) {
        varint(UInt64(d.count))
        bytes.append(contentsOf: d)
    }

    /// Overwrites four bytes at `offset` (for headers written before their payload is known).
    mutating func patchU32(_ v: UInt32, at offset: Int) {
        bytes[offset] = UInt8(truncatingIfNeeded: v)
        bytes[offset + 1] = UInt8(truncatingIfNeeded: v >> 8)
        bytes[offset + 2] = UInt8(truncatingIfNeeded: v >> 16)
        bytes[offset + 3] = UInt8(truncatingIfNeeded: v >> 24)
    }

    // Value tags (see Guides/ObjectStore-FileFormat.md).
    static let tagNull: UInt8 = 0, tagFalse: UInt8 = 1, tagTrue: UInt8 = 2, tagInt: UInt8 = 3
    static let tagDouble: UInt8 = 4, tagString: UInt8 = 5, tagDate: UInt8 = 6, tagData: UInt8 = 7
    static let tagUUID: UInt8 = 8, tagDecimal: UInt8 = 9, tagList: UInt8 = 10, tagMap: UInt8 = 11

    mutating func value(_ v: StoreValue) {
        switch v {
        case .null: u8(Self.tagNull)
        case .bool(let b): u8(b ? Self.tagTrue : Self.tagFalse)
        case .int(let i):
            u8(Self.tagInt)
            varint(UInt64(bitPattern: (i << 1) ^ (i >> 63)))   // zigzag
        case .double(let d):
            u8(Self.tagDouble)
            u64(d.bitPattern)
        case .string(let s):
            u8(Self.tagString)
            string(s)
        case .date(let d):
            u8(Self.tagDate)
            u64(d.timeIntervalSinceReferenceDate.bitPattern)
        case .data(let d):
            u8(Self.tagData)
            data(d)
        case .uuid(let u):
            u8(Self.tagUUID)
            withUnsafeBytes(of: u.uuid) { bytes.append(contentsOf: $0) }
        case .decimal(let d):
            u8(Self.tagDecimal)
            string(d.description)
        case .list(let items):
            u8(Self.tagList)
            count(items.count)
            for item in items { value(item) }
        case .map(let entries):
            u8(Self.tagMap)
            count(entries.count)
            for key in entries.keys.sorted() {
                string(key)
                value(entries[key]!)
            }
        }
    }

    mutating func row(_ row: Row) {
        count(row.count)
        for v in row { value(v) }
    }
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

    mutating func row() throws -> Row {
        let n = try count()
        var row = Row()
        row.reserveCapacity(n)
        for _ in 0..<n { row.append(try value()) }
        return row
    }
}

extension ByteReader {
    /// Reads past one value exactly as `value(depth:)` reads it, and checks it as
    /// `ValueCheck.accepts(_:optional:)` would check the value read, without building it: the
    /// same bytes are accepted and refused, and nothing is allocated for a value of the plain
    /// kinds (an ASCII string included).
    ///
    /// - Throws: `FileFormatError` when the bytes are not a value, or the value does not fit.
    mutating func skipValue(_ check: ValueCheck, optional: Bool, depth: Int = 0) throws {
        guard depth < 64 else { throw FileFormatError("values nest too deeply") }
        let tag = try u8()
        let fits: Bool
        switch tag {
        case ByteWriter.tagNull:
            switch check {
            case .link, .any: fits = true
            default: fits = optional
            }
        case ByteWriter.tagFalse, ByteWriter.tagTrue:
            fits = check.isAny || check.isBool
        case ByteWriter.tagInt:
            let z = try varint()
            _ = z
            switch check {
            case .any, .int, .double, .decimal, .link: fits = true
            default: fits = false
            }
        case ByteWriter.tagDouble:
            _ = try u64()
            switch check {
            case .any, .double, .decimal: fits = true
            default: fits = false
            }
        case ByteWriter.tagString:
            try skipString()
            switch check {
            case .any, .string, .link: fits = true
            default: fits = false
            }
        case ByteWriter.tagDate:
            _ = try u64()
            switch check {
            case .any, .date: fits = true
            default: fits = false
            }
        case ByteWriter.tagData:
            let n = try count()
            _ = try bytes(n)
            switch check {
            case .any, .data: fits = true
            default: fits = false
            }
        case ByteWriter.tagUUID:
            _ = try bytes(16)
            switch check {
            case .any, .uuid, .link: fits = true
            default: fits = false
            }
        case ByteWriter.tagDecimal:
            let text = try string()
            guard Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")) != nil else {
                throw FileFormatError("invalid decimal \(text.prefix(40))")
            }
            switch check {
            case .any, .decimal: fits = true
            default: fits = false
            }
        case ByteWriter.tagList:
            let n = try count()
            switch check {
            case .list(let element):
                for _ in 0..<n { try skipValue(element, optional: true, depth: depth + 1) }
                fits = true
            case .any:
                for _ in 0..<n { try skipValue(.any, optional: true, depth: depth + 1) }
                fits = true
            default:
                for _ in 0..<n { try skipValue(.any, optional: true, depth: depth + 1) }
                fits = false
            }
        case ByteWriter.tagMap:
            let n = try count(minimumSize: 2)
            for _ in 0..<n {
                try skipString()
                try skipValue(.any, optional: true, depth: depth + 1)
            }
            fits = check.isAny
        default:
            throw FileFormatError("unknown value tag \(tag)")
        }
        if !fits { throw ValueCheck.Mismatch() }
    }

    /// Reads past a string, checking that it is UTF-8 as `string()` does.
    mutating func skipString() throws {
        let n = try count()
        let raw = try bytes(n)
        var i = 0
        var ascii = true
        while i + 8 <= n {
            if raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) & 0x8080_8080_8080_8080 != 0 { ascii = false; break }
            i += 8
        }
        if ascii { while i < n { if raw[i] >= 0x80 { ascii = false; break }; i += 1 } }
        if !ascii, String(validating: raw, as: UTF8.self) == nil { throw FileFormatError("invalid UTF-8 in a string") }
    }
}

/// What a field's value may be, for the quick check at open: the value tags it may have and,
/// for a list, the tags its elements may have. Fields a mask cannot describe (embedded values,
/// decimals, lists of lists) are `nil` and go through `ByteReader.skipValue`.
struct TagRule {
    let tags: UInt16
    let elementTags: UInt16

    init?(_ check: ValueCheck, optional: Bool) {
        guard let tags = TagRule.tags(check, optional: optional) else { return nil }
        self.tags = tags
        if case .list(let element) = check {
            guard let inner = TagRule.tags(element, optional: true), inner & (1 << ByteWriter.tagList) == 0 else { return nil }
            elementTags = inner
        } else {
            elementTags = 0
        }
    }

    private static func tags(_ check: ValueCheck, optional: Bool) -> UInt16? {
        func bit(_ tag: UInt8) -> UInt16 { 1 << UInt16(tag) }
        let null: UInt16 = optional ? bit(ByteWriter.tagNull) : 0
        switch check {
        case .int: return bit(ByteWriter.tagInt) | null
        case .double: return bit(ByteWriter.tagDouble) | bit(ByteWriter.tagInt) | null
        case .bool: return bit(ByteWriter.tagFalse) | bit(ByteWriter.tagTrue) | null
        case .string: return bit(ByteWriter.tagString) | null
        case .date: return bit(ByteWriter.tagDate) | null
        case .data: return bit(ByteWriter.tagData) | null
        case .uuid: return bit(ByteWriter.tagUUID) | null
        case .link: return bit(ByteWriter.tagInt) | bit(ByteWriter.tagString) | bit(ByteWriter.tagUUID) | bit(ByteWriter.tagNull)
        case .list: return bit(ByteWriter.tagList) | null
        case .decimal, .any: return nil
        }
    }
}

extension ByteReader {
    /// Reads past one value whose tag must be in `rule` (a list's elements in its element
    /// tags). `false` when the bytes are not such a value, whatever the reason: the caller then
    /// reads it again with `skipValue`, which says why. Accepts exactly what `skipValue`
    /// accepts for the check the rule was made from.
    @inline(__always)
    mutating func skipPlain(_ rule: TagRule) -> Bool {
        guard position < end else { return false }
        let tag = base[position]
        guard tag < 16, rule.tags & (1 << UInt16(tag)) != 0 else { return false }
        position += 1
        if tag == ByteWriter.tagList {
            guard let n = plainVarint(), n <= UInt64(end - position) else { return false }
            for _ in 0..<Int(n) {
                guard position < end else { return false }
                let element = base[position]
                guard element < 16, rule.elementTags & (1 << UInt16(element)) != 0 else { return false }
                position += 1
                guard skipScalar(element) else { return false }
            }
            return true
        }
        return skipScalar(tag)
    }

    /// Reads past the body of a value of a plain kind whose tag was read.
    @inline(__always)
    private mutating func skipScalar(_ tag: UInt8) -> Bool {
        switch tag {
        case ByteWriter.tagNull, ByteWriter.tagFalse, ByteWriter.tagTrue:
            return true
        case ByteWriter.tagInt:
            return plainVarint() != nil
        case ByteWriter.tagDouble, ByteWriter.tagDate:
            guard end - position >= 8 else { return false }
            position += 8
            return true
        case ByteWriter.tagUUID:
            guard end - position >= 16 else { return false }
            position += 16
            return true
        case ByteWriter.tagString:
            return (try? skipString()) != nil
        case ByteWriter.tagData:
            guard let n = plainVarint(), n <= UInt64(end - position) else { return false }
            position += Int(n)
            return true
        default:
            return false
        }
    }

    /// A varint as `varint()` reads it, `nil` where that throws.
    @inline(__always)
    private mutating func plainVarint() -> UInt64? {
        guard position < end else { return nil }
        let first = base[position]
        if first < 0x80 {
            position += 1
            return UInt64(first)
        }
        return try? varint()
    }
}
