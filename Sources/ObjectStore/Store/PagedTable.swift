import Foundation
import Locking
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One table of a format 3, 4 or 5 snapshot: row pages and key pages, read when first touched.
///
/// Slots `0 ..< count` are the snapshot's rows in order, `rowsPerPage` to a page. A row is
/// decoded from its page when first read and kept while its page stays in the cache. Damage is
/// reported once to the file's `DamageReport`, as its page's: a page that cannot be read back
/// (its checksums or its layout do not hold up) has all its rows read as missing; a row that
/// does not fit the table, in a page that reads back, reads as missing itself. A row that read
/// once reads again, so a slot listed stays readable.
final class PagedTable: @unchecked Sendable {
    static let rowsPerPage = 128
    static let keysPerPage = 512

    let file: PagedFile
    /// The layout the file stores the rows in (what they are checked against).
    let storedSchema: ObjectSchema
    let checks: [ValueCheck]
    /// Which stored fields may be null (beside `checks`).
    let optionalFields: [Bool]
    let count: Int
    let rowPages: [PageRef]
    let keyPages: [PageRef]
    /// The first key of each key page, in key order.
    let firstKeys: [StoreValue]
    /// The same, when every one is an integer (searched without comparing `StoreValue`s).
    private let firstIntKeys: [Int64]?
    /// The secondary indexes the snapshot stores (format 4 and later), read instead of the rows.
    let storedIndexes: [StoredIndex]
    /// Whether the row pages are laid out by field (format 5; see `FieldLaidRows`): each is
    /// turned round into rows when read into the cache.
    let fieldLaid: Bool

    private let indexLock = Lock()
    private var indexes: [Int: [StoreValue: [Int]]] = [:]
    private var ordered: [Int: OrderedIndex?] = [:]
    private var links: [Int: [StoreValue: [Int]]] = [:]
    /// Row pages found damaged, none of whose rows can be read (file lock held to touch).
    private var damagedPages: Set<Int> = []
    /// The slots of rows found not to fit the table in pages that read back (file lock held).
    private var damagedRows: Set<Int> = []

    /// The row pages and the rows found unreadable so far: a listing leaves their slots out.
    var knownUnreadable: (pages: Set<Int>, rows: Set<Int>) { file.withLock { (damagedPages, damagedRows) } }
    /// Held while every page is checked; `allChecked` is set (under it) once they have been,
    /// and read without it, so a count of all objects after the first takes no lock.
    private let checkLock = Lock()
    private let allChecked = Atomic<Bool>(false)

    init(file: PagedFile, storedSchema: ObjectSchema, count: Int, rowPages: [PageRef], keyPages: [PageRef], firstKeys: [StoreValue],
         storedIndexes: [StoredIndex] = [], fieldLaid: Bool) {
        self.file = file
        self.fieldLaid = fieldLaid
        self.storedSchema = storedSchema
        self.checks = ValueCheck.checks(for: storedSchema)
        self.optionalFields = storedSchema.fields.map(\.isOptional)
        self.count = count
        self.rowPages = rowPages
        self.keyPages = keyPages
        self.firstKeys = firstKeys
        let ints = firstKeys.compactMap { key -> Int64? in if case .int(let k) = key { k } else { nil } }
        firstIntKeys = ints.count == firstKeys.count ? ints : nil
        self.storedIndexes = storedIndexes
    }

    // MARK: Checking

    /// Notes that every page was checked when the file was opened (a small snapshot).
    func markChecked() { allChecked.store(true, ordering: .releasing) }

    /// Whether every page has been checked (at open, by a listing or count, or because a
    /// compaction wrote them from checked rows).
    var isAllChecked: Bool { allChecked.load(ordering: .acquiring) }

