import Testing
import TestSupport
@testable import ObjectStore

/// `ChunkedArray` and `ShardedDictionary` behave as `Array` and `Dictionary` do, copies
/// included, across chunk boundaries and growths of the shards; and a copy changed in one place
/// shares the rest with the original.
@Suite struct SharedPartsTests {
    /// Random appends and assignments, checked against an `Array` after every step, on a copy
    /// taken now and then (which must not see later changes).
    @Test func aChunkedArrayIsAnArray() {
        var rng = SeededRandom(seed: 29)
        var chunked = ChunkedArray<Int?>()
        var plain: [Int?] = []
        var copies: [(ChunkedArray<Int?>, [Int?])] = []
        for step in 0..<5_000 {
            if plain.isEmpty || rng.next() % 3 != 0 {
                let value: Int? = rng.next() % 5 == 0 ? nil : step
                chunked.append(value)
                plain.append(value)
            } else {
                let i = Int(rng.next() % UInt64(plain.count))
                chunked[i] = -step
                plain[i] = -step
            }
            #expect(chunked.count == plain.count)
            if step % 700 == 0 { copies.append((chunked, plain)) }
        }
        #expect(Array(0..<chunked.count).map { chunked[$0] } == plain)
        #expect(chunked.indices == plain.indices)
        for (copy, expected) in copies {
            #expect(copy.count == expected.count)
            #expect(copy.indices.allSatisfy { copy[$0] == expected[$0] })
        }
        var seen: [Int?] = []
        var firsts: [Int] = []
        chunked.forEachChunk { first, elements in
            firsts.append(first)
            #expect(first == seen.count)
            #expect(elements.count <= ChunkedArray<Int?>.chunkSize)
            seen.append(contentsOf: elements)
        }
        #expect(seen == plain)
        #expect(firsts.count == (plain.count + ChunkedArray<Int?>.chunkSize - 1) / ChunkedArray<Int?>.chunkSize)
    }

    /// A change to a copy copies only the chunk it changes: every other chunk's buffer is the
    /// original's.
    @Test func aChangedCopySharesTheOtherChunks() {
        var original = ChunkedArray<Int>()
        for i in 0..<(ChunkedArray<Int>.chunkSize * 4) { original.append(i) }
        var copy = original
        copy[ChunkedArray<Int>.chunkSize * 2 + 5] = -1
        var originalBuffers: [UnsafeRawPointer?] = []
        var copyBuffers: [UnsafeRawPointer?] = []
        original.forEachChunk { _, elements in originalBuffers.append(UnsafeRawPointer(elements.baseAddress)) }
        copy.forEachChunk { _, elements in copyBuffers.append(UnsafeRawPointer(elements.baseAddress)) }
        #expect(originalBuffers.count == 4)
        #expect(zip(originalBuffers, copyBuffers).map { $0 == $1 } == [true, true, false, true])
        #expect(original[ChunkedArray<Int>.chunkSize * 2 + 5] == ChunkedArray<Int>.chunkSize * 2 + 5)
        #expect(copy[ChunkedArray<Int>.chunkSize * 2 + 5] == -1)
    }

    /// Random inserts, replacements, removals and in-place changes, checked against a
    /// `Dictionary`, through two growths of the shards, on copies taken now and then.
    @Test func aShardedDictionaryIsADictionary() {
        var rng = SeededRandom(seed: 15)
        var sharded = ShardedDictionary<Int, [Int]>()
        var plain: [Int: [Int]] = [:]
        var copies: [(ShardedDictionary<Int, [Int]>, [Int: [Int]])] = []
        let keys = ShardedDictionary<Int, [Int]>.shardSize * 24
        for step in 0..<80_000 {
            let key = Int(rng.next() % UInt64(keys))
            switch rng.next() % 4 {
            case 0:
                sharded[key] = nil
                plain[key] = nil
            case 1:
                sharded[key, default: []].append(step)
                plain[key, default: []].append(step)
            case 2:
                if sharded[key] != nil { sharded[key]!.removeAll { $0 % 2 == 0 } }
                if plain[key] != nil { plain[key]!.removeAll { $0 % 2 == 0 } }
            default:
                sharded[key] = [step]
                plain[key] = [step]
            }
            #expect(sharded.count == plain.count)
            if step % 17_000 == 0 { copies.append((sharded, plain)) }
        }
        #expect(sharded.count > ShardedDictionary<Int, [Int]>.shardSize * 8)   // the shards grew twice
        for key in 0..<keys { #expect(sharded[key] == plain[key]) }
        var listed: [Int: [Int]] = [:]
        sharded.forEach { key, value in
            #expect(listed[key] == nil)
            listed[key] = value
        }
        #expect(listed == plain)
        for (copy, expected) in copies {
            #expect(copy.count == expected.count)
            var all: [Int: [Int]] = [:]
            copy.forEach { all[$0] = $1 }
            #expect(all == expected)
        }
        #expect(sharded.isEmpty == plain.isEmpty)
    }

    /// A one-object write to an in-memory store shares all but one chunk of the rows with the
    /// version before it (before the rows were chunked, the first change of a transaction
    /// copied every row).
    @Test func aOneObjectWriteCopiesOneChunkOfAnInMemoryStore() throws {
        let store = Store()
        let count = ChunkedArray<Row?>.chunkSize * 5
        try store.write { tx in for i in 0..<count { try tx.add(Entry(id: "k\(i)", batch: i, payload: "")) } }
        func buffers() -> [UnsafeRawPointer?] {
            var out: [UnsafeRawPointer?] = []
            store.core.snapshot().tables["Entry"]!.added.forEachChunk { _, rows in out.append(UnsafeRawPointer(rows.baseAddress)) }
            return out
        }
        let before = buffers()
        let held = store.core.snapshot()   // keeps the older version's chunks alive to compare
        try store.write { try $0.add(Entry(id: "k\(ChunkedArray<Row?>.chunkSize + 3)", batch: -1, payload: "x"), update: .modified) }
        withExtendedLifetime(held) {
            #expect(zip(before, buffers()).map { $0 == $1 } == [true, false, true, true, true])
        }
        #expect(store.object(ofType: Entry.self, forPrimaryKey: "k\(ChunkedArray<Row?>.chunkSize + 3)")?.batch == -1)
    }
}
