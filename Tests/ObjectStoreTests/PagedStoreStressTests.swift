import Foundation
import Streams
import Testing
import TestSupport
@testable import ObjectStore
import Locking

/// A format 3 store read from many threads at once (run under the thread sanitizer by CI):
/// pages read, decoded, cached and dropped concurrently, while a writer changes rows of the base.
@Suite(.resourceCheck) struct PagedStoreStressTests {
    typealias S = FileStoreSupport

    /// Readers of random keys and scanning queries on 8 threads, a writer moving items between
    /// groups: every read sees a whole row, and every query a whole snapshot.
    @Test func readersAndAWriterOnABase() throws {
        var rng = SeededRandom(seed: 21)
        let url = S.temporaryFile()
        defer { S.cleanUp(url) }
        let count = 8_000
        let items = (0..<count).map { i -> Item in
            var item = Generator.item(i, &rng)
            item.group = i % 5
            return item
        }
        do {
            let store = try Store(configuration: .file(url: url, objectTypes: [Item.self], autoCompaction: .never))
            try store.write { try $0.add(items) }
            try store.compact()
        }
        let store = try Store(configuration: .file(url: url, objectTypes: [Item.self], autoCompaction: .never))
        #expect(store.core.snapshot().tables["Item"]?.base != nil)
        let failures = Locked<[String]>([])
        let done = Locked(false)
        let writer = Thread {
            var rng = SeededRandom(seed: 22)
            for _ in 0..<100 {
                do {
                    try store.write { tx in
                        // Move one item to another group: the number of items never changes.
                        let id = Int.random(in: 0..<count, using: &rng)
                        guard var item = tx.object(ofType: Item.self, forPrimaryKey: id) else { return }
                        item.group = (item.group + 1) % 5
                        try tx.add(item, update: .modified)
                    }
                } catch {
                    failures.withLock { $0.append("write: \(error)") }
                }
            }
            done.withLock { $0 = true }
        }
        writer.start()
        DispatchQueue.concurrentPerform(iterations: 8) { reader in
            var rng = SeededRandom(seed: UInt64(100 + reader))
            var rounds = 0
            while !done.withLock({ $0 }) || rounds < 20 {
                rounds += 1
                let id = Int.random(in: 0..<count, using: &rng)
                if store.object(ofType: Item.self, forPrimaryKey: id)?.id != id {
                    failures.withLock { $0.append("key \(id) not found") }
                }
                if reader % 2 == 0 {
                    // One query is one snapshot: through the group index, and by a scan.
                    let indexed = store.objects(Item.self).filter("group IN {0, 1, 2, 3, 4}").count
                    let scanned = store.objects(Item.self).filter("score >= 0").count
                    if indexed != count || scanned != count { failures.withLock { $0.append("\(indexed) and \(scanned) items") } }
                }
            }
        }
        while !done.withLock({ $0 }) { usleep(1_000) }
        #expect(failures.withLock { $0 }.isEmpty, "\(failures.withLock { $0.prefix(5) })")
        #expect(store._checkInvariants())
    }

    /// Eight threads reading through a cache of 64 KiB (pages dropped and read again all the
    /// time): every row read is the row of its key.
    @Test func readersThroughASmallCache() throws {
        var rng = SeededRandom(seed: 23)
        let url = S.temporaryFile()
        defer { S.cleanUp(url) }
        do {
            let store = try Store(configuration: .file(url: url, objectTypes: [Item.self], autoCompaction: .never))
            try store.write { try $0.add((0..<5_000).map { Generator.item($0, &rng) }) }
            try store.compact()
        }
        let bytes = S.bytes(url)
        let file = PagedFile(path: url.path, source: .bytes(bytes), damage: DamageReport(), cacheBudget: 64 << 10)
        let contents = try FileFormat.readPaged(file, size: bytes.count, codeSchemas: ["Item": try ObjectSchema.of(Item.self)])
        let table = try #require(contents.tables["Item"])
        let failures = Locked(0)
        DispatchQueue.concurrentPerform(iterations: 8) { reader in
            var rng = SeededRandom(seed: UInt64(200 + reader))
            for round in 0..<400 {
                let key = Int64.random(in: 0..<5_000, using: &rng)
                if table.row(forKey: .int(key))?[0] != .int(key) { failures.withLock { $0 += 1 } }
                if round % 100 == reader {
                    var seen = 0
                    table.forEachRow { slot, row in if row[0] == .int(Int64(slot)) { seen += 1 } }
                    if seen != 5_000 { failures.withLock { $0 += 1 } }
                }
            }
        }
        #expect(failures.withLock { $0 } == 0)
        #expect(file.cachedBytes <= 64 << 10)
        #expect(file.damage.error == nil)
    }
}
