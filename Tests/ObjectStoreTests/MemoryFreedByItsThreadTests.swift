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
        for i in 0..<(RetiredSnapshots.limit * 3) {
            held.append(store.core.snapshot())
            try store.write { try $0.add(Entry(id: "k\(i)", batch: i, payload: "")) }
            #expect(store.core.retiredCount <= RetiredSnapshots.limit)
        }
        #expect(store.core.retiredCount == RetiredSnapshots.limit)
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

    /// One thread, kept for the whole test (a thread started afresh may get the identity of
    /// one that ended), that runs what it is given while the caller waits.
    final class OtherThread: @unchecked Sendable {
        private let lock = NSLock()
        private var work: [() -> Void] = []
        private let ready = DispatchSemaphore(value: 0)
        private let done = DispatchSemaphore(value: 0)
        private var finished = false

        init() {
            Thread { [self] in
                while true {
                    ready.wait()
                    let next = lock.withLock { finished ? nil : work.removeFirst() }
                    guard let next else { break }
                    next()
                    done.signal()
                }
                done.signal()
            }.start()
        }

        /// Runs `body` on the thread and waits for it.
        func run(_ body: @escaping () -> Void) {
            lock.withLock { work.append(body) }
            ready.signal()
            done.wait()
        }

        /// Ends the thread.
        func finish() {
            lock.withLock { finished = true }
            ready.signal()
            done.wait()
        }
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
        let other = OtherThread()
        defer { other.finish() }
        other.run { _ = store.object(ofType: Entry.self, forPrimaryKey: "k1") }
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
    /// that thread to free it; when more than `PagedFile.pendingLimit` wait, they are freed on
    /// a queue of their own, and no more than that are left waiting.
    @Test func aDroppedPageWaitsForTheThreadThatReadIt() throws {
        let url = S.temporaryFile()
        defer { S.cleanUp(url) }
        let count = 12_000
        try Self.seeded(url, count: count)
        let store = try Self.open(url, cacheBudget: 4 << 20)
        let table = try #require(store.core.snapshot().tables["Entry"]?.base)
        let pages = (count + PagedTable.rowsPerPage - 1) / PagedTable.rowsPerPage
        #expect(pages > PagedFile.pendingLimit + 16)
        let other = OtherThread()
        defer { other.finish() }
        var entry: PageEntry?
        other.run {
            _ = store.object(ofType: Entry.self, forPrimaryKey: "k0")
            entry = Self.cachedRowPage(table, slot: 0)
        }
        weak let page = entry
        entry = nil
        #expect(page != nil)
        // This thread reads (and decodes) enough rows of the other pages to drop it: it is
        // left for its reader.
        for i in PagedTable.rowsPerPage..<count { _ = store.object(ofType: Entry.self, forPrimaryKey: "k\(i)") }
        #expect(page?.cached == false)
        #expect(page != nil)
        // Its reader comes back to the cache and frees it.
        other.run { _ = store.object(ofType: Entry.self, forPrimaryKey: "k1") }
        #expect(page == nil)
        // The other thread reads every page; this one then reads every row, dropping them all.
        var read: [PageEntry] = []
        other.run {
            for p in 0..<pages { _ = store.object(ofType: Entry.self, forPrimaryKey: "k\(p * PagedTable.rowsPerPage)") }
            read = (0..<pages).compactMap { Self.cachedRowPage(table, slot: $0 * PagedTable.rowsPerPage) }
        }
        #expect(read.count > PagedFile.pendingLimit + 16)
        let weakly = read.map { Weak($0) }
        read = []
        for i in 0..<count {
            _ = store.object(ofType: Entry.self, forPrimaryKey: "k\(i)")
            #expect(table.file.withLock { table.file.dropped.count } <= PagedFile.pendingLimit)
        }
        func waiting() -> Int { weakly.filter { $0.entry.map { !$0.cached } ?? false }.count }
        let deadline = Date().addingTimeInterval(10)
        while waiting() > PagedFile.pendingLimit, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        #expect(waiting() <= PagedFile.pendingLimit)
        #expect(weakly.contains { $0.entry == nil })   // some were freed, on the queue
    }

    struct Weak {
        weak var entry: PageEntry?
        init(_ entry: PageEntry) { self.entry = entry }
    }
}
