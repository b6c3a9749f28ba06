import Foundation
import Streams
import Testing
import TestSupport
@testable import ObjectStore

/// A snapshot larger than the whole-check limit is not read at open: each page is checked when
/// first read, and all of a table's pages the first time its objects are listed. Damage is
/// found there, never read as data: the damaged page's objects are left out, writes stop with
/// the damage, and an observation meeting it ends with `.error`.
@Suite(.resourceCheck) struct DamageOnFirstReadTests {
    typealias S = FileStoreSupport

    /// A compacted file of `count` entries (their payloads `text`), larger than the whole-check limit.
    static func seeded(_ url: URL, count: Int = 30_000, text: String = String(repeating: "x", count: 200)) throws -> [UInt8] {
        do {
            let store = try Store(configuration: .file(url: url, objectTypes: [Entry.self]))
            try store.write { tx in for i in 0..<count { try tx.add(Entry(id: "k\(i)", batch: i, payload: text)) } }
            try store.compact()
        }
        let bytes = S.bytes(url)
        #expect(bytes.count > FileFormat.checkWholeSnapshotUpTo)
        return bytes
    }

    static func open(_ url: URL, cacheBudget: Int = PagedFile.defaultCacheBudget) throws -> Store {
        var configuration = Store.Configuration.file(url: url, objectTypes: [Entry.self], autoCompaction: .never)
        configuration.pageCacheBudget = cacheBudget
        return try Store(configuration: configuration)
    }

    /// A flipped byte in a row page, a key page, or two pages: the open succeeds without
    /// reading them; listing the objects checks every page, leaves a damaged row page's objects
    /// out (every object listed reads), and the first damage in the file stops writes.
    @Test func aDamagedPageIsFoundWhenItsTableIsListed() throws {
        let url = S.temporaryFile()
        defer { S.cleanUp(url) }
        let original = try Self.seeded(url)
        let records = S.recordOffsets(original)
        let rowPage = records[1], middle = records[records.count / 2], last = records[records.count - 2]
        for damagedAt in [[rowPage], [middle], [last], [last, records[2]]] {
            var damaged = original
            for record in damagedAt { damaged[record + 40] ^= 0x04 }
            S.write(damaged, to: url)
            let first = damagedAt.min()!
            let expected = StoreError.corrupted(offset: first, reason: S.payloadMismatch(original, record: first))
            do {
                let store = try Self.open(url)
                let all = store.objects(Entry.self)
                let count = all.count                  // checks the pages a listing would
                let listed = Array(store.objects(Entry.self))
                #expect(count == listed.count)
                // Every position below the count is one the listing has (a table's data source).
                #expect((0..<count).map { all[$0].id } == listed.map(\.id))
                #expect(listed.count <= 30_000 && listed.count >= 30_000 - 128 * damagedAt.count)
                #expect(Set(listed.map(\.id)).count == listed.count)
                #expect(throws: expected) { try store.write { try $0.add(Entry(id: "new", batch: 0, payload: "")) } }
            }
            #expect(S.bytes(url) == damaged)
        }
        // The first row page holds k0 ..< k128: its objects are the ones left out.
        var damaged = original
        damaged[rowPage + 40] ^= 0x04
        S.write(damaged, to: url)
        let store = try Self.open(url)
        #expect(store.objects(Entry.self).map(\.batch) == Array(128..<30_000))
        #expect(store.object(ofType: Entry.self, forPrimaryKey: "k5") == nil)
        #expect(store.object(ofType: Entry.self, forPrimaryKey: "k29999")?.batch == 29_999)
    }

