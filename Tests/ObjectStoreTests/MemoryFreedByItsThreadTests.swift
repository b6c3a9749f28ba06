import Foundation
import Testing
import TestSupport
@testable import ObjectStore

/// What a writer replaces is freed by the writer, and a page by the thread that read it: a
/// block is freed under the lock of the heap it came from, which a writer in a large commit
/// holds for milliseconds at a time, so a reader that freed the writer's blocks would wait for
/// it (issue 29's reader that must not miss a frame).
@Suite(.resourceCheck) struct MemoryFreedByItsThreadTests {
    typealias S = FileStoreSupport

    /// A reader lets go of a snapshot a commit replaced: it is not freed then, on the reader's
    /// thread, but by the next write.
    @Test func aReplacedSnapshotIsFreedByTheWriterNotByItsLastReader() throws {
        let store = Store()
        try store.write { try $0.add(Entry(id: "a", batch: 1, payload: "")) }
        weak var held: Snapshot?
        do {
            let snapshot = store.core.snapshot()   // a reader holds it
            held = snapshot
            try store.write { try $0.add(Entry(id: "b", batch: 2, payload: "")) }
            withExtendedLifetime(snapshot) { #expect(held != nil) }
        }
        #expect(held != nil)                       // the reader let go: still kept for the writer
        try store.write { try $0.add(Entry(id: "c", batch: 3, payload: "")) }
        #expect(held == nil)                       // freed by that write
    }

    /// With no reader holding it, a replaced snapshot is freed by the write that replaced it,
    /// so a writer running alone holds nothing more than before.
    @Test func aSnapshotNoOneHoldsIsFreedByTheWriteThatReplacedIt() throws {
        let store = Store()
        try store.write { try $0.add(Entry(id: "a", batch: 1, payload: "")) }
        weak let replaced: Snapshot? = store.core.snapshot()
        #expect(replaced != nil)
        try store.write { try $0.add(Entry(id: "b", batch: 2, payload: "")) }
        #expect(replaced == nil)
    }

    /// Snapshots readers keep are not all kept for the writer: past the limit, the oldest is
    /// left to its last reader.
    @Test func theSnapshotsKeptForTheWriterAreBounded() throws {
        let store = Store()
        var held: [Snapshot] = []
        for i in 0..<(StoreCore.retiredLimit * 3) {
            held.append(store.core.snapshot())
            try store.write { try $0.add(Entry(id: "k\(i)", batch: i, payload: "")) }
            #expect(store.core.retiredCount <= StoreCore.retiredLimit)
        }
        #expect(store.core.retiredCount == StoreCore.retiredLimit)
        held = []
        try store.write { try $0.add(Entry(id: "last", batch: 0, payload: "")) }
        #expect(store.core.retiredCount == 0)
    }

    /// A file of `count` entries whose pages are read when first needed (larger than the
    /// snapshot checked whole at open).
    static func seeded(_ url: URL, count: Int = 3_000) throws {
        let store = try Store(configuration: .file(url: url, objectTypes: [Entry.self]))
        try store.write { tx in
            for i in 0..<count { try tx.add(Entry(id: "k\(i)", batch: i, payload: String(repeating: "x", count: 200))) }
        }
        try store.compact()
        #expect(S.bytes(url).count > FileFormat.checkWholeSnapshotUpTo)
    }

    static func open(_ url: URL, cacheBudget: Int = PagedFile.defaultCacheBudget) throws -> Store {
        var configuration = Store.Configuration.file(url: url, objectTypes: [Entry.self], autoCompaction: .never)
        configuration.pageCacheBudget = cacheBudget
        return try Store(configuration: configuration)
    }

    /// Runs `body` on a thread of its own and waits for it.
    static func onAnotherThread(_ body: @escaping @Sendable () -> Void) {
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            body()
            done.signal()
        }
        thread.start()
        done.wait()
    }

