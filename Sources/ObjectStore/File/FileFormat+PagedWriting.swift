import Foundation

extension FileFormat {
    /// Where a written snapshot put one table's pages: what a ``PagedTable`` over the new file
    /// needs, so a running store can read from the snapshot it just wrote.
    struct TableLayout {
        let schema: ObjectSchema
        let count: Int
        let rowPages: [PageRef]
        let keyPages: [PageRef]
        let firstKeys: [StoreValue]
        /// The secondary indexes written as index pages (format 4 and later).
        var storedIndexes: [StoredIndex] = []
        /// Whether every row and key page written holds what was already checked: rows the
        /// snapshot's writer read (and so checked) or encoded itself, or pages copied from a
        /// base whose pages were all checked. A running store that moves to the snapshot then
        /// lists and counts the table without checking its pages again.
        var pagesChecked = false
        /// Whether the row pages are laid out by field (format 5).
        var fieldLaid = false
    }

    // MARK: Writing

    /// The meta record of a file of a paged format (3 and later).
    static func pagedMetaRecord(schemaVersion: UInt64, version: Int, directoryOffset: Int, into w: inout ByteWriter) {
        let start = begin(.meta, into: &w)
        w.u64(schemaVersion)
        w.count(version)
        w.u64(UInt64(directoryOffset))
        try! finish(&w, start: start)   // a few bytes
    }

    /// Writes a format 5 snapshot (the part after the file header), handing `emit` about
    /// `chunkSize` bytes at a time; with `format: 4`, one whose row pages are laid out by row,
    /// and with `format: 3`, one without index pages either, as those formats' files are (tests
    /// write them to check they still open). The meta record goes first with a
    /// directory offset of 0;
    /// the returned meta record, of the same length, names the directory and is to be written
    /// over it (at `headerSize`) before the file is synced.
    ///
    /// A table whose rows kept their slots since its base (no row added or deleted) is copied
    /// page by page: a row page nothing changed and every key page are copied as they are in
    /// the base's file (their checksums checked on the way), and a row page with replaced rows
    /// is rebuilt from the base page's row bytes and the replacements' bytes, so no row is
    /// decoded. Its index pages are copied too when no row changed and the base stores the
    /// indexes the table has; otherwise they are written from its rows. Any other table is
    /// written from its rows, index pages included.
    ///
    /// - Returns: The final meta record, and where each table's pages went.
    /// - Throws: `FileFormatError` for a record too long, or the damage found in a table's
    ///   base while its rows were read (a snapshot never silently leaves rows out).
    static func writePagedSnapshot(_ tables: [String: TableState], schemaVersion: UInt64, version: Int,
                                   format: UInt32 = formatVersion, emit: ([UInt8]) throws -> Void) throws -> (meta: [UInt8], layout: [String: TableLayout]) {
        try withoutActuallyEscaping(emit) { emit in
            let out = SnapshotOutput(emit: emit)
            pagedMetaRecord(schemaVersion: schemaVersion, version: version, directoryOffset: 0, into: &out.w)
            var layouts: [String: TableLayout] = [:]
            var directory = ByteWriter()
            let start = begin(.directory, into: &directory)
            directory.count(tables.count)
            for name in tables.keys.sorted() {
                let table = tables[name]!
                if let damage = table.base?.file.damage.error { throw damage }
                let layout: TableLayout
                if let base = table.base, table.keepsBaseSlots {
                    layout = try copyPages(of: table, base: base, format: format, into: out)
                } else {
                    layout = try writeRows(of: table, format: format, into: out)
                }
                if let damage = table.base?.file.damage.error { throw damage }
                layouts[name] = layout
                writeDefinition(table.schema, into: &directory)
                directory.count(layout.count)
                directory.count(layout.rowPages.count)
                for page in layout.rowPages {
                    directory.u64(UInt64(page.offset))
                    directory.u32(UInt32(page.length))
                }
                directory.count(layout.keyPages.count)
                for (page, key) in zip(layout.keyPages, layout.firstKeys) {
                    directory.u64(UInt64(page.offset))
                    directory.u32(UInt32(page.length))
                    directory.value(key)
                }
                if format >= 4 { writeIndexDirectory(layout.storedIndexes, into: &directory) }
            }
            try finish(&directory, start: start)
            let directoryOffset = out.position
            out.w.bytes.append(contentsOf: directory.bytes)
            try out.flush(true)
            var meta = ByteWriter()
            pagedMetaRecord(schemaVersion: schemaVersion, version: version, directoryOffset: directoryOffset, into: &meta)
            return (meta.bytes, layouts)
        }
    }