    /// Damage found after the open is told to the app once, through every live store's
    /// `onDamage` (a store made after it is told at once), and kept in `Store.damage`; nothing
    /// is told before a damaged page is read.
    @Test func theAppIsToldOfDamageWhenItIsFound() throws {
        let url = S.temporaryFile()
        defer { S.cleanUp(url) }
        var bytes = try Self.seeded(url)
        let rowPage = S.recordOffsets(bytes)[1]
        let expected = StoreError.corrupted(offset: rowPage, reason: S.payloadMismatch(bytes, record: rowPage))
        bytes[rowPage + 40] ^= 0x04
        S.write(bytes, to: url)
        let told = LockedValue<[StoreError]>([]), toldLater = LockedValue<[StoreError]>([])
        let arrived = DispatchSemaphore(value: 0)
        var configuration = Store.Configuration.file(url: url, objectTypes: [Entry.self], autoCompaction: .never)
        configuration.onDamage = { error in
            told.mutate { $0.append(error) }
            arrived.signal()
        }
        let store = try Store(configuration: configuration)
        #expect(store.object(ofType: Entry.self, forPrimaryKey: "k29999")?.batch == 29_999)   // a sound page
        #expect(store.damage == nil)
        #expect(told.get().isEmpty)
        #expect(store.object(ofType: Entry.self, forPrimaryKey: "k5") == nil)                  // the damaged one
        #expect(store.damage == expected)
        #expect(arrived.wait(timeout: .now() + 10) == .success)
        _ = Array(store.objects(Entry.self))                                                   // meets it again
        #expect(throws: expected) { try store.write { try $0.add(Entry(id: "new", batch: 0, payload: "")) } }
        configuration.onDamage = { error in
            toldLater.mutate { $0.append(error) }
            arrived.signal()
        }
        let later = try Store(configuration: configuration)
        #expect(arrived.wait(timeout: .now() + 10) == .success)
        #expect(later.damage == expected)
        #expect(arrived.wait(timeout: .now() + 0.2) == .timedOut)                              // nothing more
        #expect(told.get() == [expected])
        #expect(toldLater.get() == [expected])
    }

    /// A compaction that wrote a table from checked rows, or copied pages that were all checked,
    /// moves the store to pages it need not check again before a count; pages copied unchecked
    /// are still checked by the first count after the move.
    @Test func aCompactionCarriesOverWhatWasChecked() throws {
        let url = S.temporaryFile()
        defer { S.cleanUp(url) }
        _ = try Self.seeded(url)
        let store = try Self.open(url)
        func checked() -> Bool? { store.core.snapshot().tables["Entry"]?.base?.isAllChecked }
        #expect(checked() == false)                                   // opened without reading its pages
        try store.write { try $0.add(Entry(id: "k7", batch: -7, payload: "new"), update: .modified) }
        try store.compact()                                           // pages copied, none checked
        #expect(checked() == false)
        #expect(store.objects(Entry.self).count == 30_000)            // the count checks them
        #expect(checked() == true)
        try store.write { try $0.add(Entry(id: "k8", batch: -8, payload: "new"), update: .modified) }
        try store.compact()                                           // copied from checked pages
        #expect(checked() == true)
        try store.write { _ = try $0.delete(Entry.self, forPrimaryKey: "k9") }
        try store.compact()                                           // written from its rows
        #expect(checked() == true)
        #expect(store.objects(Entry.self).count == 29_999)
        #expect(Array(store.objects(Entry.self)).count == 29_999)
    }

