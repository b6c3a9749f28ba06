import Foundation
import Streams
import Testing
import TestSupport
@testable import ObjectStore

/// A compaction moves the running store to the snapshot it wrote: the changes since the open
/// stop living in memory, rows are read from the new file, and results, observers and pinned
/// results stay right across the move (slots are renumbered when rows were deleted).
@Suite(.resourceCheck) struct CompactionMoveTests {
    typealias S = FileStoreSupport

    static func open(_ url: URL, autoCompaction: Store.AutoCompaction = .never) throws -> Store {
        try Store(configuration: .file(url: url, objectTypes: [Item.self], durability: .relaxed, autoCompaction: autoCompaction))
    }

    /// `count` items in a compacted file, reopened.
    static func seeded(_ count: Int, _ rng: inout SeededRandom, url: URL) throws -> (Store, Model) {
        try PagedFormatTests.seeded(count, &rng, url: url) { try open($0) }
    }

    @Test func afterACompactionTheChangesSinceTheOpenAreReadFromTheNewFile() throws {
        var rng = SeededRandom(seed: 11)
        let url = S.temporaryFile()
        defer { S.cleanUp(url) }
        var model = Model()
        do {
        let (store, seeded) = try Self.seeded(1_000, &rng, url: url)
        model = seeded
        try store.write { tx in
            for id in stride(from: 0, to: 1_000, by: 3) {
                var item = model.items[id]
                item.label = "changed \(id)"
                try tx.add(item, update: .modified)
                model.upsert(item)
            }
        }
        let before = try #require(store.core.snapshot().tables["Item"])
        let oldFile = try #require(before.base?.file)
        #expect(before.changed.count == 334 && before.heldBytes > 0)
        let pinned = store.objects(Item.self).filter("label BEGINSWITH 'changed'").freeze()

        try store.compact()
        let after = try #require(store.core.snapshot().tables["Item"])
        #expect(after.changed.isEmpty && after.heldBytes == 0)
        let newFile = try #require(after.base?.file)
        #expect(newFile !== oldFile)
        #expect(after.base?.count == 1_000)
        #expect(oldFile.cachedBytes == 0, "the older file's pages are let go")
        #expect(store.version == 2)
        // Reads come from the new file and are right.
        #expect(store.objects(Item.self).toArray() == model.items)
        for id in [0, 1, 3, 500, 999] {
            #expect(store.object(ofType: Item.self, forPrimaryKey: id) == model.items[id])
        }
        #expect(store.objects(Item.self).filter("group == 2").toArray() == model.items.filter { $0.group == 2 })
        // Results frozen before the move still read the version they were taken at.
        #expect(pinned.count == 334 && pinned.allSatisfy { $0.label.hasPrefix("changed") })

        // Commits after the move go to the new file, and a reopened store reads them back.
        try store.write { tx in
            try tx.add(Generator.item(1_000, &rng))
            try tx.delete(Item.self, forPrimaryKey: 7)
        }
        model.upsert(store.object(ofType: Item.self, forPrimaryKey: 1_000)!)
        model.delete(7)
        #expect(store._checkInvariants())
        }
        let reopened = try Self.open(url)   // the last handle was let go: the file is read again
        #expect(reopened.objects(Item.self).toArray() == model.items)
    }

