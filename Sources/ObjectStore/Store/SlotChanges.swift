import Foundation

/// The base slots of a table replaced or deleted since its snapshot, each replacement kept
/// encoded (the bytes a row page holds for it).
///
/// Grouped by row page, one small box per page touched, so that a commit copies only the
/// boxes of the pages it changes (and the list of boxes), never every change since the open:
/// a transaction starts from the published table and changes its own copy. A box keeps its
/// rows' bytes one after another in a single buffer, so a commit of many objects makes (and
/// later frees) a few blocks per page, not one per object.
struct SlotChanges: Sendable {
    /// What a slot became: deleted, or replaced by a row (its encoding).
    enum Change: Equatable, Sendable {
        case deleted
        case replaced(ArraySlice<UInt8>)
    }

    /// Where a row's bytes lie in its page's buffer, or that it was deleted or is unchanged.
    struct Span {
        var start: UInt32
        var count: Int32

        static let unchanged = Span(start: 0, count: -1)
        static let deleted = Span(start: 0, count: -2)
    }

    /// The changes of one row page, by row within it.
    final class Page: @unchecked Sendable {   // changed only while one table owns it (copied on write)
        // Changed by the one table owning it, one access at a time: no runtime exclusivity
        // check per access.
        @exclusivity(unchecked) var spans: [Span]
        /// The replacements' bytes; a replaced replacement's bytes stay until the page is
        /// copied or compacted (`garbage` counts them).
        @exclusivity(unchecked) var bytes: [UInt8] = []
        @exclusivity(unchecked) var garbage = 0
        @exclusivity(unchecked) var count = 0

        init(rows: Int) { spans = [Span](repeating: .unchanged, count: rows) }

        /// A copy holding only the live bytes.
        init(copying other: Page) {
            spans = other.spans
            count = other.count
            bytes.reserveCapacity(other.bytes.count - other.garbage)
            other.bytes.withUnsafeBufferPointer { old in
                for i in spans.indices where spans[i].count >= 0 {
                    let start = Int(spans[i].start), n = Int(spans[i].count)
                    spans[i].start = UInt32(bytes.count)
                    bytes.append(contentsOf: old[start..<(start + n)])
                }
            }
        }

        func change(_ index: Int) -> Change? {
            let span = spans[index]
            if span.count >= 0 {
                let start = Int(span.start)
                return .replaced(bytes[start..<(start + Int(span.count))])
            }
            return span.count == Span.deleted.count ? .deleted : nil
        }
    }

    private var pages: [Page?] = []
    /// How many slots are replaced or deleted.
    private(set) var count = 0
    /// About how many bytes the replacements keep in memory (the pages' buffers, as
    /// allocated, and spans).
    private(set) var heldBytes = 0

    var isEmpty: Bool { count == 0 }

    /// The change of a base slot, if any.
    @inline(__always)
    subscript(slot: Int) -> Change? {
        let page = slot / PagedTable.rowsPerPage
        guard page < pages.count, let box = pages[page] else { return nil }
        return box.change(slot - page * PagedTable.rowsPerPage)
    }

    /// Whether the slot is replaced or deleted.
    @inline(__always)
    func contains(_ slot: Int) -> Bool {
        let page = slot / PagedTable.rowsPerPage
        guard page < pages.count, let box = pages[page] else { return false }
        return box.spans[slot - page * PagedTable.rowsPerPage].count != Span.unchanged.count
    }

    /// Whether any slot of row page `page` is changed.
    func touches(page: Int) -> Bool { page < pages.count && pages[page] != nil }

    /// The box of `page`, made or copied so that this table alone holds it.
    private mutating func ownedPage(_ page: Int) -> Page {
        if page >= pages.count { pages.append(contentsOf: repeatElement(nil, count: page + 1 - pages.count)) }
        if pages[page] == nil {
            pages[page] = Page(rows: PagedTable.rowsPerPage)
            heldBytes += Self.pageBytes
        } else if !isKnownUniquelyReferenced(&pages[page]!) {
            let old = pages[page]!
            pages[page] = Page(copying: old)
            heldBytes += pages[page]!.bytes.capacity - old.bytes.capacity
        }
        return pages[page]!
    }

