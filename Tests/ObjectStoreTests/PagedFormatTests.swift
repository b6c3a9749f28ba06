import Foundation
import Testing
import TestSupport
@testable import ObjectStore

/// Format 3: a store opened from a snapshot of pages reads its rows where they lie, and every
/// write after the open lives beside them until the next compaction. These tests run the store
/// on such a base (several row and key pages) against a brute-force model.
@Suite(.resourceCheck) struct PagedFormatTests {
    typealias S = FileStoreSupport

    static func open(_ url: URL) throws -> Store {
        try Store(configuration: .file(url: url, objectTypes: [Item.self], autoCompaction: .never))
    }

    /// `count` items written and compacted into a snapshot, then the file reopened (each time
    /// with `open`).
    static func seeded(_ count: Int, _ rng: inout SeededRandom, url: URL,
                       open: (URL) throws -> Store = PagedFormatTests.open) throws -> (Store, Model) {
        var model = Model()
        do {
            let store = try open(url)
            let items = (0..<count).map { Generator.item($0, &rng) }
            try store.write { try $0.add(items) }
            try store.compact()
            for item in items { model.upsert(item) }
        }
        let store = try open(url)
        return (store, model)
    }

    @Test func theBaseIsReadInPlaceNotDecodedAtOpen() throws {
        var rng = SeededRandom(seed: 5)
        let url = S.temporaryFile()
        defer { S.cleanUp(url) }
        let (store, model) = try Self.seeded(1_000, &rng, url: url)
        let table = try #require(store.core.snapshot().tables["Item"])
        let base = try #require(table.base)
        #expect(base.count == 1_000 && base.rowPages.count == 8 && base.keyPages.count == 2)
        // A small snapshot is checked whole at open; its pages are in the cache. Counting and
        // reading by key need no more.
        #expect(store.objects(Item.self).count == 1_000)
        for id in [0, 511, 512, 999] {
            #expect(store.object(ofType: Item.self, forPrimaryKey: id) == model.items[id])
        }
        #expect(store.object(ofType: Item.self, forPrimaryKey: 1_000) == nil)
        #expect(store.object(ofType: Item.self, forPrimaryKey: -1) == nil)
        #expect(store.objects(Item.self).toArray() == model.items)
        #expect(store.objects(Item.self).filter("group == 3").toArray() == model.items.filter { $0.group == 3 })
        #expect(store._checkInvariants())
    }

    /// Random transactions on a base, with reopening (the log replayed onto the base) and
    /// compaction (a new base) along the way: every read matches the model.
    @Test(arguments: [11, 12, 13] as [UInt64])
    func randomWritesOnABaseMatchBruteForce(seed: UInt64) throws {
        var rng = SeededRandom(seed: seed)
        let url = S.temporaryFile()
        defer { S.cleanUp(url) }
        let (seededStore, seededModel) = try Self.seeded(700, &rng, url: url)
        var store: Store! = seededStore
        var model = seededModel
        var nextId = 700
        for round in 0..<90 {
            var pending = model
            try store.write { tx in
                for _ in 0..<Int.random(in: 1...6, using: &rng) {
                    let roll = Int.random(in: 0..<10, using: &rng)
                    if roll < 3 || pending.items.isEmpty {
                        // A new key, or one deleted before (added back after the base).
                        let id = Bool.random(using: &rng) ? nextId : Int.random(in: 0..<nextId, using: &rng)
                        if id == nextId { nextId += 1 }
                        guard !pending.items.contains(where: { $0.id == id }) else { continue }
                        let item = Generator.item(id, &rng)
                        try tx.add(item)
                        pending.upsert(item)
                    } else if roll < 7 {
                        var item = pending.items.randomElement(using: &rng)!
                        let fresh = Generator.item(item.id, &rng)
                        if Bool.random(using: &rng) { item.group = fresh.group } else { item.score = fresh.score; item.label = fresh.label }
                        try tx.add(item, update: .modified)
                        pending.upsert(item)
                    } else {
                        let item = pending.items.randomElement(using: &rng)!
                        try tx.delete(item)
                        pending.delete(item.id)
                    }
                }
            }
            model = pending
            if round % 30 == 29 {
                // Closed and opened again: the last snapshot becomes the base, the log since
                // it is replayed onto it.
                store = nil
                store = try Self.open(url)
                #expect(store.core.snapshot().tables["Item"]?.base != nil)
            }
            if round % 45 == 44 {
                try store.compact()
            }
            let reads = store.objects(Item.self)
            // Insertion order: rows added after the base come after it, in the order added.
            #expect(reads.toArray() == model.items)
            #expect(reads.count == model.items.count)
            for _ in 0..<3 {
                let q = Generator.query(&rng)
                #expect(Set(store.objects(Item.self).filter(q.text).map(\.id)) == Set(model.items.filter(q.test).map(\.id)), "\(q.text)")
            }
            let g = Int.random(in: 0..<5, using: &rng)
            #expect(Set(store.objects(Item.self).filter("group == \(g)").map(\.id)) == Set(model.items.filter { $0.group == g }.map(\.id)))
            let probe = Int.random(in: 0..<nextId, using: &rng)
            #expect(store.object(ofType: Item.self, forPrimaryKey: probe) == model.items.first { $0.id == probe })
        }
        #expect(store._checkInvariants())
        let byKey = Dictionary(uniqueKeysWithValues: model.items.map { ($0.id, $0) })
        // Reopened from the file alone (another process's view): the same objects.
        let reopened = try Self.reopenedElsewhere(url)
        #expect(reopened.count == byKey.count && reopened.allSatisfy { byKey[$0.id] == $0 })
    }

