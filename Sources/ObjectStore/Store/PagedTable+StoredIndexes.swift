import Foundation

// Reading the secondary indexes a format 4 or 5 snapshot stores (`IndexPages.swift` writes them):
// an equality lookup reads only the index pages that can hold its value; an ordered index is
// read from the index pages, one value and one slot per row, instead of decoding every row.
// A page that does not read back whole (framing, checksums, kind, entries out of order or
// naming no slot) is reported to the file's `DamageReport`, which stops writes, and the
// caller builds the index from the rows instead.
extension PagedTable {
    /// The stored index of `field`, if the snapshot has one.
    func storedIndex(field: Int) -> StoredIndex? {
        storedIndexes.first { $0.field == field }
    }

    /// The base slots (ascending) whose `field` holds `value`, from the stored index; `nil`
    /// when the field has none stored or one of its pages is damaged (recorded).
    func storedSlots(field: Int, value: StoreValue) -> [Int]? {
        guard let index = storedIndex(field: field) else { return nil }
        // The first page whose first value is not below `value`; entries equal to it may begin
        // in the page before.
        var lo = 0, hi = index.firstValues.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if indexCompare(index.firstValues[mid], value) < 0 { lo = mid + 1 } else { hi = mid }
        }
        var page = max(lo - 1, 0)
        var slots: [Int] = []
        file.lock.lock()
        defer { file.unlock() }
        while page < index.pages.count {
            guard let entry = indexPage(page, of: index) else { return nil }
            // The page was checked whole when read: a binary search for the first entry not
            // below `value`, then the entries equal to it, decoding only those.
            let done: Bool? = entry.bytes.withUnsafeBytes { raw in
                func entryAt(_ i: Int) -> (value: StoreValue, slot: Int)? {
                    var r = ByteReader(raw, from: entry.offsets[i], to: entry.offsets[i + 1])
                    guard let value = try? r.value(), let slot = try? r.varint() else { return nil }
                    return (value, Int(slot))
                }
                let n = entry.offsets.count - 1
                var lo = 0, hi = n
                while lo < hi {
                    let mid = (lo + hi) / 2
                    guard let e = entryAt(mid) else { return nil }
                    if indexCompare(e.value, value) < 0 { lo = mid + 1 } else { hi = mid }
                }
                while lo < n {
                    guard let e = entryAt(lo) else { return nil }
                    if indexCompare(e.value, value) > 0 { return true }
                    if e.value == value { slots.append(e.slot) }
                    lo += 1
                }
                return false
            }
            guard let done else { return nil }
            if done { break }
            page += 1
        }
        return slots
    }

    /// The base's ordered index of `field` read from its stored index: `nil` when the field
    /// has none stored or a page is damaged (recorded); `.some(nil)` when a value admits no
    /// ordered index (as when built from the rows).
    func storedOrderedIndex(field: Int, kind: FieldKind) -> OrderedIndex?? {
        guard let index = storedIndex(field: field) else { return nil }
        var slots: [Int] = [], keys: [StoreValue] = []
        slots.reserveCapacity(count)
        keys.reserveCapacity(count)
        var previous: (value: StoreValue, slot: Int)?
        for (p, ref) in index.pages.enumerated() {
            do {
                let bytes = try file.readPage(ref, kind: .indexPage)
                let entries = try FileFormat.indexEntries(bytes, at: ref.offset, slotCount: count, after: previous)
                try checkFirst(entries, page: p, of: index)
                for entry in entries {
                    slots.append(entry.slot)
                    keys.append(entry.value)
                }
                previous = entries.last
            } catch {
                report(error, at: ref)
                return nil
            }
        }
        guard slots.count == count else {
            report(FileFormatError("an index of \(storedSchema.name) lists \(slots.count) of \(count) rows"), at: index.pages[0])
            return nil
        }
        if case .int = kind, keys.allSatisfy({ if case .int = $0 { return true } else { return false } }) {
            // Integers in entry order are already in the ordered index's order.
            return .some(OrderedIndex(slots: slots, keys: keys))
        }
        // Otherwise put the values back in slot order and order them as the rows would be.
        var bySlot = [StoreValue?](repeating: nil, count: count)
        for (slot, key) in zip(slots, keys) {
            guard bySlot[slot] == nil else {
                report(FileFormatError("an index of \(storedSchema.name) lists slot \(slot) twice"), at: index.pages[0])
                return nil
            }
            bySlot[slot] = key
        }
        return .some(OrderedIndex.build(slots: Array(0..<count), keys: bySlot.map { $0! }, kind: kind))
    }

    /// An index page in the page cache, read and checked whole (its framing, checksums, kind,
    /// entries in order naming slots of the table, first value as the directory says) when not
    /// there; `nil` when it does not read back whole (recorded). The file lock is held.
    private func indexPage(_ page: Int, of index: StoredIndex) -> PageEntry? {
        let key = PageKey(table: ObjectIdentifier(self), page: page, isKeyPage: false, indexField: index.field + 1)
        if let entry = file.entries[key] {
            entry.referenced = true
            return entry
        }
        let ref = index.pages[page]
        do {
            let bytes = try file.readPage(ref, kind: .indexPage)
            try checkFirst(try FileFormat.indexEntries(bytes, at: ref.offset, slotCount: count, after: nil), page: page, of: index)
            let entry = PageEntry(bytes: bytes, offsets: try FileFormat.pageOffsets(bytes, at: ref.offset, expected: nil))
            insert(entry, key: key, charge: bytes.count)
            return entry
        } catch {
            report(error, at: ref)
            return nil
        }
    }

    /// Checks that a page starts with the value the directory lists for it.
    private func checkFirst(_ entries: [(value: StoreValue, slot: Int)], page: Int, of index: StoredIndex) throws {
        guard let first = entries.first, indexCompare(first.value, index.firstValues[page]) == 0 else {
            throw StoreError.corrupted(offset: index.pages[page].offset,
                                       reason: "an index page of \(storedSchema.name) does not start with its directory value")
        }
    }

    private func report(_ error: Error, at ref: PageRef) {
        if let error = error as? StoreError {
            file.damage.record(error)
        } else {
            file.damage.record(.corrupted(offset: ref.offset, reason: (error as? FileFormatError)?.reason ?? "\(error)"))
        }
    }
}