    /// Checks every row page of the table once (their framing, checksums and rows), as a
    /// listing of all its slots needs: a slot listed must be readable. Damage found is recorded
    /// as a read's would be, with every page and row that cannot be read, so the listing leaves
    /// their slots out.
    /// (Key pages are checked by the lookups that read them.)
    func checkAllPages() {
        if allChecked.load(ordering: .acquiring) { return }
        checkLock.lock()
        defer { checkLock.unlock() }
        guard !allChecked.load(ordering: .acquiring) else { return }
        do {
            try FileFormat.checkPages(of: self)
        } catch {
            file.damage.record(error as? StoreError ?? .corrupted(offset: rowPages.first?.offset ?? 0, reason: "\(error)"))
            // Only in a damaged file: read each page as a read would, to learn which are damaged.
            forEachSlot { _, _ in }
        }
        allChecked.store(true, ordering: .releasing)
    }

    // MARK: Rows

    /// The row in `slot` (`nil` when its page is damaged). A row not decoded yet is decoded with
    /// the file lock released (decoding allocates, and an allocation can wait for the system's
    /// allocator: no other thread should wait for the file lock meanwhile).
    ///
    /// - Parameter sharing: Whether a row decoded here may be kept in a page another thread
    ///   read. A writer passes `false`: the page is freed by the thread that read it, and a row
    ///   the writer decoded lives in the writer's heap, whose lock the writer holds for
    ///   milliseconds at a time in a large commit; a reader freeing it would wait that long.
    func row(_ slot: Int, sharing: Bool = true) -> Row? {
        let page = slot / Self.rowsPerPage
        let index = slot - page * Self.rowsPerPage
        file.lock.lock()
        guard let entry = entry(rowPage: page) else {
            file.unlock()
            return nil
        }
        if let row = entry.rows[index] {
            file.unlock()
            return row
        }
        file.unlock()
        let decoded = Result { try decodeRow(index, of: entry) }
        if !sharing, pthread_equal(entry.reader, pthread_self()) == 0, case .success(let row) = decoded { return row }
        return file.withLock { keep(decoded, index, in: entry, page: page) }
    }

    /// Calls `body` with each slot in order and its row (`nil` when its page is damaged),
    /// reading one page at a time (its rows decoded with the file lock released, as in `row`).
    func forEachSlot(_ body: (Int, Row?) -> Void) {
        for page in rowPages.indices {
            let first = page * Self.rowsPerPage
            let n = min(Self.rowsPerPage, count - first)
            guard let (entry, cached) = file.withLock({ entry(rowPage: page).map { ($0, $0.rows) } }) else {
                for i in 0..<n { body(first + i, nil) }
                continue
            }
            var rows = cached
            let decoded = (0..<n).compactMap { i in rows[i] == nil ? (i, Result { try decodeRow(i, of: entry) }) : nil }
            if !decoded.isEmpty {
                file.withLock {
                    for (i, result) in decoded { rows[i] = keep(result, i, in: entry, page: page) }
                }
            }
            for i in 0..<n { body(first + i, rows[i]) }
        }
    }

    /// The entry of a row page, read into the cache if needed (file lock held; released while
    /// the page is read, see ``cachedEntry(_:load:failed:)``).
    func entry(rowPage page: Int) -> PageEntry? {
        if let (last, entry) = lastRowPage, last == page, entry.cached {
            entry.referenced = true
            return entry
        }
        let key = PageKey(table: ObjectIdentifier(self), page: page, isKeyPage: false)
        let ref = rowPages[page]
        let expected = min(Self.rowsPerPage, count - page * Self.rowsPerPage)
        let found = cachedEntry(key, load: {
            let items = try FileFormat.rowItems(try file.readPage(ref, kind: .rowPage), at: ref.offset, expected: expected, fieldLaid: fieldLaid)
            let entry = PageEntry(bytes: items.bytes, offsets: items.offsets)
            entry.rows = [Row?](repeating: nil, count: expected)
            return entry
        }, failed: { error in
            file.damage.record(error as? StoreError ?? .corrupted(offset: ref.offset, reason: "\(error)"))
            damagedPages.insert(page)
        })
        remember(found, page, in: &lastRowPage)
        return found
    }

