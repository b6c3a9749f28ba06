import Foundation
import Testing
import TestSupport
@testable import ObjectStore

/// A model with an index on fields of each plain kind, optional ones included.
struct Shelved: StoreObject, Equatable {
    static var primaryKey: KeyPath<Shelved, Int> { \.id }
    static var indexedProperties: [String] { ["shelf", "title", "weight", "due", "code"] }
    var id: Int
    var shelf: Int
    var title: String
    var weight: Double
    var due: Date?
    var code: Int?

    static func make(_ id: Int, _ rng: inout SeededRandom) -> Shelved {
        Shelved(id: id, shelf: Int.random(in: -5...40, using: &rng), title: ["a", "b", "Ä", "ab", ""].randomElement(using: &rng)!,
                weight: [0.5, -0.0, 0.0, 2, -1.25].randomElement(using: &rng)!,
                due: Bool.random(using: &rng) ? nil : Date(timeIntervalSinceReferenceDate: Double(Int.random(in: 0...9, using: &rng))),
                code: Int.random(in: 0...3, using: &rng) == 0 ? nil : Int.random(in: 0...7, using: &rng))
    }
}

/// Format 4 stores the secondary indexes of a snapshot as index pages: a fresh process's first
/// indexed query reads them instead of every row, and they stay true to the rows.
@Suite(.resourceCheck) struct StoredIndexTests {
    typealias S = FileStoreSupport

    static func open(_ url: URL) throws -> Store {
        try Store(configuration: .file(url: url, objectTypes: [Shelved.self], autoCompaction: .never))
    }

    /// `count` objects written and compacted into a snapshot.
    static func seed(_ count: Int, _ rng: inout SeededRandom, url: URL) throws -> [Shelved] {
        let store = try open(url)
        let objects = (0..<count).map { Shelved.make($0, &rng) }
        try store.write { try $0.add(objects) }
        try store.compact()
        return objects
    }

