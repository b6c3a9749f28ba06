import Foundation

/// The base slots of a table replaced or deleted since its snapshot, each replacement kept
/// encoded (the bytes a row page holds for it).
///
/// Grouped by row page, one small box per page touched, so that a commit copies only the
/// boxes of the pages it changes (and the list of boxes), never every change since the open:
/// a transaction starts from the published table and changes its own copy.
struct SlotChanges: Sendable {
    /// What a slot became: deleted, or replaced by a row (its encoding).
    enum Change: Equatable, Sendable {
        case deleted
        case replaced([UInt8])
    }

    /// The changes of one row page, by row within it.
    final class Page: @unchecked Sendable {   // changed only while one table owns it (copied on write)
        var changes: [Change?]
        var count = 0

        init(rows: Int) { changes = [Change?](repeating: nil, count: rows) }

        init(copying other: Page) {
            changes = other.changes
            count = other.count
        }
    }

    private var pages: [Page?] = []
    /// How many slots are replaced or deleted.
    private(set) var count = 0
    /// About how many bytes the replacements keep in memory.
    private(set) var heldBytes = 0

    var isEmpty: Bool { count == 0 }

    /// The change of a base slot, if any.
    @inline(__always)
    subscript(slot: Int) -> Change? {
        let page = slot / PagedTable.rowsPerPage
        guard page < pages.count, let box = pages[page] else { return nil }
        return box.changes[slot - page * PagedTable.rowsPerPage]
    }

    /// Whether the slot is replaced or deleted.
    @inline(__always)
    func contains(_ slot: Int) -> Bool { self[slot] != nil }

    /// Whether any slot of row page `page` is changed.
    func touches(page: Int) -> Bool { page < pages.count && pages[page] != nil }

    /// Records the change of a base slot (replacing an earlier one).
    mutating func set(_ slot: Int, _ change: Change) {
        let page = slot / PagedTable.rowsPerPage
        if page >= pages.count { pages.append(contentsOf: repeatElement(nil, count: page + 1 - pages.count)) }
        if pages[page] == nil {
            pages[page] = Page(rows: PagedTable.rowsPerPage)
        } else if !isKnownUniquelyReferenced(&pages[page]!) {
            pages[page] = Page(copying: pages[page]!)
        }
        let box = pages[page]!
        let index = slot - page * PagedTable.rowsPerPage
        if box.changes[index] == nil {
            box.count += 1
            count += 1
        }
        box.changes[index] = change
        if case .replaced(let bytes) = change { heldBytes += bytes.count + 48 }
    }

    /// The changed slots in ascending order, with their change.
    func forEach(_ body: (Int, Change) -> Void) {
        for (page, box) in pages.enumerated() {
            guard let box else { continue }
            let first = page * PagedTable.rowsPerPage
            for (i, change) in box.changes.enumerated() {
                if let change { body(first + i, change) }
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
    static func encode(_ row: Row) -> [UInt8] {
        var w = ByteWriter()
        w.row(row)
        return w.bytes
    }

    static func decode(_ bytes: [UInt8]) -> Row {
        bytes.withUnsafeBytes { raw in
            var r = ByteReader(raw, from: 0, to: raw.count)
            do { return try r.row() } catch { preconditionFailure("ObjectStore: a row kept in memory does not decode: \(error)") }
        }
    }
}