    /// The row page and the key page last used, while the cache holds them (file lock held to
    /// touch): lookups of consecutive keys (a write of many objects in key order) read the same
    /// pages one after another, and skip the cache's table for them.
    private var lastRowPage: (Int, PageEntry)?
    private var lastKeyPage: (Int, PageEntry)?

    /// Puts `entry` in `last`; the entry it held, if the cache dropped it meanwhile, goes with
    /// the cache's dropped pages, to be freed by the thread that read it (file lock held).
    private func remember(_ entry: PageEntry?, _ page: Int, in last: inout (Int, PageEntry)?) {
        if let (_, old) = last, !old.cached { file.dropped.append(old) }
        last = entry.map { (page, $0) }
    }

    /// The cached entry for `key`, or one `load` reads with the file lock released meanwhile,
    /// so that a thread reading a page from the file (a reader, or the writer looking up the
    /// objects it replaces) never holds up another thread's reads of cached pages; `nil` when
    /// `load` throws (passed to `failed`). Called, and returns, with the file lock held. When
    /// two threads read the same page at once, the entry placed first is kept.
    private func cachedEntry(_ key: PageKey, load: () throws -> PageEntry, failed: (Error) -> Void) -> PageEntry? {
        if let entry = file.entries[key] {
            entry.referenced = true
            return entry
        }
        file.unlock()
        let loaded = Result { try load() }
        file.lock.lock()
        if let entry = file.entries[key] {
            entry.referenced = true
            return entry
        }
        switch loaded {
        case .success(let entry):
            insert(entry, key: key, charge: entry.bytes.count)
            return entry
        case .failure(let error):
            failed(error)
            return nil
        }
    }

    /// Decodes row `index` of a page and checks it against the table (no lock needed: a page's
    /// bytes never change).
    func decodeRow(_ index: Int, of entry: PageEntry) throws -> Row {
        let start = entry.offsets[index], end = entry.offsets[index + 1]
        let row = try entry.bytes.withUnsafeBytes { raw -> Row in
            var r = ByteReader(raw, from: start, to: end)
            let row = try r.row()
            guard r.isAtEnd else { throw FileFormatError("\(end - r.position) unexpected bytes after a row") }
            return row
        }
        guard row.count == storedSchema.fields.count else {
            throw FileFormatError("a \(storedSchema.name) row has \(row.count) fields, not \(storedSchema.fields.count)")
        }
        if let problem = ValueCheck.problem(in: row, schema: storedSchema, checks: checks) { throw FileFormatError(problem) }
        return row
    }

    /// Keeps a row decoded by ``decodeRow(_:of:)`` in its page's entry, or records the damage
    /// it found (file lock held). A row another thread kept meanwhile is the one returned.
    func keep(_ decoded: Result<Row, Error>, _ index: Int, in entry: PageEntry, page: Int) -> Row? {
        if let row = entry.rows[index] { return row }
        switch decoded {
        case .success(let row):
            entry.rows[index] = row
            charge((entry.offsets[index + 1] - entry.offsets[index]) * 4 + 64, to: entry)
            return row
        case .failure(let error):
            let reason = (error as? FileFormatError)?.reason ?? "\(error)"
            damagedRows.insert(page * Self.rowsPerPage + index)
            file.damage.record(.corrupted(offset: rowPages[page].offset, reason: "row \(index) of a \(storedSchema.name) page: \(reason)"))
            return nil
        }
    }

    // MARK: Keys

    /// The slot of the row with this primary key (`nil` when there is none, or its key page
    /// or row page is damaged).
    ///
    /// The row the key pages name is read and must hold the key: the check at open compares
    /// every key with its row only in small snapshots, so in a larger one a key page with right
    /// checksums and a wrong slot is found here, reported as damage (which stops writes), and
    /// never hands out another object's row or lets a write replace it.
    func slot(forKey key: StoreValue) -> Int? { keyedRow(forKey: key)?.slot }

