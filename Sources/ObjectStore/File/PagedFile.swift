import Foundation
import Locking
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where one page of a paged snapshot (format 3 and later) lies: the record's file offset and payload length.
struct PageRef: Equatable {
    let offset: Int
    let length: Int
}
/// A paged snapshot file (format 3 and later) kept open for reading pages on demand: its own descriptor (so the
/// store's compaction, which replaces the file, never pulls the pages from under a reader), and
/// the cache of pages read, bounded in bytes and shared by all the file's tables.
final class PagedFile: @unchecked Sendable {
    let path: String
    private let source: Source
    let damage: DamageReport
    /// The most bytes (page bytes plus an estimate of the rows decoded from them) the cache
    /// keeps before it drops pages not used since the clock hand last passed them.
    let cacheBudget: Int

    /// The lock of the cache below. Its containers grow and never shrink: a container's
    /// buffer comes from the heap of the thread that grew it last, and the next thread to grow
    /// it frees that buffer, which waits for that heap's lock (see ``unlock()``); once they are
    /// large enough, no reader frees a buffer a writer allocated.
    let lock = StoreLock(.leaf, spinning: true)
    var entries: [PageKey: PageEntry] = [:]
    var clock: [PageKey] = []
    var hand = 0
    var charged = 0
    /// Pages the cache dropped while the lock was held, freed by ``unlock()`` after releasing it.
    var dropped: [PageEntry] = []

    /// Where pages are read from: a descriptor of the file (owned), or the file's bytes.
    enum Source {
        case descriptor(Int32)
        case bytes([UInt8])
    }

    init(path: String, source: Source, damage: DamageReport, cacheBudget: Int = PagedFile.defaultCacheBudget) {
        self.path = path
        self.source = source
        self.damage = damage
        self.cacheBudget = cacheBudget
    }

    deinit { if case .descriptor(let fd) = source { close(fd) } }