    /// The bytes of a snapshot being written, handed on about `chunkSize` at a time.
    private final class SnapshotOutput {
        var w = ByteWriter()
        /// The file offset of `w.bytes[0]`.
        var offset = headerSize
        let emit: ([UInt8]) throws -> Void

        init(emit: @escaping ([UInt8]) throws -> Void) { self.emit = emit }

        /// The file offset of the next byte written.
        var position: Int { offset + w.bytes.count }

        /// Appends a whole record and returns the file offset it was placed at.
        func place(_ record: [UInt8]) throws -> Int {
            let at = position
            w.bytes.append(contentsOf: record)
            try flush(false)
            return at
        }

        func flush(_ force: Bool) throws {
            guard force || w.bytes.count >= chunkSize else { return }
            try emit(w.bytes)
            offset += w.bytes.count
            w.bytes.removeAll(keepingCapacity: true)
        }
    }

    /// Writes a table whose slots are its base's: pages copied, or rebuilt from row bytes.
    private static func copyPages(of table: TableState, base: PagedTable, format: UInt32, into out: SnapshotOutput) throws -> TableLayout {
        // Read before copying: a page the copy does not decode is known good only if it was checked.
        let baseChecked = base.isAllChecked
        func read(_ ref: PageRef, _ kind: Kind) throws -> [UInt8] {
            do {
                return try base.file.readPage(ref, kind: kind)
            } catch let error as StoreError {
                base.file.damage.record(error)
                throw error
            }
        }
        var rowPages: [PageRef] = []
        rowPages.reserveCapacity(base.rowPages.count)
        let fieldLaid = format >= 5
        let fieldCount = table.schema.fields.count
        for (page, ref) in base.rowPages.enumerated() {
            let bytes = try read(ref, .rowPage)
            let at = out.position
            if !table.changed.touches(page: page), base.fieldLaid == fieldLaid {
                out.w.bytes.append(contentsOf: bytes)
                rowPages.append(PageRef(offset: at, length: ref.length))
            } else {
                // Rebuilt: rows replaced, or the base's pages are in the other layout.
                let first = page * PagedTable.rowsPerPage
                let n = min(PagedTable.rowsPerPage, base.count - first)
                let items: (bytes: [UInt8], offsets: [Int])
                do {
                    items = try rowItems(bytes, at: ref.offset, expected: n, fieldLaid: base.fieldLaid)
                } catch let error as StoreError {
                    base.file.damage.record(error)
                    throw error
                }
                func row(_ i: Int) -> ArraySlice<UInt8> {
                    if case .replaced(let row)? = table.changed[first + i] { return row[...] }
                    return items.bytes[items.offsets[i]..<items.offsets[i + 1]]
                }
                let recordStart = begin(.rowPage, into: &out.w)
                if fieldLaid {
                    do {
                        try FieldLaidRows.write(n, fieldCount: fieldCount, into: &out.w, row: row)
                    } catch let error as FileFormatError {
                        let damage = StoreError.corrupted(offset: ref.offset, reason: "a row of a \(table.schema.name) page: \(error.reason)")
                        base.file.damage.record(damage)
                        throw damage
                    }
                } else {
                    writeItems(n, into: &out.w) { w, i in w.bytes.append(contentsOf: row(i)) }
                }
                try finish(&out.w, start: recordStart)
                rowPages.append(PageRef(offset: at, length: out.w.bytes.count - recordStart - recordHeaderSize))
            }
            try out.flush(false)
        }
        /// Copies pages of the base whole (each checked as it is read), where they land now.
        func copy(_ refs: [PageRef], _ kind: Kind) throws -> [PageRef] {
            var copied: [PageRef] = []
            copied.reserveCapacity(refs.count)
            for ref in refs {
                let bytes = try read(ref, kind)
                copied.append(PageRef(offset: out.position, length: ref.length))
                out.w.bytes.append(contentsOf: bytes)
                try out.flush(false)
            }
            return copied
        }
        // The same keys in the same slots: the key pages are the base's.
        let keyPages = try copy(base.keyPages, .keyPage)
        var layout = TableLayout(schema: table.schema, count: base.count, rowPages: rowPages, keyPages: keyPages, firstKeys: base.firstKeys)
        layout.pagesChecked = baseChecked
        layout.fieldLaid = fieldLaid
        let fields = format >= 4 ? storedIndexFields(table.schema) : []
        if fields.isEmpty {
            return layout
        } else if table.changed.isEmpty, base.storedIndexes.map(\.field) == fields {
            // The same rows in the same slots: the index pages are the base's.
            for index in base.storedIndexes {
                let pages = try copy(index.pages, .indexPage)
                layout.storedIndexes.append(StoredIndex(field: index.field, pages: pages, firstValues: index.firstValues))
            }
        } else {
            var indexed = IndexEntries(table.schema, capacity: base.count)
            table.forEachRow { _, row in indexed.add(row) }
            if let damage = base.file.damage.error { throw damage }
            layout.storedIndexes = try writeIndexPages(indexed, place: out.place)
        }
        return layout
    }

