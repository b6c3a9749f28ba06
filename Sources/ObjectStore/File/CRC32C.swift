internal import CRC32CHardware
import Foundation
import Synchronization

/// CRC-32C (Castagnoli), as used by iSCSI, ext4 and LevelDB: with the processor's own
/// instruction where it has one (SSE 4.2, ARMv8 CRC; the `CRC32CHardware` target), about six
/// times the speed of the table; slicing-by-8 tables otherwise. Both give the same checksums.
enum CRC32C {
    /// Whether this processor has the CRC-32C instruction (asked once). Not every 64-bit
    /// processor does: Apple's A7 to A9 lack it, as do some 64-bit ARM boards.
    static let hardwareAvailable = crc32c_hardware_available() != 0

    /// How many ``withTablesOnly(_:)`` calls are under way.
    private static let tablesOnlyCalls = Atomic<Int>(0)

    /// Whether the checksums below use the processor's CRC-32C instruction now: when it has one
    /// and no ``withTablesOnly(_:)`` is under way.
    static var usesHardware: Bool {
        hardwareAvailable && tablesOnlyCalls.load(ordering: .relaxed) == 0
    }

    /// Runs `body` with every checksum of the process (on any thread, not only this one)
    /// computed from the tables, as on a processor without the instruction: for tests of that
    /// path on machines that have it. Calls may overlap; the instruction is used again once
    /// the last of them has returned. Both paths give the same checksums, so other work going
    /// on meanwhile is only slower.
    static func withTablesOnly<T>(_ body: () throws -> T) rethrows -> T {
        tablesOnlyCalls.add(1, ordering: .relaxed)
        defer { tablesOnlyCalls.subtract(1, ordering: .relaxed) }
        return try body()
    }

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