    /// A snapshot whose checksums are right but whose row holds a value of the wrong kind (only
    /// a program writing the format by hand makes one): a read of that row reports it, as the
    /// damage of the page, and the file is left alone.
    @Test func aWrongRowWithRightChecksumsIsReportedWhenRead() throws {
        let url = S.temporaryFile()
        defer { S.cleanUp(url) }
        var bytes = try Self.seeded(url, count: 20_000, text: "p")
        let page = S.recordOffsets(bytes)[5]
        // Row 0's `id` (a string): the first of the first field's tags becomes data's (7).
        let payload = page + FileFormat.recordHeaderSize
        let tagsStart = payload + 1 + 2 + 1 + 8 * 3   // kind, rowCount 128 (2 bytes), fieldCount, field ends
        #expect(bytes[tagsStart] == 5)
        bytes[tagsStart] = 7
        S.stampChecksums(&bytes, record: page)
        S.write(bytes, to: url)
        let store = try Self.open(url)
        #expect(store.objects(Entry.self).filter("batch >= 0").count == 20_000 - 1)   // the row read, left out
        #expect(throws: StoreError.corrupted(offset: page, reason: "row 0 of a Entry page: Entry.id holds data, not string")) {
            try store.write { try $0.add(Entry(id: "new", batch: 0, payload: "")) }
        }
        #expect(S.bytes(url) == bytes)
    }

    /// An observation whose first evaluation meets a damaged page sends the damage instead of
    /// `.initial`, and nothing after it.
    @Test func anObservationThatMeetsDamageAtItsStartGetsTheError() throws {
        let url = S.temporaryFile()
        defer { S.cleanUp(url) }
        var bytes = try Self.seeded(url)
        let record = S.recordOffsets(bytes)[3]
        let original = bytes
        bytes[record + 40] ^= 0x04
        S.write(bytes, to: url)
        let store = try Self.open(url)
        let events = UncheckedBox<[String]>([])
        let subscription = store.objects(Entry.self).observe(on: ImmediateScheduler.instance).subscribe { event in
            switch event {
            case .next(.initial): events.value.append("initial")
            case .next(.update): events.value.append("update")
            case .next(.error(let error)): events.value.append("\(error)")
            case .error, .completed: events.value.append("end")
            }
        }
        defer { subscription.dispose() }
        let damage = StoreError.corrupted(offset: record, reason: S.payloadMismatch(original, record: record))
        #expect(events.value == ["\(damage)"])
        #expect(store.core.observerForTesting(ResultsWatcher<Entry>.self) == nil)
    }

    /// A page dropped from the cache and changed in the file under the store is read again by
    /// the observation's re-evaluation after a commit (one touching enough objects that the
    /// query is evaluated again rather than the objects placed): the observer gets the damage
    /// as `.error`, and the Streams forms end with it as their error.
    @Test func anObservationThatMeetsDamageAfterACommitGetsTheError() throws {
        let url = S.temporaryFile()
        defer { S.cleanUp(url) }
        let bytes = try Self.seeded(url)
        let store = try Self.open(url, cacheBudget: 64 << 10)
        let events = UncheckedBox<[String]>([])
        let results = store.objects(Entry.self).filter("batch >= 0")
        let subscription = results.observe(on: ImmediateScheduler.instance).subscribe(onNext: { change in
            switch change {
            case .initial(let r): events.value.append("initial \(r.count)")
            case .update(let r, _, let insertions, _): events.value.append("update \(r.count) \(insertions)")
            case .error(let error): events.value.append("\(error)")
            }
        })
        defer { subscription.dispose() }
        let arrays = UncheckedBox<[String]>([])
        let asArrays = results.asObservable(on: ImmediateScheduler.instance)
            .subscribe(onNext: { arrays.value.append("\($0.count)") }, onError: { arrays.value.append("\($0)") })
        defer { asArrays.dispose() }
        try store.write { try $0.add(Entry(id: "new", batch: 1, payload: "")) }
        #expect(events.value == ["initial 30000", "update 30001 [30000]"])
        // The third row page (k256 ..< k384), long dropped from the 64 KiB cache, changes on disk.
        let record = S.recordOffsets(bytes)[3]
        let handle = try FileHandle(forWritingTo: url)
        try handle.seek(toOffset: UInt64(record + 40))
        try handle.write(contentsOf: [bytes[record + 40] ^ 0x04])
        try handle.close()
        try store.write { tx in for i in 0..<1_000 { try tx.add(Entry(id: "newer\(i)", batch: 2, payload: "")) } }
        let damage = StoreError.corrupted(offset: record, reason: S.payloadMismatch(bytes, record: record))
        #expect(events.value == ["initial 30000", "update 30001 [30000]", "\(damage)"])
        #expect(arrays.value == ["30000", "30001", "\(damage)"])
        #expect(throws: damage) { try store.write { try $0.add(Entry(id: "newest", batch: 3, payload: "")) } }
    }
}