    /// The file's contents as a fresh reader sees them (read whole from its bytes).
    static func reopenedElsewhere(_ url: URL) throws -> [Item] {
        let bytes = S.bytes(url)
        let schema = try ObjectSchema.of(Item.self)
        let contents = try bytes.withUnsafeBytes { try FileFormat.read($0, path: url.path, codeSchemas: ["Item": schema]) }
        let snapshot = Snapshot(version: contents.version, tables: contents.tables)
        var items: [Item] = []
        snapshot.tables["Item"]?.forEachRow { _, row in
            items.append(try! RowDecoder.decode(Item.self, row: row, schema: schema, snapshot: snapshot))
        }
        return items
    }

    @Test func keysOfEveryKindAreFoundInTheirPages() throws {
        let url = S.temporaryFile()
        defer { S.cleanUp(url) }
        let names = (0..<1_500).map { "name-\($0 * 7919 % 1_500)-é" }
        do {
            let store = try Store(configuration: .file(url: url, objectTypes: [Entry.self]))
            try store.write { tx in for (i, name) in names.enumerated() { try tx.add(Entry(id: name, batch: i, payload: "")) } }
            try store.compact()
        }
        let store = try Store(configuration: .file(url: url, objectTypes: [Entry.self]))
        for (i, name) in names.enumerated() {
            #expect(store.object(ofType: Entry.self, forPrimaryKey: name)?.batch == i)
        }
        #expect(store.object(ofType: Entry.self, forPrimaryKey: "name-") == nil)
        #expect(store.object(ofType: Entry.self, forPrimaryKey: "") == nil)
        #expect(store.object(ofType: Entry.self, forPrimaryKey: "zzz") == nil)
    }