    /// The slot and the row with this primary key, checked as ``slot(forKey:)`` says (the row
    /// is read to check it anyway, so a lookup that wants it reads it once). `sharing` is
    /// ``row(_:sharing:)``'s.
    func keyedRow(forKey key: StoreValue, sharing: Bool = true) -> (slot: Int, row: Row)? {
        guard let (slot, page) = listedSlot(forKey: key) else { return nil }
        guard let row = row(slot, sharing: sharing) else { return nil }   // its page is damaged (recorded)
        guard keyCompare(row[storedSchema.primaryKeyIndex], key) == 0 else {
            file.damage.record(.corrupted(offset: keyPages[page].offset,
                                          reason: "a \(storedSchema.name) key page names slot \(slot) for a key its row does not hold"))
            return nil
        }
        return (slot, row)
    }

    /// The slot the key pages list for this primary key, and the key page listing it, as the
    /// pages say (`nil` when they list none, or the key page is damaged).
    func listedSlot(forKey key: StoreValue) -> (slot: Int, page: Int)? {
        guard !firstKeys.isEmpty else { return nil }
        // The last key page whose first key is <= key.
        var lo = 0, hi = firstKeys.count
        if case .int(let wanted) = key, let ints = firstIntKeys {
            while lo < hi {
                let mid = (lo + hi) / 2
                if ints[mid] <= wanted { lo = mid + 1 } else { hi = mid }
            }
        } else {
            while lo < hi {
                let mid = (lo + hi) / 2
                if keyCompare(firstKeys[mid], key) <= 0 { lo = mid + 1 } else { hi = mid }
            }
        }
        guard lo > 0 else { return nil }
        let page = lo - 1
        file.lock.lock()
        defer { file.unlock() }
        guard let entry = entry(keyPage: page) else { return nil }
        return entry.bytes.withUnsafeBytes { raw -> (slot: Int, page: Int)? in
            var lo = 0, hi = entry.offsets.count - 1
            while lo < hi {
                let mid = (lo + hi) / 2
                var r = ByteReader(raw, from: entry.offsets[mid], to: entry.offsets[mid + 1])
                // An integer key is compared where it lies (its tag and varint), not built as a
                // `StoreValue` at each step; any other kind, or bytes that are not an integer
                // key, are read as a value.
                let c: Int
                if case .int(let wanted) = key, let found = r.intKey() {
                    c = found < wanted ? -1 : (found == wanted ? 0 : 1)
                } else {
                    r = ByteReader(raw, from: entry.offsets[mid], to: entry.offsets[mid + 1])
                    guard let found = try? r.value() else {
                        file.damage.record(.corrupted(offset: keyPages[page].offset, reason: "a key page entry cannot be read"))
                        return nil
                    }
                    c = keyCompare(found, key)
                }
                if c == 0 {
                    // The slot after the key, read for the key found only.
                    guard let slot = try? r.varint() else {
                        file.damage.record(.corrupted(offset: keyPages[page].offset, reason: "a key page entry cannot be read"))
                        return nil
                    }
                    guard slot < UInt64(count) else {
                        file.damage.record(.corrupted(offset: keyPages[page].offset, reason: "a key names slot \(slot) of \(count)"))
                        return nil
                    }
                    return (Int(slot), page)
                }
                if c < 0 { lo = mid + 1 } else { hi = mid }
            }
            return nil
        }
    }

    /// The entry of a key page, read into the cache if needed (file lock held; released while
    /// the page is read).
    private func entry(keyPage page: Int) -> PageEntry? {
        if let (last, entry) = lastKeyPage, last == page, entry.cached {
            entry.referenced = true
            return entry
        }
        let key = PageKey(table: ObjectIdentifier(self), page: page, isKeyPage: true)
        let ref = keyPages[page]
        let found = cachedEntry(key, load: {
            let bytes = try file.readPage(ref, kind: .keyPage)
            return PageEntry(bytes: bytes, offsets: try FileFormat.pageOffsets(bytes, at: ref.offset, expected: nil))
        }, failed: { error in
            file.damage.record(error as? StoreError ?? .corrupted(offset: ref.offset, reason: "\(error)"))
        })
        remember(found, page, in: &lastKeyPage)
        return found
    }