    /// Reads into `buffer` from `offset`; returns how many bytes were read (fewer than the
    /// buffer only at the end of the file).
    func read(at offset: Int, into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        switch source {
        case .bytes(let all):
            guard offset >= 0, offset < all.count else { return 0 }
            let n = min(buffer.count, all.count - offset)
            all.withUnsafeBytes { buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[offset..<offset + n])) }
            return n
        case .descriptor(let fd):
            var done = 0
            while done < buffer.count {
                let n = pread(fd, buffer.baseAddress! + done, buffer.count - done, off_t(offset + done))
                if n < 0 {
                    if errno == EINTR { continue }
                    throw StoreError.io(path: path, reason: "read failed: \(String(cString: strerror(errno)))")
                }
                if n == 0 { break }
                done += n
            }
            return done
        }
    }

    /// Reads `count` bytes at `offset`, fewer only at the end of the file.
    func read(at offset: Int, count: Int) throws -> [UInt8] {
        switch source {
        case .bytes(let all):
            guard offset >= 0, offset < all.count else { return [] }
            return Array(all[offset..<min(all.count, offset + count)])
        case .descriptor(let fd):
            var bytes = [UInt8](repeating: 0, count: count)
            var done = 0
            try bytes.withUnsafeMutableBytes { raw in
                while done < count {
                    let n = pread(fd, raw.baseAddress! + done, count - done, off_t(offset + done))
                    if n < 0 {
                        if errno == EINTR { continue }
                        throw StoreError.io(path: path, reason: "read failed: \(String(cString: strerror(errno)))")
                    }
                    if n == 0 { break }
                    done += n
                }
            }
            if done < count { bytes.removeSubrange(done...) }
            return bytes
        }
    }

    /// 32 MiB: a 100,000-object store of the benchmarks stays whole in it after one scan.
    static let defaultCacheBudget = 32 << 20

    /// Drops every cached page (a reader still using one keeps it); pages are read again when
    /// next needed. Called when a running store moves to a newer snapshot file, so the older
    /// one costs no memory while a reader may still use it.
    func dropCache() {
        // Taken out under the lock and freed after it: freeing a full cache of decoded rows
        // takes milliseconds, and a reader of the file would wait for it. The pages are the
        // locked closure's result, not a variable emptied after it: a release build may free a
        // variable's value at its last use, which would be inside the lock.
        let dropped: [PageEntry] = lock.withLock {
            var taken: [PageEntry] = []
            taken.reserveCapacity(entries.count)
            for entry in entries.values {
                entry.cached = false
                taken.append(entry)
            }
            entries.removeAll(keepingCapacity: true)
            clock.removeAll(keepingCapacity: true)
            hand = 0
            charged = 0
            return taken
        }
        withExtendedLifetime(dropped) {}
    }

    /// Releases the lock, then frees the pages the cache dropped while it was held: freeing a
    /// page's bytes and decoded rows takes long enough that other threads should not wait for
    /// it. (Every holder of the cache's lock releases it through here.)
    func unlock() {
        var pages: [PageEntry] = []
        var others: [PageEntry] = []
        if !dropped.isEmpty {
            // Each thread frees the pages it read (glibc frees a block under the lock of the
            // heap it came from, which another thread may hold a long time); another thread's
            // pages wait for it, unless they pile up (that thread may be busy elsewhere, or
            // gone): then they are freed on a queue of their own, where a wait for the heap's
            // lock holds up no reader.
            let me = pthread_self()
            pages = dropped.filter { pthread_equal($0.reader, me) != 0 }
            if !pages.isEmpty { dropped.removeAll { pthread_equal($0.reader, me) != 0 } }
            if dropped.count > Self.pendingLimit {
                others.append(contentsOf: dropped)
                dropped.removeAll(keepingCapacity: true)
            }
        }
        lock.unlock()
        withExtendedLifetime(pages) {}
        if !others.isEmpty {
            let batch = DroppedPages(others)
            others = []
            Self.freeing.async { batch.free() }
        }
    }

    /// How many dropped pages may wait for the threads that read them.
    static let pendingLimit = 64

    /// Where pages that waited too long for their readers are freed.
    private static let freeing = DispatchQueue(label: "ObjectStore.droppedPages", qos: .utility)

    /// Pages handed to ``freeing``; no other thread holds them through the cache any more.
    private final class DroppedPages: @unchecked Sendable {
        private var pages: [PageEntry]
        init(_ pages: [PageEntry]) { self.pages = pages }
        func free() { pages = [] }
    }

    /// `body` with the lock held, released through ``unlock()``.
    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock.lock()
        defer { unlock() }
        return try body()
    }

    /// The bytes the cache holds now (for tests).
    var cachedBytes: Int { lock.withLock { charged } }

    /// Reads a page record whole and checks its framing, checksums and kind.
    func readPage(_ ref: PageRef, kind: FileFormat.Kind) throws -> [UInt8] {
        let total = FileFormat.recordHeaderSize + ref.length
        let bytes = try read(at: ref.offset, count: total)
        guard bytes.count == total else { throw StoreError.corrupted(offset: ref.offset, reason: "a page lies past the end of the file") }
        try bytes.withUnsafeBytes { raw in
            try FileFormat.checkRecord(raw, at: ref.offset, length: ref.length, kind: kind)
        }
        return bytes
    }
}

struct PageKey: Hashable {
    let table: ObjectIdentifier
    let page: Int
    let isKeyPage: Bool
    /// For an index page, its field's ordinal plus one (0 for row and key pages).
    var indexField = 0
}

/// A page in the cache: its record bytes, where its items start, and (for a row page) the rows
/// decoded from it so far.
final class PageEntry {
    let bytes: [UInt8]
    /// The offsets of the items within `bytes`, one past the last included.
    let offsets: [Int]
    var rows: [Row?]
    var referenced = true
    /// What the entry counts against the cache's budget: its bytes and its decoded rows.
    var weight = 0
    /// Whether the cache still holds it (a reader may keep using an entry dropped meanwhile).
    var cached = true

    /// The thread that read the page, whose heap its bytes came from.
    let reader = pthread_self()

    init(bytes: [UInt8], offsets: [Int]) {
        self.bytes = bytes
        self.offsets = offsets
        rows = []
    }
}