    /// What a page's box costs besides its rows' bytes (its spans and headers).
    private static let pageBytes = PagedTable.rowsPerPage * MemoryLayout<Span>.stride + 96

    /// Records that a base slot was deleted (replacing an earlier change).
    mutating func delete(_ slot: Int) {
        let page = slot / PagedTable.rowsPerPage
        let box = ownedPage(page)
        let index = slot - page * PagedTable.rowsPerPage
        release(box, index)
        box.spans[index] = .deleted
    }

    /// Records that a base slot now holds `row` (replacing an earlier change), encoded
    /// straight into its page's buffer.
    mutating func replace(_ slot: Int, with row: Row) {
        replace(slot) { w in w.row(row) }
    }

    /// Records that a base slot now holds the row encoded in `bytes` (replacing an earlier
    /// change), copied into its page's buffer.
    mutating func replace(_ slot: Int, encoded bytes: [UInt8]) {
        replace(slot) { w in w.bytes.append(contentsOf: bytes) }
    }

    /// Records a replacement of a base slot whose row `write` appends to its page's buffer.
    private mutating func replace(_ slot: Int, _ write: (inout ByteWriter) -> Void) {
        let page = slot / PagedTable.rowsPerPage
        let box = ownedPage(page)
        let index = slot - page * PagedTable.rowsPerPage
        if box.garbage > 4096, box.garbage > box.bytes.count / 2 {
            // A slot replaced again and again in one transaction: keep the live bytes only.
            let compacted = Page(copying: box)
            heldBytes += compacted.bytes.capacity - box.bytes.capacity
            (box.bytes, box.spans) = (compacted.bytes, compacted.spans)
            box.garbage = 0
        }
        release(box, index)
        let capacity = box.bytes.capacity
        var w = ByteWriter()
        swap(&w.bytes, &box.bytes)
        let start = w.bytes.count
        write(&w)
        swap(&w.bytes, &box.bytes)
        box.spans[index] = Span(start: UInt32(start), count: Int32(box.bytes.count - start))
        heldBytes += box.bytes.capacity - capacity
    }

    /// Forgets what slot `index` of `box` held (its bytes become garbage), counting a newly
    /// changed slot.
    private mutating func release(_ box: Page, _ index: Int) {
        let old = box.spans[index]
        if old.count == Span.unchanged.count {
            box.count += 1
            count += 1
        } else if old.count > 0 {
            box.garbage += Int(old.count)
        }
    }

    /// The changed slots in ascending order, with their change.
    func forEach(_ body: (Int, Change) -> Void) {
        for (page, box) in pages.enumerated() {
            guard let box else { continue }
            let first = page * PagedTable.rowsPerPage
            for i in box.spans.indices {
                if let change = box.change(i) { body(first + i, change) }
            }
        }
    }

    /// The changed slots, ascending.
    var slots: [Int] {
        var slots: [Int] = []
        slots.reserveCapacity(count)
        forEach { slot, _ in slots.append(slot) }
        return slots
    }
}

extension SlotChanges.Change {
    /// The row, decoded (`nil` for a deletion). The bytes were encoded by this process, so
    /// they decode; a failure would be a bug and stops the program.
    var row: Row? {
        guard case .replaced(let bytes) = self else { return nil }
        return SlotChanges.decode(bytes)
    }
}

extension SlotChanges {
    static func decode(_ bytes: ArraySlice<UInt8>) -> Row {
        bytes.withUnsafeBytes { raw in
            var r = ByteReader(raw, from: 0, to: raw.count)
            do { return try r.row() } catch { preconditionFailure("ObjectStore: a row kept in memory does not decode: \(error)") }
        }
    }
}