    /// Every indexed query the tests ask, against the brute-force answer.
    static func checkQueries(_ store: Store, _ expected: [Shelved], sourceLocation: SourceLocation = #_sourceLocation) {
        let all = store.objects(Shelved.self)
        let byId = { (xs: [Shelved]) in xs.sorted { $0.id < $1.id } }
        for shelf in [-5, 0, 7, 40, 41] {
            #expect(byId(all.filter("shelf == %@", shelf).toArray()) == expected.filter { $0.shelf == shelf }, sourceLocation: sourceLocation)
        }
        for title in ["a", "Ä", "", "zz"] {
            #expect(byId(all.filter("title == %@", title).toArray()) == expected.filter { $0.title == title }, sourceLocation: sourceLocation)
        }
        for weight in [0.0, -0.0, 2.0, 3.0] {
            #expect(byId(all.filter("weight == %@", weight).toArray()) == expected.filter { $0.weight == weight }, sourceLocation: sourceLocation)
        }
        #expect(byId(all.filter("due == nil").toArray()) == expected.filter { $0.due == nil }, sourceLocation: sourceLocation)
        let due = Date(timeIntervalSinceReferenceDate: 3)
        #expect(byId(all.filter("due == %@", due).toArray()) == expected.filter { $0.due == due }, sourceLocation: sourceLocation)
        #expect(byId(all.filter("code IN {nil, 2, 5}").toArray()) == expected.filter { [nil, 2, 5].contains($0.code) },
                sourceLocation: sourceLocation)
        // Ordered: sorts and ranges (a stable sort by the field, the slots' order among equals).
        #expect(all.sorted(byKeyPath: "shelf").map(\.shelf) == expected.map(\.shelf).sorted(), sourceLocation: sourceLocation)
        #expect(all.sorted(byKeyPath: "weight", ascending: false).map(\.weight) == expected.map(\.weight).sorted(by: >),
                sourceLocation: sourceLocation)
        #expect(all.sorted(byKeyPath: "title").map(\.title) == expected.map(\.title).sorted(), sourceLocation: sourceLocation)
        #expect(byId(all.filter("shelf BETWEEN {3, 9}").toArray()) == expected.filter { (3...9).contains($0.shelf) },
                sourceLocation: sourceLocation)
    }

    /// The row pages of a table held in the file's page cache.
    static func cachedRowPages(_ base: PagedTable) -> Int {
        base.file.lock.withLock {
            base.file.entries.keys.filter { $0.table == ObjectIdentifier(base) && !$0.isKeyPage && $0.indexField == 0 }.count
        }
    }

    @Test func indexesRoundTripThroughTheFile() throws {
        var rng = SeededRandom(seed: 29)
        let url = S.temporaryFile()
        defer { S.cleanUp(url) }
        let objects = try Self.seed(3_000, &rng, url: url)
        let store = try Self.open(url)
        let base = try #require(store.core.snapshot().tables["Shelved"]?.base)
        // One stored index per indexed field but the primary key, 3,000 entries each.
        #expect(base.storedIndexes.map(\.field).sorted() == [1, 2, 3, 4, 5])
        #expect(base.storedIndexes.allSatisfy { $0.pages.count == 6 })
        // Each reads back as the index built from the rows would be.
        for index in base.storedIndexes {
            var fromRows: [StoreValue: [Int]] = [:]
            base.forEachSlot { slot, row in fromRows[row![index.field], default: []].append(slot) }
            for (value, slots) in fromRows {
                #expect(base.storedSlots(field: index.field, value: value) == slots)
            }
            #expect(base.storedSlots(field: index.field, value: .string("none")) == [])
        }
        Self.checkQueries(store, objects)
        #expect(store._checkInvariants())
    }

    /// In a snapshot too big to be checked whole at open, the first query by an indexed field
    /// reads the index pages holding its value and the rows it finds, not every row.
    @Test func theFirstIndexedQueryReadsTheIndexNotTheRows() throws {
        var rng = SeededRandom(seed: 30)
        let url = S.temporaryFile()
        defer { S.cleanUp(url) }
        do {
            let store = try Self.open(url)
            let objects = (0..<20_000).map { id in
                var object = Shelved.make(id, &rng)
                if id % 1_000 == 999 { object.shelf = 99 }   // 20 objects, in 20 row pages
                return object
            }
            try store.write { try $0.add(objects) }
            try store.compact()
        }
        let store = try Self.open(url)
        let base = try #require(store.core.snapshot().tables["Shelved"]?.base)
        #expect(base.rowPages.count == 157)
        #expect(Self.cachedRowPages(base) == 0)   // checked at open, not kept
        let found = store.objects(Shelved.self).filter("shelf == 99")
        #expect(found.map(\.id) == Array(stride(from: 999, to: 20_000, by: 1_000)))
        // The rows found (slot = id here) and no other.
        #expect(Self.cachedRowPages(base) == 20)
        #expect(base.file.damage.error == nil)
    }

    /// Commits after the open sit beside the stored index; a compaction writes a new one; both
    /// stay true to the rows through reopening.
    @Test(arguments: [1, 2] as [UInt64])
    func indexesStayTrueAcrossCommitsAndCompaction(seed: UInt64) throws {
        var rng = SeededRandom(seed: seed)
        let url = S.temporaryFile()
        defer { S.cleanUp(url) }
        var expected = try Self.seed(1_000, &rng, url: url)
        var store: Store! = try Self.open(url)
        var nextId = expected.count
        for round in 0..<9 {
            try store.write { tx in
                for _ in 0..<40 {
                    switch Int.random(in: 0..<3, using: &rng) {
                    case 0:
                        let object = Shelved.make(nextId, &rng)
                        nextId += 1
                        try tx.add(object)
                        expected.append(object)
                    case 1 where !expected.isEmpty:
                        let i = Int.random(in: expected.indices, using: &rng)
                        var object = Shelved.make(expected[i].id, &rng)
                        object.id = expected[i].id
                        try tx.add(object, update: .modified)
                        expected[i] = object
                    default:
                        guard !expected.isEmpty else { continue }
                        let gone = expected.remove(at: Int.random(in: expected.indices, using: &rng))
                        try tx.delete(gone)
                    }
                }
            }
            expected.sort { $0.id < $1.id }
            Self.checkQueries(store, expected)
            if round % 4 == 1 { try store.compact() }
            if round % 3 == 2 {
                store = nil
                store = try Self.open(url)
                Self.checkQueries(store, expected)
            }
        }
        #expect(store._checkInvariants())
    }

    /// A compaction moves the running store to the new snapshot's stored indexes, whichever way
    /// it wrote the table: its pages copied (no row changed), rebuilt around replaced rows, or
    /// written from the rows (rows added and deleted). Each reads back as the rows' index.
    @Test func aCompactionMovesTheStoreToTheIndexesItWrote() throws {
        var rng = SeededRandom(seed: 34)
        let url = S.temporaryFile()
        defer { S.cleanUp(url) }
        var expected = try Self.seed(2_000, &rng, url: url)
        let store = try Self.open(url)
        func checkMoved(_ step: String) throws {
            let base = try #require(store.core.snapshot().tables["Shelved"]?.base)
            #expect(base.storedIndexes.map(\.field) == [1, 2, 3, 4, 5], "\(step)")
            for index in base.storedIndexes {
                var fromRows: [StoreValue: [Int]] = [:]
                base.forEachSlot { slot, row in fromRows[row![index.field], default: []].append(slot) }
                for (value, slots) in fromRows {
                    #expect(base.storedSlots(field: index.field, value: value) == slots, "\(step)")
                }
            }
            Self.checkQueries(store, expected)
            #expect(base.file.damage.error == nil)
        }
        try store.compact()   // nothing changed: the index pages are copied
        try checkMoved("copied")
        try store.write { tx in   // replaced rows only: the table keeps its slots
            for i in stride(from: 0, to: expected.count, by: 7) {
                var object = Shelved.make(expected[i].id, &rng)
                object.id = expected[i].id
                try tx.add(object, update: .modified)
                expected[i] = object
            }
        }
        try store.compact()
        try checkMoved("replaced")
        try store.write { tx in   // added and deleted: written from the rows
            try tx.delete(expected.removeFirst())
            let object = Shelved.make(9_000, &rng)
            try tx.add(object)
            expected.append(object)
        }
        try store.compact()
        try checkMoved("renumbered")
        #expect(store._checkInvariants())
    }

    /// A flipped byte in an index page of a snapshot checked whole at open is reported there,
    /// with the page's offset; the file is left as it was.
    @Test func aDamagedIndexPageOfASmallSnapshotIsReportedAtOpen() throws {
        var rng = SeededRandom(seed: 31)
        let url = S.temporaryFile()
        defer { S.cleanUp(url) }
        _ = try Self.seed(300, &rng, url: url)
        let page = try Self.open(url).core.snapshot().tables["Shelved"]!.base!.storedIndexes[2].pages[0]
        var bytes = S.bytes(url)
        bytes[page.offset + FileFormat.recordHeaderSize + 9] ^= 0x10
        S.write(bytes, to: url)
        #expect(throws: StoreError.corrupted(offset: page.offset, reason: S.payloadMismatch(bytes, record: page.offset))) {
            _ = try Self.open(url)
        }
        #expect(S.bytes(url) == bytes)
    }

    /// An index entry that names the wrong value, its checksums made right, is found by the
    /// check of a small snapshot at open.
    @Test func anIndexEntryThatDisagreesWithItsRowIsReported() throws {
        let url = S.temporaryFile()
        defer { S.cleanUp(url) }
        do {
            let store = try Self.open(url)
            try store.write { tx in
                for id in 0..<3 {
                    try tx.add(Shelved(id: id, shelf: 10 * (id + 1), title: "t", weight: 1, due: nil, code: nil))
                }
            }
            try store.compact()
        }
        let index = try Self.open(url).core.snapshot().tables["Shelved"]!.base!.storedIndex(field: 1)!
        var bytes = S.bytes(url)
        let record = index.pages[0].offset
        // The page's entries: (int 10, slot 0), (int 20, slot 1), (int 30, slot 2); make the
        // second entry's value 21 (zigzag 42): still in order, but slot 1 holds 20.
        let tail = record + FileFormat.recordHeaderSize + 1 + 1 + 4 * 4
        #expect(Array(bytes[tail..<tail + 9]) == [3, 20, 0, 3, 40, 1, 3, 60, 2])
        bytes[tail + 4] = 42
        S.stampChecksums(&bytes, record: record)
        S.write(bytes, to: url)
        #expect(throws: StoreError.corrupted(offset: record, reason: "an index entry of Shelved does not hold its row's value")) {
            _ = try Self.open(url)
        }
    }

    /// In a snapshot too big to be checked whole, an index page is checked when first read: a
    /// damaged one (before the open or changed under the running store) is reported then (writes
    /// stop), never used: the query is answered from the rows instead.
    @Test(arguments: [false, true])
    func aDamagedIndexPageIsReportedWhenFirstReadAndNotUsed(damagedBeforeOpen: Bool) throws {
        var rng = SeededRandom(seed: 32)
        let url = S.temporaryFile()
        defer { S.cleanUp(url) }
        let objects = try Self.seed(20_000, &rng, url: url)
        let index = try #require(try Self.open(url).core.snapshot().tables["Shelved"]?.base?.storedIndex(field: 1))
        let record = index.pages[index.pages.count / 2].offset
        var bytes = S.bytes(url)
        bytes[record + 40] ^= 0x04
        let running = damagedBeforeOpen ? nil : try Self.open(url)
        let handle = try FileHandle(forWritingTo: url)
        try handle.seek(toOffset: UInt64(record + 40))
        try handle.write(contentsOf: [bytes[record + 40]])
        try handle.close()
        let store = try running ?? Self.open(url)
        #expect(store.core.snapshot().tables["Shelved"]?.base?.file.damage.error == nil)
        let shelf = try #require(objects.first { $0.id == 10_000 }?.shelf)
        let found = store.objects(Shelved.self).filter("shelf == %@", shelf)
        #expect(Set(found.map(\.id)) == Set(objects.filter { $0.shelf == shelf }.map(\.id)))
        #expect(store.objects(Shelved.self).sorted(byKeyPath: "shelf").map(\.shelf) == objects.map(\.shelf).sorted())
        #expect(throws: StoreError.corrupted(offset: record, reason: S.payloadMismatch(bytes, record: record))) {
            try store.write { try $0.add(Shelved(id: -1, shelf: 0, title: "", weight: 0, due: nil, code: nil)) }
        }
    }

    /// A format 3 file (no index pages) opens in place, answers indexed queries from its rows,
    /// is not rewritten, and stores its indexes from its next compaction on.
    @Test func aFormatThreeFileStillOpens() throws {
        var rng = SeededRandom(seed: 33)
        let url = S.temporaryFile()
        defer { S.cleanUp(url) }
        var objects = try Self.seed(2_000, &rng, url: url)
        do {
            let store = try Self.open(url)
            let extra = Shelved.make(5_000, &rng)
            try store.write { try $0.add(extra) }
            objects.append(extra)
        }
        let old = S.inFormat(3, S.bytes(url))
        #expect(old[8] == 3 && old != S.bytes(url))
        S.write(old, to: url)
        do {
            let store = try Self.open(url)
            #expect(store.core.snapshot().tables["Shelved"]?.base?.storedIndexes.isEmpty == true)
            Self.checkQueries(store, objects)
        }
        #expect(S.bytes(url) == old)
        try Self.open(url).compact()
        #expect(S.bytes(url)[8] == UInt8(FileFormat.formatVersion))
        let reopened = try Self.open(url)
        #expect(reopened.core.snapshot().tables["Shelved"]?.base?.storedIndexes.count == 5)
        Self.checkQueries(reopened, objects)
    }
}

extension FileStoreSupport {
    /// The same file in an older paged format (3: no index pages; 4: row pages laid out by
    /// row), as the library wrote it then: the snapshot rewritten in that format, the log after
    /// it kept byte for byte.
    static func inFormat(_ format: UInt32, _ bytes: [UInt8]) -> [UInt8] {
        let whole = try! bytes.withUnsafeBytes { try FileFormat.read($0, path: "", codeSchemas: [:]) }
        let snapshot = try! Array(bytes[..<whole.snapshotEnd]).withUnsafeBytes { try FileFormat.read($0, path: "", codeSchemas: [:]) }
        var old = FileFormat.fileHeader(format: format)
        let meta = try! FileFormat.writePagedSnapshot(snapshot.tables, schemaVersion: snapshot.schemaVersion,
                                                      version: snapshot.version, format: format) { old += $0 }.meta
        old.replaceSubrange(FileFormat.headerSize..<FileFormat.headerSize + meta.count, with: meta)
        return old + bytes[whole.snapshotEnd...]
    }
}