    /// The entry of the row page holding `slot`, if cached.
    static func cachedRowPage(_ table: PagedTable, slot: Int) -> PageEntry? {
        let key = PageKey(table: ObjectIdentifier(table), page: slot / PagedTable.rowsPerPage, isKeyPage: false)
        return table.file.withLock { table.file.entries[key] }
    }

    /// The row a write looks up to compare is not kept in a page another thread read; in a
    /// page the writer read itself, it is.
    @Test func aWriterKeepsNoRowInAPageAnotherThreadRead() throws {
        let url = S.temporaryFile()
        defer { S.cleanUp(url) }
        try Self.seeded(url)
        let store = try Self.open(url)
        let table = try #require(store.core.snapshot().tables["Entry"]?.base)
        let box = UncheckedBox(store)
        Self.onAnotherThread { _ = box.value.object(ofType: Entry.self, forPrimaryKey: "k1") }
        let page = try #require(Self.cachedRowPage(table, slot: 1))
        #expect(pthread_equal(page.reader, pthread_self()) == 0)
        #expect(page.rows[1] != nil)                                           // the reader's row
        #expect(page.rows[2] == nil)
        try store.write { try $0.add(Entry(id: "k2", batch: -2, payload: "changed"), update: .modified) }
        #expect(page.rows[2] == nil)                                           // looked up, not kept
        // A page this thread reads itself keeps the rows the writer looks up (a `.modified`
        // write compares the stored row's bytes and decodes none: `.all` reads the row).
        let last = 2_999
        #expect(Self.cachedRowPage(table, slot: last) == nil)
        try store.write { try $0.add(Entry(id: "k\(last)", batch: -1, payload: "changed"), update: .all) }
        let own = try #require(Self.cachedRowPage(table, slot: last))
        #expect(own.rows[last % PagedTable.rowsPerPage] != nil)
    }

    /// A page another thread read, dropped from the cache while this thread reads, waits for
    /// that thread to free it; too many such pages are freed on a queue of their own, never
    /// by this thread, and never pile up.
    @Test func aDroppedPageWaitsForTheThreadThatReadIt() throws {
        let url = S.temporaryFile()
        defer { S.cleanUp(url) }
        try Self.seeded(url)
        let store = try Self.open(url, cacheBudget: 32 << 10)
        let table = try #require(store.core.snapshot().tables["Entry"]?.base)
        let box = UncheckedBox(store)
        let entries = LockedValue<[PageEntry?]>([])
        Self.onAnotherThread {
            _ = box.value.object(ofType: Entry.self, forPrimaryKey: "k0")
            entries.set([Self.cachedRowPage(table, slot: 0)])
        }
        weak let page = entries.get()[0]
        entries.set([])
        #expect(page != nil)
        // This thread reads enough pages to drop it: it is left for its reader.
        for i in stride(from: 1_000, to: 3_000, by: 25) { _ = store.object(ofType: Entry.self, forPrimaryKey: "k\(i)") }
        #expect(page?.cached == false)
        #expect(page != nil)
        #expect(table.file.withLock { table.file.dropped.count } <= PagedFile.pendingLimit)
        // Its reader comes back to the cache and frees it.
        Self.onAnotherThread { _ = box.value.object(ofType: Entry.self, forPrimaryKey: "k1") }
        #expect(page == nil)
        // Many pages of another thread, all dropped while this one reads: never more than the
        // limit wait, and the rest are freed on the queue.
        Self.onAnotherThread {
            for i in stride(from: 0, to: 3_000, by: 10) { _ = box.value.object(ofType: Entry.self, forPrimaryKey: "k\(i)") }
        }
        for round in 0..<3 {
            for i in stride(from: 5 + round, to: 3_000, by: 10) {
                _ = store.object(ofType: Entry.self, forPrimaryKey: "k\(i)")
                #expect(table.file.withLock { table.file.dropped.count } <= PagedFile.pendingLimit)
            }
        }
    }
}
