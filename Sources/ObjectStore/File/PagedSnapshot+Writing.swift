import Foundation

extension FileFormat {
    // MARK: Writing

    /// The meta record of a format 3 file.
    static func pagedMetaRecord(schemaVersion: UInt64, version: Int, directoryOffset: Int, into w: inout ByteWriter) {
        let start = begin(.meta, into: &w)
        w.u64(schemaVersion)
        w.count(version)
        w.u64(UInt64(directoryOffset))
        try! finish(&w, start: start)   // a few bytes
    }

    /// Writes a format 4 snapshot (the part after the file header), handing `emit` about
    /// `chunkSize` bytes at a time; with `format: 3`, one without index pages, as format 3 files
    /// are (tests write those to check they still open). The meta record goes first with a directory offset of 0;
    /// the returned meta record, of the same length, names the directory and is to be written
    /// over it (at `headerSize`) before the file is synced.
    ///
    /// - Throws: `FileFormatError` for a record too long, or the damage found in a table's
    ///   base while its rows were read (a snapshot never silently leaves rows out).
    static func writePagedSnapshot(_ tables: [String: TableState], schemaVersion: UInt64, version: Int,
                                   format: UInt32 = formatVersion, emit: ([UInt8]) throws -> Void) throws -> [UInt8] {
        var out = ByteWriter()
        pagedMetaRecord(schemaVersion: schemaVersion, version: version, directoryOffset: 0, into: &out)
        var offset = headerSize   // the file offset of out.bytes[0]
        func flush(_ force: Bool) throws {
            guard force || out.bytes.count >= chunkSize else { return }
            try emit(out.bytes)
            offset += out.bytes.count
            out.bytes.removeAll(keepingCapacity: true)
        }
        var directory = ByteWriter()
        let start = begin(.directory, into: &directory)
        directory.count(tables.count)
        for name in tables.keys.sorted() {
            let table = tables[name]!
            if let damage = table.base?.file.damage.error { throw damage }
            var rowPages: [PageRef] = []
            var keys: [(key: StoreValue, slot: Int)] = []
            keys.reserveCapacity(table.liveCount)
            var pending: [Row] = []
            var indexed = IndexEntries(table.schema, capacity: format >= 4 ? table.liveCount : 0)
            var failure: Error?
            func writeRowPage() {
                guard failure == nil, !pending.isEmpty else { return }
                let at = offset + out.bytes.count
                let recordStart = begin(.rowPage, into: &out)
                writeItems(pending.count, into: &out) { w, i in w.row(pending[i]) }
                do {
                    try finish(&out, start: recordStart)
                    rowPages.append(PageRef(offset: at, length: out.bytes.count - recordStart - recordHeaderSize))
                    try flush(false)
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
            var keyPages: [(PageRef, StoreValue)] = []
            var first = 0
            while first < keys.count {
                let n = min(PagedTable.keysPerPage, keys.count - first)
                let at = offset + out.bytes.count
                let recordStart = begin(.keyPage, into: &out)
                writeItems(n, into: &out) { w, i in
                    w.value(keys[first + i].key)
                    w.count(keys[first + i].slot)
                }
                try finish(&out, start: recordStart)
                keyPages.append((PageRef(offset: at, length: out.bytes.count - recordStart - recordHeaderSize), keys[first].key))
                try flush(false)
                first += n
            }
            let indexes = format >= 4 ? try writeIndexPages(indexed) { page in
                let at = offset + out.bytes.count
                out.bytes.append(contentsOf: page)
                try flush(false)
                return at
            } : []
            writeDefinition(table.schema, into: &directory)
            directory.count(keys.count)
            directory.count(rowPages.count)
            for page in rowPages {
                directory.u64(UInt64(page.offset))
                directory.u32(UInt32(page.length))
            }
            directory.count(keyPages.count)
            for (page, key) in keyPages {
                directory.u64(UInt64(page.offset))
                directory.u32(UInt32(page.length))
                directory.value(key)
            }
            if format >= 4 { writeIndexDirectory(indexes, into: &directory) }
        }
        try finish(&directory, start: start)
        let directoryOffset = offset + out.bytes.count
        out.bytes.append(contentsOf: directory.bytes)
        try flush(true)
        var meta = ByteWriter()
        pagedMetaRecord(schemaVersion: schemaVersion, version: version, directoryOffset: directoryOffset, into: &meta)
        return meta.bytes
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