    // MARK: Secondary indexes

    /// The base slots (ascending) whose `field` holds `value`: read from the field's stored
    /// index when the snapshot has one, else from its index over the base, built on first use
    /// from the rows (also when a stored index page is found damaged, which is reported).
    func slots(field: Int, value: StoreValue) -> [Int] {
        if let index = indexLock.withLock({ indexes[field] }) { return index[value] ?? [] }
        if let stored = storedSlots(field: field, value: value) { return stored }
        var index: [StoreValue: [Int]] = [:]
        forEachSlot { slot, row in
            if let row { index[row[field], default: []].append(slot) }
        }
        indexLock.withLock { indexes[field] = index }
        return index[value] ?? []
    }

    /// The base's ordered index of `field` (of `kind`), built on first use from the field's
    /// stored index when the snapshot has one (and it reads back whole), else from the rows;
    /// `nil` when a value admits none or a row cannot be read.
    func orderedIndex(field: Int, kind: FieldKind) -> OrderedIndex? {
        if let known = indexLock.withLock({ ordered[field] }) { return known }
        if let stored = storedOrderedIndex(field: field, kind: kind) {
            indexLock.withLock { ordered[field] = .some(stored) }
            return stored
        }
        var slots: [Int] = [], keys: [StoreValue] = []
        slots.reserveCapacity(count)
        keys.reserveCapacity(count)
        var readable = true
        forEachSlot { slot, row in
            guard let row else { readable = false; return }
            slots.append(slot)
            keys.append(row[field])
        }
        let index = readable ? OrderedIndex.build(slots: slots, keys: keys, kind: kind) : nil
        indexLock.withLock { ordered[field] = .some(index) }
        return index
    }

    /// The base's index of a to-many link's targets: target primary key → the base slots
    /// (ascending) listing it; built on first use from the rows (an unreadable row lists none).
    func linkSources(field: Int) -> [StoreValue: [Int]] {
        if let known = indexLock.withLock({ links[field] }) { return known }
        let index = linkTargetIndex(field: field) { body in
            forEachSlot { slot, row in if let row { body(slot, row) } }
        }
        indexLock.withLock { links[field] = index }
        return index
    }

    // MARK: The cache

    /// Adds an entry and makes room under the budget (file lock held).
    func insert(_ entry: PageEntry, key: PageKey, charge amount: Int) {
        file.entries[key] = entry
        file.clock.append(key)
        charge(amount, to: entry)
    }

    /// Counts bytes against the budget, dropping pages not used lately while over it (file
    /// lock held; the pages dropped are freed when it is released, see `PagedFile.unlock()`).
    /// A page in use by the caller was just marked referenced, so it survives the first pass of
    /// the hand.
    private func charge(_ amount: Int, to entry: PageEntry) {
        entry.weight += amount
        guard entry.cached else { return }
        file.charged += amount
        var visited = 0
        while file.charged > file.cacheBudget, !file.clock.isEmpty, visited < 2 * file.clock.count {
            if file.hand >= file.clock.count { file.hand = 0 }
            let key = file.clock[file.hand]
            visited += 1
            guard let entry = file.entries[key] else {
                file.clock.remove(at: file.hand)
                continue
            }
            if entry.referenced {
                entry.referenced = false
                file.hand += 1
                continue
            }
            file.dropped.append(entry)
            file.entries[key] = nil
            file.clock.swapAt(file.hand, file.clock.count - 1)
            file.clock.removeLast()
            entry.cached = false
            file.charged -= entry.weight
        }
    }
}