    @Test(arguments: [4, 5] as [UInt64])
    func resultsAndObserversStayRightAcrossCompactions(seed: UInt64) throws {
        var rng = SeededRandom(seed: seed)
        let url = S.temporaryFile()
        defer { S.cleanUp(url) }
        var model = Model()
        do {
        let (store, seeded) = try Self.seeded(600, &rng, url: url)
        model = seeded
        var nextId = 600
        let queries = ["group == 1", "label BEGINSWITH[c] 'a' OR score > 12", "TRUEPREDICATE"]
        let tests: [(Item) -> Bool] = [{ $0.group == 1 }, { $0.label.lowercased().hasPrefix("a") || $0.score > 12 }, { _ in true }]
        var observed: [(results: Results<Item>, previous: [Item], events: UncheckedBox<[(Results<Item>, DeliveredIndices)]>, subscription: Disposable)] = []
        for (k, query) in queries.enumerated() {
            var results = store.objects(Item.self).filter(query)
            if k == 1 { results = results.sorted(byKeyPath: "score", ascending: false) }
            let box = UncheckedBox<[(Results<Item>, DeliveredIndices)]>([])
            let subscription = results.observe(on: ImmediateScheduler.instance).subscribe(onNext: { change in
                if case .update(let r, let d, let i, let m) = change { box.value.append((r, DeliveredIndices(deletions: d, insertions: i, modifications: m))) }
            })
            observed.append((results, [], box, subscription))
        }
        func expected(_ k: Int) -> [Item] {
            let matching = model.items.filter(tests[k])
            guard k == 1 else { return matching }
            return matching.enumerated().sorted { x, y in
                x.element.score != y.element.score ? x.element.score > y.element.score : x.offset < y.offset
            }.map(\.element)
        }
        for k in observed.indices { observed[k].previous = expected(k) }

        for round in 0..<60 {
            var pending = model
            try store.write { tx in
                for _ in 0..<Int.random(in: 1...6, using: &rng) {
                    try pending.randomEdit(in: tx, &rng, nextId: &nextId, inserts: 3, changes: 8) { item, fresh, _ in
                        item.score = fresh.score
                        item.label = fresh.label
                    }
                }
            }
            model = pending
            if round % 7 == 6 {
                // The move renumbers slots when rows were deleted; nothing is delivered for it.
                try store.compact()
                let table = try #require(store.core.snapshot().tables["Item"])
                #expect(table.changed.isEmpty && table.added.isEmpty && table.base?.count == model.items.count)
            }
            #expect(store.objects(Item.self).toArray() == model.items)
            for k in observed.indices {
                let old = observed[k].previous, new = expected(k)
                #expect(observed[k].results.toArray() == new, "\(queries[k])")
                let events = observed[k].events.value
                observed[k].events.value = []
                if old == new {
                    #expect(events.isEmpty, "no event for \(queries[k]) in round \(round)")
                } else if let (results, set) = events.first {
                    #expect(events.count == 1)
                    #expect(results.toArray() == new)
                    var array = old
                    for i in set.deletions.reversed() { array.remove(at: i) }
                    for j in set.insertions { array.insert(new[j], at: j) }
                    for j in set.modifications { array[j] = new[j] }
                    #expect(array == new, "the change set of \(queries[k]) in round \(round) turns the old list into the new one")
                } else {
                    Issue.record("no event for a change of \(queries[k]) in round \(round)")
                }
                observed[k].previous = new
            }
            for id in [0, 5, nextId - 1] {
                #expect(store.object(ofType: Item.self, forPrimaryKey: id) == model.items.first { $0.id == id })
            }
        }
        #expect(store._checkInvariants())
        for entry in observed { entry.subscription.dispose() }
        }
        let reopened = try Self.open(url)
        #expect(reopened.objects(Item.self).toArray() == model.items)
    }

    @Test func automaticCompactionKeepsTheChangesHeldInMemoryBounded() throws {
        var rng = SeededRandom(seed: 12)
        let url = S.temporaryFile()
        defer { S.cleanUp(url) }
        var (_, model) = try Self.seeded(2_000, &rng, url: url)
        // The file never grows 100-fold here: only what memory holds triggers compactions
        // (a round's 100 replaced rows hold about 5 KiB).
        let limit = 16 << 10
        let store = try Self.open(url, autoCompaction: Store.AutoCompaction(logMultiple: 100, minimumBytes: 1 << 30, heldBytes: limit))
        var files: Set<ObjectIdentifier> = []
        for round in 0..<20 {
            try store.write { tx in
                for id in (round * 100)..<(round * 100 + 100) {
                    var item = model.items[id]
                    item.label = "round \(round)"
                    try tx.add(item, update: .modified)
                    model.upsert(item)
                }
            }
            let table = try #require(store.core.snapshot().tables["Item"])
            #expect(table.heldBytes <= limit, "after round \(round): \(table.heldBytes) bytes held")
            if let file = table.base?.file { files.insert(ObjectIdentifier(file)) }
        }
        #expect(files.count > 3, "compacted \(files.count - 1) times")
        #expect(store.objects(Item.self).toArray() == model.items)
    }
}