    /// The check at open walks values without building them; it accepts exactly what a read
    /// followed by the kind check accepts, and ends at the same byte: random values (valid,
    /// then with bytes flipped or cut) against every kind of check.
    @Test func checkingAValueInPlaceAgreesWithReadingIt() {
        var rng = SeededRandom(seed: 31)
        let checks: [ValueCheck] = [.int, .double, .bool, .string, .date, .data, .uuid, .decimal, .link, .any,
                                    .list(.int), .list(.string), .list(.link), .list(.list(.any))]
        func randomValue(_ depth: Int) -> StoreValue {
            switch Int.random(in: 0..<(depth > 2 ? 10 : 12), using: &rng) {
            case 0: return .null
            case 1: return .bool(Bool.random(using: &rng))
            case 2: return .int(Int64.random(in: Int64.min...Int64.max, using: &rng))
            case 3: return .double(Double.random(in: -1e9...1e9, using: &rng))
            case 4: return .string(["", "a", "é", "pizza margherita", "日本", String(repeating: "x", count: 20)].randomElement(using: &rng)!)
            case 5: return .date(Date(timeIntervalSinceReferenceDate: Double(Int.random(in: 0..<1_000_000, using: &rng))))
            case 6: return .data(Data((0..<Int.random(in: 0..<5, using: &rng)).map { UInt8($0) }))
            case 7: return .uuid(UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!)
            case 8: return .decimal(Decimal(string: "12.5")!)
            case 9: return .int(Int64.random(in: -5...5, using: &rng))
            case 10: return .list((0..<Int.random(in: 0..<4, using: &rng)).map { _ in randomValue(depth + 1) })
            default: return .map(["k": randomValue(depth + 1), "l": .int(1)])
            }
        }
        var agreed = 0, quickAccepted = 0
        for round in 0..<3_000 {
            var w = ByteWriter()
            w.value(randomValue(0))
            var bytes = w.bytes
            if round % 3 == 1 { bytes[Int.random(in: 0..<bytes.count, using: &rng)] ^= UInt8.random(in: 1...255, using: &rng) }
            if round % 3 == 2 { bytes.removeLast(Int.random(in: 0..<bytes.count, using: &rng)) }
            let check = checks.randomElement(using: &rng)!
            let optional = Bool.random(using: &rng)
            bytes.withUnsafeBytes { raw in
                var reader = ByteReader(raw, from: 0, to: raw.count)
                let read: Int? = (try? reader.value()).flatMap { check.accepts($0, optional: optional) ? reader.position : nil }
                var skipper = ByteReader(raw, from: 0, to: raw.count)
                let skipped: Int? = (try? skipper.skipValue(check, optional: optional)).map { skipper.position }
                #expect(read == skipped, "\(bytes) \(check) optional \(optional)")
                if read != nil { agreed += 1 }
            }
            // The quick check of a page accepts a row of this one value only where the full
            // check accepts the value and it ends the row (what it refuses, the full check
            // decides): the row alone in its record, and followed by other bytes (so a short
            // string is read as one word).
            if let rule = TagRule(check, optional: optional) {
                for padding in [0, Int.random(in: 1...9, using: &rng)] {
                    let record = [1] + bytes + (0..<padding).map { _ in UInt8.random(in: 0...255, using: &rng) }
                    let accepted = record.withUnsafeBytes { raw in
                        [0, 1 + bytes.count].withUnsafeBufferPointer { offsets in
                            [rule].withUnsafeBufferPointer { PlainRows.firstRowNotFitting(raw, offsets: offsets, rules: $0) == 1 }
                        }
                    }
                    if accepted {
                        quickAccepted += 1
                        let skipped: Int? = bytes.withUnsafeBytes { raw in
                            var skipper = ByteReader(raw, from: 0, to: raw.count)
                            return (try? skipper.skipValue(check, optional: optional)).map { skipper.position }
                        }
                        #expect(skipped == bytes.count, "\(bytes) \(check) optional \(optional)")
                    }
                }
            }
        }
        #expect(agreed > 300 && quickAccepted > 200)
    }

