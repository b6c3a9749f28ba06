import Foundation
import Testing
import TestSupport
@testable import ObjectStore

/// The store file's checksums: CRC-32C, from the processor's instruction where it has one and
/// from tables otherwise. Both paths must give the same values, and a store must read and write
/// its files with either (a processor without the instruction, such as Apple's A7 to A9, takes
/// the tables; `CRC32C.withTablesOnly` makes any machine take them).
@Suite(.resourceCheck) struct CRC32CTests {
    typealias S = FileStoreSupport

    /// Bit at a time, straight from the definition (reflected polynomial 0x82F63B78).
    static func reference(_ bytes: some Collection<UInt8>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0x82F6_3B78 : crc >> 1 }
        }
        return crc ^ 0xFFFF_FFFF
    }

    /// The same bytes through every path: the current one (the instruction where there is
    /// one), the tables, the tables forced, and four at a time.
    static func everyPath(_ bytes: [UInt8]) -> [UInt32] {
        bytes.withUnsafeBytes { raw in
            [CRC32C.checksum(raw), CRC32C.softwareChecksum(raw),
             CRC32C.withTablesOnly { CRC32C.checksum(raw) },
             CRC32C.checksums([raw, raw, raw, raw])[3], CRC32C.softwareChecksums([raw, raw, raw, raw])[3]]
        }
    }

    /// Known values: the check value of the guide, and the 32-byte vectors of RFC 3720
    /// (iSCSI), appendix B.4, which LevelDB's tests use too.
    @Test func knownVectorsOnEveryPath() {
        let vectors: [([UInt8], UInt32)] = [
            ([], 0),
            (Array("123456789".utf8), 0xE306_9283),
            ([UInt8](repeating: 0, count: 32), 0x8A91_36AA),
            ([UInt8](repeating: 0xFF, count: 32), 0x62A8_AB43),
            ((0..<32).map(UInt8.init), 0x46DD_794E),
            ((0..<32).reversed().map(UInt8.init), 0x113F_DB5C),
        ]
        for (bytes, expected) in vectors {
            #expect(Self.reference(bytes) == expected, "reference, \(bytes.count) bytes")
            #expect(Self.everyPath(bytes) == Array(repeating: expected, count: 5), "\(bytes.count) bytes")
        }
    }

    /// A bit-at-a-time reference over every length and alignment up to 64 bytes, one buffer at
    /// a time and several at once (four interleaved, then the rest one by one), in a shuffled
    /// order so that buffers of different lengths share a group.
    @Test func shortBuffersMatchTheReference() {
        var rng = SeededRandom(seed: 3)
        let bytes = (0..<80).map { _ in UInt8.random(in: 0...255, using: &rng) }
        var slices: [ArraySlice<UInt8>] = []
        for start in 0..<8 {
            for length in 0...64 {
                let slice = bytes[start..<start + length]
                #expect(CRC32C.checksum(slice) == Self.reference(slice), "\(start) \(length)")
                slices.append(slice)
            }
        }
        slices.shuffle(using: &rng)
        bytes.withUnsafeBytes { raw in
            let buffers = slices.map { UnsafeRawBufferPointer(rebasing: raw[$0.startIndex..<$0.endIndex]) }
            let expected = slices.map { Self.reference($0) }
            #expect(CRC32C.checksums(buffers) == expected)
            #expect(CRC32C.softwareChecksums(buffers) == expected)
            #expect(buffers.map(CRC32C.softwareChecksum) == expected)
            #expect(CRC32C.withTablesOnly { CRC32C.checksums(buffers) } == expected)
        }
    }

    /// Every length from 0 to 4,096 bytes, each at a random unaligned start: the current path
    /// (the instruction, on a machine with one), the tables and the tables forced agree, one
    /// buffer at a time and four at a time; every 61st length is also checked against the
    /// reference, so the agreement is not that of two wrong answers.
    @Test func everyLengthUpTo4096AgreesOnEveryPath() {
        var rng = SeededRandom(seed: 11)
        let bytes = (0..<(4096 + 64)).map { _ in UInt8.random(in: 0...255, using: &rng) }
        bytes.withUnsafeBytes { raw in
            var buffers: [UnsafeRawBufferPointer] = []
            for length in 0...4096 {
                let start = Int.random(in: 1..<64, using: &rng)
                let buffer = UnsafeRawBufferPointer(rebasing: raw[start..<start + length])
                let current = CRC32C.checksum(buffer)
                let tables = CRC32C.softwareChecksum(buffer)
                let forced = CRC32C.withTablesOnly { CRC32C.checksum(buffer) }
                guard current == tables, forced == tables else {
                    Issue.record("length \(length) at \(start): \(current) / tables \(tables) / forced \(forced)")
                    return
                }
                if length % 61 == 0 { #expect(tables == Self.reference(buffer), "length \(length) at \(start)") }
                buffers.append(buffer)
            }
            buffers.shuffle(using: &rng)
            let tables = CRC32C.softwareChecksums(buffers)
            #expect(CRC32C.checksums(buffers) == tables)
            #expect(CRC32C.withTablesOnly { CRC32C.checksums(buffers) } == tables)
        }
    }

    /// Every x86-64 processor since 2008 has SSE 4.2, so the test machines of that kind take
    /// the instruction; inside `withTablesOnly` nobody does, and calls may nest.
    @Test func theInstructionIsUsedWhereThereIsOneAndNotWhenTablesAreForced() {
        #if arch(x86_64)
        #expect(CRC32C.hardwareAvailable)
        #endif
        CRC32C.withTablesOnly {
            #expect(!CRC32C.usesHardware)
            CRC32C.withTablesOnly { #expect(!CRC32C.usesHardware) }
            #expect(!CRC32C.usesHardware)
            // Other threads too (a store checks pages on several).
            let seen = FileTestBox<[Bool]>([])
            DispatchQueue.concurrentPerform(iterations: 4) { _ in
                let uses = CRC32C.usesHardware
                seen.withLock { $0.append(uses) }
            }
            #expect(seen.withLock { $0 } == [false, false, false, false])
        }
    }

    /// Writes `count` memos, compacts (so the file holds checksummed pages), writes a few more
    /// after the snapshot, and returns what the store should read back.
    static func writeStore(_ url: URL, count: Int, tag: String) throws -> [Int: String] {
        let store = try Store(configuration: .file(url: url, objectTypes: [Memo.self], autoCompaction: .never))
        try store.write { tx in
            for i in 0..<count { try tx.add(Memo(id: i, topic: "topic \(i % 7)", text: "\(tag) \(i) " + String(repeating: "x", count: i % 50))) }
        }
        try store.compact()
        for i in count..<count + 5 {
            try store.write { try $0.add(Memo(id: i, topic: "after", text: "\(tag) \(i)")) }
        }
        var expected: [Int: String] = [:]
        for memo in store.objects(Memo.self) { expected[memo.id] = memo.text }
        return expected
    }

    /// What the store at `url` holds, read from a fresh open (every page is checked on the way).
    static func readStore(_ url: URL) throws -> [Int: String] {
        let store = try Store(configuration: .file(url: url, objectTypes: [Memo.self], autoCompaction: .never))
        #expect(store.damage == nil)
        #expect(store._checkInvariants())
        var read: [Int: String] = [:]
        for memo in store.objects(Memo.self) { read[memo.id] = memo.text }
        #expect(store.objects(Memo.self).filter("topic == 'after'").count == 5)
        return read
    }

    /// With the tables forced, as on a processor without the instruction, a store writes,
    /// compacts and reopens its file; and files written by either path open with the other.
    @Test func theStoreReadsAndWritesItsFilesWithTheTablesOnly() throws {
        let url = S.temporaryFile()
        defer { S.cleanUp(url) }
        let count = 3_000
        // Written and read with the tables only.
        let written = try CRC32C.withTablesOnly { try Self.writeStore(url, count: count, tag: "tables") }
        #expect(written.count == count + 5)
        #expect(try CRC32C.withTablesOnly { try Self.readStore(url) } == written)
        // Read with the current path (the instruction, on a machine with one).
        #expect(try Self.readStore(url) == written)

        // Written with the current path, read with the tables only.
        let other = S.temporaryFile()
        defer { S.cleanUp(other) }
        let again = try Self.writeStore(other, count: count, tag: "current")
        #expect(try CRC32C.withTablesOnly { try Self.readStore(other) } == again)

        // The tables still find damage: a byte changed in the middle of the snapshot's pages.
        var bytes = S.bytes(other)
        bytes[bytes.count / 2] ^= 0x40
        S.write(bytes, to: other)
        let damaged = try CRC32C.withTablesOnly { () -> StoreError? in
            do {
                let store = try Store(configuration: .file(url: other, objectTypes: [Memo.self], autoCompaction: .never))
                _ = store.objects(Memo.self).map(\.id)   // every page read, so every page checked
                return store.damage
            } catch let error as StoreError {
                return error
            }
        }
        #expect(damaged != nil, "a changed byte went unnoticed with the tables")
    }
}
