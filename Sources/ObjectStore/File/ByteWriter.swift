import Foundation

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