    /// Writes a table from its live rows, in slot order (slots renumbered from 0).
    private static func writeRows(of table: TableState, format: UInt32, into out: SnapshotOutput) throws -> TableLayout {
        var rowPages: [PageRef] = []
        var keys: [(key: StoreValue, slot: Int)] = []
        keys.reserveCapacity(table.liveCount)
        var pending: [Row] = []
        var indexed = IndexEntries(table.schema, capacity: format >= 4 ? table.liveCount : 0)
        var failure: Error?
        func writeRowPage() {
            guard failure == nil, !pending.isEmpty else { return }
            let at = out.position
            let recordStart = begin(.rowPage, into: &out.w)
            do {
                if format >= 5 {
                    var encoded = ByteWriter()
                    var ends = [0]
                    for row in pending {
                        encoded.row(row)
                        ends.append(encoded.bytes.count)
                    }
                    try FieldLaidRows.write(pending.count, fieldCount: table.schema.fields.count, into: &out.w) { i in
                        encoded.bytes[ends[i]..<ends[i + 1]]
                    }
                } else {
                    writeItems(pending.count, into: &out.w) { w, i in w.row(pending[i]) }
                }
                try finish(&out.w, start: recordStart)
                rowPages.append(PageRef(offset: at, length: out.w.bytes.count - recordStart - recordHeaderSize))
                try out.flush(false)
            } catch {
                failure = error
            }
            pending.removeAll(keepingCapacity: true)
        }
        table.forEachRow { _, row in
            keys.append((row[table.schema.primaryKeyIndex], keys.count))
            if format >= 4 { indexed.add(row) }
            pending.append(row)
            if pending.count == PagedTable.rowsPerPage { writeRowPage() }
        }
        writeRowPage()
        if let failure { throw failure }
        if let damage = table.base?.file.damage.error { throw damage }
        keys.sort { keyCompare($0.key, $1.key) < 0 }
        var keyPages: [PageRef] = []
        var firstKeys: [StoreValue] = []
        var first = 0
        while first < keys.count {
            let n = min(PagedTable.keysPerPage, keys.count - first)
            let at = out.position
            let recordStart = begin(.keyPage, into: &out.w)
            writeItems(n, into: &out.w) { w, i in
                w.value(keys[first + i].key)
                w.count(keys[first + i].slot)
            }
            try finish(&out.w, start: recordStart)
            keyPages.append(PageRef(offset: at, length: out.w.bytes.count - recordStart - recordHeaderSize))
            firstKeys.append(keys[first].key)
            try out.flush(false)
            first += n
        }
        var layout = TableLayout(schema: table.schema, count: keys.count, rowPages: rowPages, keyPages: keyPages, firstKeys: firstKeys)
        layout.pagesChecked = true   // every row was read (so checked) or encoded here
        layout.fieldLaid = format >= 5
        if format >= 4 { layout.storedIndexes = try writeIndexPages(indexed, place: out.place) }
        return layout
    }

    /// Writes `count varint, offset u32 × (count + 1), item × count` with `item(i)` writing each.
    static func writeItems(_ count: Int, into w: inout ByteWriter, item: (inout ByteWriter, Int) -> Void) {
        w.count(count)
        let table = w.bytes.count
        w.bytes.append(contentsOf: repeatElement(0, count: 4 * (count + 1)))
        let itemsStart = w.bytes.count
        for i in 0..<count {
            w.patchU32(UInt32(w.bytes.count - itemsStart), at: table + 4 * i)
            item(&w, i)
        }
        w.patchU32(UInt32(w.bytes.count - itemsStart), at: table + 4 * count)
    }
}