    /// The quick check of a page on the values at its edges: strings of every length up to 20
    /// with one byte that is not UTF-8 at each place (read byte by byte, or as one word when
    /// eight bytes follow the start), and varints of ten bytes whose last byte is 0 to 3
    /// (only 0 and 1 fit in 64 bits) or of eleven bytes. Each agrees with the full check.
    @Test func theQuickCheckOfAPageAgreesWithTheFullOneAtTheEdges() {
        func agree(_ value: [UInt8], _ check: ValueCheck) {
            let full: Bool = value.withUnsafeBytes { raw in
                var skipper = ByteReader(raw, from: 0, to: raw.count)
                return (try? skipper.skipValue(check, optional: false)) != nil && skipper.isAtEnd
            }
            for padding in [0, 1, 8] {
                let record = [1] + value + Array(repeating: 0x41, count: padding)
                let quick = record.withUnsafeBytes { raw in
                    [0, 1 + value.count].withUnsafeBufferPointer { offsets in
                        [TagRule(check, optional: false)!].withUnsafeBufferPointer {
                            PlainRows.firstRowNotFitting(raw, offsets: offsets, rules: $0) == 1
                        }
                    }
                }
                #expect(quick == full, "\(value) padded with \(padding)")
            }
        }
        for length in 0...20 {
            let ascii = [UInt8](repeating: 0x61, count: length)
            agree([ByteWriter.tagString, UInt8(length)] + ascii, .string)
            for place in 0..<length {
                var bad = ascii
                bad[place] = 0xFF
                agree([ByteWriter.tagString, UInt8(length)] + bad, .string)
            }
        }
        for last: UInt8 in 0...3 {
            agree([ByteWriter.tagInt] + Array(repeating: 0xFF, count: 9) + [last], .int)
        }
        agree([ByteWriter.tagInt] + Array(repeating: 0xFF, count: 10) + [0], .int)
    }

    /// A snapshot over the whole-check limit whose checksums are right but whose key page
    /// names another object's slot for a key: a lookup of that key finds the row does not hold
    /// it, reports the damage (no write goes on top) and returns no object rather than the
    /// wrong one; the file is left alone.
    @Test func aKeyPageNamingTheWrongRowIsReportedNotFollowed() throws {
        let url = S.temporaryFile()
        defer { S.cleanUp(url) }
        let (bytes, page) = try S.snapshotWithAKeyNamingTheWrongRow(url)
        let store = try Store(configuration: .file(url: url, objectTypes: [Entry.self]))
        #expect(store.object(ofType: Entry.self, forPrimaryKey: "k1")?.batch == 1)
        #expect(store.object(ofType: Entry.self, forPrimaryKey: "k0") == nil)
        let damage = StoreError.corrupted(offset: page, reason: "a Entry key page names slot 1 for a key its row does not hold")
        #expect(throws: damage) {
            try store.write { tx in try tx.add(Entry(id: "k0", batch: -1, payload: "replaced"), update: .modified) }
        }
        #expect(store.object(ofType: Entry.self, forPrimaryKey: "k1")?.payload == "p1")
        let untouched = S.bytes(url) == bytes
        #expect(untouched)
    }

    @Test func theKeyOrderTellsKindsApartAndIsTotal() {
        let values: [StoreValue] = [.int(-5), .int(3), .int(Int64.max), .double(1), .double(-2), .string(""), .string("a"),
                                    .string("é"), .string("e\u{301}"), .uuid(UUID(uuidString: "00000000-0000-0000-0000-000000000001")!),
                                    .uuid(UUID(uuidString: "10000000-0000-0000-0000-000000000000")!), .bool(true), .null]
        for a in values {
            for b in values {
                let c = keyCompare(a, b)
                #expect(c == -keyCompare(b, a))
                #expect((c == 0) == (a == b), "\(a) \(b)")
                for d in values where c < 0 && keyCompare(b, d) < 0 { #expect(keyCompare(a, d) < 0) }
            }
        }
    }

    /// The page cache stays within its budget however much is read, and what was dropped is
    /// read again when needed.
    @Test func theCacheStaysWithinItsBudget() throws {
        var rng = SeededRandom(seed: 8)
        let url = S.temporaryFile()
        defer { S.cleanUp(url) }
        _ = try Self.seeded(3_000, &rng, url: url)
        let bytes = S.bytes(url)
        let schema = try ObjectSchema.of(Item.self)
        let file = PagedFile(path: url.path, source: .bytes(bytes), damage: DamageReport(), cacheBudget: 64 << 10)
        let contents = try FileFormat.readPaged(file, size: bytes.count, codeSchemas: ["Item": schema])
        let table = try #require(contents.tables["Item"])
        var seen = 0
        for _ in 0..<2 {
            table.forEachRow { _, _ in seen += 1 }
            #expect(file.cachedBytes <= 64 << 10)
        }
        #expect(seen == 6_000)
        for key in stride(from: 0, to: 3_000, by: 37) {
            #expect(table.row(forKey: .int(Int64(key)))?[0] == .int(Int64(key)))
            #expect(file.cachedBytes <= 64 << 10)
        }
        #expect(file.damage.error == nil)
    }

    /// A page damaged after the store opened (the file changed under it) is found when it is
    /// first read: its rows read as missing, and the store refuses to write from then on, so
    /// nothing is built on top of the damage and no compaction drops the rows.
    @Test func damageFoundAfterOpenStopsWrites() throws {
        let url = S.temporaryFile()
        defer { S.cleanUp(url) }
        let text = String(repeating: "y", count: 200)
        do {
            let store = try Store(configuration: .file(url: url, objectTypes: [Entry.self]))
            try store.write { tx in for i in 0..<30_000 { try tx.add(Entry(id: "k\(i)", batch: i, payload: text)) } }
            try store.compact()
        }
        let store = try Store(configuration: .file(url: url, objectTypes: [Entry.self]))
        var bytes = S.bytes(url)
        let records = S.recordOffsets(bytes)
        bytes[records[3] + 40] ^= 0x04   // the third row page: rows 256 ..< 384
        let handle = try FileHandle(forWritingTo: url)
        try handle.seek(toOffset: UInt64(records[3] + 40))
        try handle.write(contentsOf: [bytes[records[3] + 40]])
        try handle.close()
        #expect(store.object(ofType: Entry.self, forPrimaryKey: "k300") == nil)
        #expect(store.object(ofType: Entry.self, forPrimaryKey: "k200")?.batch == 200)
        #expect(store.objects(Entry.self).filter("batch >= 0").count == 30_000 - 128)
        // Once found, the damaged page's rows are missing from every listing, so every element
        // listed can be read.
        let all = store.objects(Entry.self)
        #expect(all.count == 30_000 - 128)
        #expect(all.map(\.batch).count == 30_000 - 128)
        #expect(throws: StoreError.corrupted(offset: records[3], reason: S.payloadMismatch(bytes, record: records[3]))) {
            try store.write { try $0.add(Entry(id: "new", batch: 0, payload: "")) }
        }
        #expect(throws: StoreError.corrupted(offset: records[3], reason: S.payloadMismatch(bytes, record: records[3]))) {
            try store.compact()
        }
    }
}

extension FileStoreSupport {
    /// Writes at `url` a compacted file of 20,000 entries (larger than the whole-check limit)
    /// whose first key page lists "k0" under slot 1 (the row of "k1"), with right checksums;
    /// returns the file's bytes and the key page's offset.
    static func snapshotWithAKeyNamingTheWrongRow(_ url: URL) throws -> (bytes: [UInt8], keyPage: Int) {
        do {
            let store = try Store(configuration: .file(url: url, objectTypes: [Entry.self]))
            try store.write { tx in for i in 0..<20_000 { try tx.add(Entry(id: "k\(i)", batch: i, payload: "p\(i)")) } }
            try store.compact()
        }
        var bytes = Self.bytes(url)
        #expect(bytes.count > FileFormat.checkWholeSnapshotUpTo)
        // The first key page lists the smallest key first: "k0", in slot 0. Make it name slot 1.
        let page = try #require(recordOffsets(bytes).first { bytes[$0 + FileFormat.recordHeaderSize] == 7 })
        let payload = page + FileFormat.recordHeaderSize
        let keyCount = Int(bytes[payload + 1] & 0x7F) | Int(bytes[payload + 2]) << 7   // a two-byte varint
        let entries = payload + 3 + 4 * (keyCount + 1)
        #expect(Array(bytes[entries..<entries + 5]) == [5, 2, UInt8(ascii: "k"), UInt8(ascii: "0"), 0])
        bytes[entries + 4] = 1
        stampChecksums(&bytes, record: page)
        write(bytes, to: url)
        return (bytes, page)
    }
}
