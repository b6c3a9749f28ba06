import Foundation
import Locking

// Reading the paged formats (3, 4 and 5): the snapshot part of the store file (its grammar is
// on `FileFormat`).
extension FileFormat {
    /// Snapshots up to this size (about 7,000 small objects) are checked whole when the file is
    /// opened: every page's checksum, every row against its table, every key against its row,
    /// as formats 1 and 2 always were. In larger ones each page is checked when first read (its
    /// framing and checksums, and each row against its table when decoded), and all of a
    /// table's pages the first time its objects are listed without a query.
    static let checkWholeSnapshotUpTo = 256 << 10

    // MARK: Reading

    /// Checks a page record read whole (`raw` is its 12-byte header and payload): its length,
    /// both checksums and its kind.
    static func checkRecord(_ raw: UnsafeRawBufferPointer, at offset: Int, length: Int, kind: Kind, payloadChecksum: UInt32? = nil) throws {
        var r = ByteReader(raw, from: 0, to: recordHeaderSize)
        let stored = Int(try r.u32())
        let payloadCRC = try r.u32()
        let check = try r.u32()
        if _storeFileVerifiesChecksums, check != CRC32C.checksum(UnsafeRawBufferPointer(rebasing: raw[0..<8])) {
            throw checksumMismatch("a page header's", record: offset, covering: offset..<(offset + recordHeaderSize))
        }
        guard stored == length, raw.count == recordHeaderSize + length, length >= 1 else {
            throw StoreError.corrupted(offset: offset, reason: "a page is \(stored) bytes long, its directory says \(length)")
        }
        if _storeFileVerifiesChecksums, payloadCRC != payloadChecksum ?? CRC32C.checksum(UnsafeRawBufferPointer(rebasing: raw[recordHeaderSize...])) {
            throw checksumMismatch("a page's", record: offset, covering: (offset + recordHeaderSize)..<(offset + raw.count),
                                  checksum: (offset + 4)..<(offset + 8))
        }
        guard raw[recordHeaderSize] == kind.rawValue else {
            throw StoreError.corrupted(offset: offset, reason: "a \(kind) page has kind \(raw[recordHeaderSize])")
        }
    }

    /// The item offsets of a row or key page (`bytes` is the whole record), as indices into
    /// `bytes`, one past the last included; checked to rise and to end at the record's end.
    static func pageOffsets(_ bytes: [UInt8], at offset: Int, expected: Int?) throws -> [Int] {
        try bytes.withUnsafeBytes { try pageOffsets($0, at: offset, expected: expected) }
    }

    static func pageOffsets(_ raw: UnsafeRawBufferPointer, at offset: Int, expected: Int?) throws -> [Int] {
        var offsets: [Int] = []
        try pageOffsets(raw, at: offset, expected: expected, into: &offsets)
        return offsets
    }

    /// ``pageOffsets(_:at:expected:)`` into `offsets` (emptied first, its room kept), so a pass
    /// over many pages reuses one array.
    static func pageOffsets(_ raw: UnsafeRawBufferPointer, at offset: Int, expected: Int?, into offsets: inout [Int]) throws {
        offsets.removeAll(keepingCapacity: true)
        var r = ByteReader(raw, from: recordHeaderSize + 1, to: raw.count)
        do {
            let n = try r.count(minimumSize: 4)
            if let expected, n != expected {
                throw FileFormatError("a row page holds \(n) rows, its table expects \(expected)")
            }
            guard n >= 1 else { throw FileFormatError("an empty page") }
            let itemsStart = r.position + 4 * (n + 1)
            guard itemsStart <= raw.count else { throw FileFormatError("unexpected end of record") }
            offsets.reserveCapacity(n + 1)
            var last = itemsStart
            var rising = true
            for i in 0...n {
                let next = itemsStart &+ Int(raw.loadUnaligned(fromByteOffset: r.position &+ 4 &* i, as: UInt32.self).littleEndian)
                rising = rising && next >= last && next <= raw.count
                offsets.append(next)
                last = next
            }
            guard rising else { throw FileFormatError("a page's item offsets do not rise within it") }
            guard offsets[0] == itemsStart, last == raw.count else { throw FileFormatError("a page's item offsets do not cover it") }
        } catch let error as FileFormatError {
            throw StoreError.corrupted(offset: offset, reason: error.reason)
        }
    }

    /// Opens a file of a paged format (3, 4 or 5): its header, meta record and directory, then (for a small
    /// snapshot) every page, then the log after the snapshot. A larger snapshot's pages are
    /// not read here: each is checked when first read.
    ///
    /// - Parameters:
    ///   - file: Where the pages are read from.
    ///   - size: The file's size.
    ///   - codeSchemas: The models the code knows, by name.
    /// - Throws: ``StoreError/corrupted(offset:reason:)`` when what is read does not hold up.
    static func readPaged(_ file: PagedFile, size: Int, codeSchemas: [String: ObjectSchema]) throws -> Contents {
        var contents = Contents()
        let head = try file.read(at: 0, count: min(size, 4096))
        guard head.count >= headerSize, head.prefix(8).elementsEqual(magic) else { throw StoreError.notAStoreFile(path: file.path) }
        let format = try head.withUnsafeBytes { try checkHeader($0) }
        precondition(format >= 3, "readPaged reads the paged formats (3 and later) only")
        contents.format = format
        // The meta record.
        let metaRef = try recordRef(in: head, at: headerSize, fileSize: size, what: "the meta record")
        let meta = try file.readPage(metaRef, kind: .meta)
        let directoryOffset: Int
        do {
            try meta.withUnsafeBytes { raw in
                var r = ByteReader(raw, from: recordHeaderSize + 1, to: raw.count)
                contents.schemaVersion = try r.u64()
                let version = try r.varint()
                guard version < UInt64(Int.max / 2) else { throw FileFormatError("impossible version \(version)") }
                contents.version = Int(version)
                let directory = try r.u64()
                guard r.isAtEnd else { throw FileFormatError("unexpected bytes at the end of the meta record") }
                let metaEnd = metaRef.offset + recordHeaderSize + metaRef.length
                guard directory >= UInt64(metaEnd), directory < UInt64(size), Int(directory) + recordHeaderSize <= size else {
                    throw FileFormatError("the meta record names a directory at \(directory), outside the file")
                }
                contents.snapshotEnd = Int(directory)   // where the directory starts, for now
            }
        } catch let error as FileFormatError {
            throw StoreError.corrupted(offset: headerSize, reason: error.reason)
        }
        directoryOffset = contents.snapshotEnd
        let metaEnd = metaRef.offset + recordHeaderSize + metaRef.length
        // The directory.
        let directoryHead = try file.read(at: directoryOffset, count: recordHeaderSize)
        let directoryRef = try recordRef(in: directoryHead, at: 0, origin: directoryOffset, fileSize: size, what: "the directory")
        let directory = try file.readPage(directoryRef, kind: .directory)
        var loader = Loader(codeSchemas: codeSchemas)
        do {
            try directory.withUnsafeBytes { raw in
                var r = ByteReader(raw, from: recordHeaderSize + 1, to: raw.count)
                let tableCount = try r.count(minimumSize: 8)
                for _ in 0..<tableCount {
                    let name = try loader.readDefinition(&r)
                    guard loader.tables[name]!.base == nil, loader.tables[name]!.slotCount == 0 else {
                        throw FileFormatError("table \(name) is listed twice")
                    }
                    let rows = try r.varint()
                    guard rows <= UInt64(UInt32.max) * UInt64(PagedTable.rowsPerPage) else { throw FileFormatError("table \(name) claims \(rows) rows") }
                    let rowCount = Int(rows)
                    func pageList(withKeys: Bool) throws -> ([PageRef], [StoreValue]) {
                        let n = try r.count(minimumSize: 12)
                        var refs: [PageRef] = []
                        var keys: [StoreValue] = []
                        refs.reserveCapacity(n)
                        for _ in 0..<n {
                            let offset = try r.u64()
                            let length = Int(try r.u32())
                            guard offset >= UInt64(metaEnd), offset < UInt64(directoryOffset), length >= 1, length <= maxRecordLength,
                                  Int(offset) + recordHeaderSize + length <= directoryOffset else {
                                throw FileFormatError("table \(name) names a page outside its snapshot")
                            }
                            refs.append(PageRef(offset: Int(offset), length: length))
                            if withKeys {
                                let key = try r.value()
                                if let last = keys.last, keyCompare(last, key) >= 0 {
                                    throw FileFormatError("table \(name)'s key pages are out of order")
                                }
                                keys.append(key)
                            }
                        }
                        return (refs, keys)
                    }
                    let (rowPages, _) = try pageList(withKeys: false)
                    let (keyPages, firstKeys) = try pageList(withKeys: true)
                    let pagesNeeded = (rowCount + PagedTable.rowsPerPage - 1) / PagedTable.rowsPerPage
                    let keyPagesNeeded = (rowCount + PagedTable.keysPerPage - 1) / PagedTable.keysPerPage
                    guard rowPages.count == pagesNeeded, keyPages.count == keyPagesNeeded else {
                        throw FileFormatError("table \(name) has \(rowCount) rows in \(rowPages.count) row pages and \(keyPages.count) key pages")
                    }
                    let schema = loader.tables[name]!.schema
                    let indexes = format >= 4
                        ? try readIndexDirectory(&r, schema: schema, rowCount: rowCount, pagesWithin: metaEnd..<directoryOffset)
                        : []
                    let base = PagedTable(file: file, storedSchema: schema, count: rowCount, rowPages: rowPages, keyPages: keyPages,
                                          firstKeys: firstKeys, storedIndexes: indexes, fieldLaid: format >= 5)
                    loader.tables[name] = TableState(schema: schema, base: base)
                }
                guard r.isAtEnd else { throw FileFormatError("unexpected bytes at the end of the directory") }
            }
        } catch let error as FileFormatError {
            throw StoreError.corrupted(offset: directoryOffset, reason: error.reason)
        }
        contents.snapshotEnd = directoryOffset + recordHeaderSize + directoryRef.length
        if contents.snapshotEnd <= checkWholeSnapshotUpTo {
            for table in loader.tables.values {
                try checkWhole(table)
                table.base?.markChecked()
            }
        }
        // A larger snapshot's pages are checked when first read, and a table's all together
        // the first time its objects are listed without a query (`PagedTable.checkAllPages()`).
        // The log.
        let log = try file.read(at: contents.snapshotEnd, count: size - contents.snapshotEnd)
        try log.withUnsafeBytes { raw in
            try readLog(raw, origin: contents.snapshotEnd, format: format, contents: &contents, loader: &loader)
        }
        if let damage = file.damage.error { throw damage }
        contents.tables = loader.finish()
        contents.mismatched = loader.mismatched
        return contents
    }

    /// Where the record starting at `at` in `bytes` lies, from its header (checked).
    private static func recordRef(in bytes: [UInt8], at: Int, origin: Int = 0, fileSize: Int, what: String) throws -> PageRef {
        guard bytes.count >= at + recordHeaderSize else {
            throw StoreError.corrupted(offset: origin + at, reason: "\(what) is cut short")
        }
        return try bytes.withUnsafeBytes { raw in
            var r = ByteReader(raw, from: at, to: at + recordHeaderSize)
            let length = Int(try r.u32())
            _ = try r.u32()
            let check = try r.u32()
            if _storeFileVerifiesChecksums, check != CRC32C.checksum(UnsafeRawBufferPointer(rebasing: raw[at..<at + 8])) {
                throw checksumMismatch("\(what)'s header", record: origin + at, covering: (origin + at)..<(origin + at + recordHeaderSize))
            }
            guard length >= 1, length <= maxRecordLength, origin + at + recordHeaderSize + length <= fileSize else {
                throw StoreError.corrupted(offset: origin + at, reason: "\(what) has an impossible length \(length)")
            }
            return PageRef(offset: origin + at, length: length)
        }
    }

    /// Checks the framing, checksums and kind of every row page of a table's base, and its rows
    /// against the table, without building anything: what a listing of all its objects needs.
    /// Key pages are left to the lookups that read them (each is checked whole then), and
    /// index pages to the queries. The pages, in file order, are split into runs, which the
    /// processors take in turn; each run is read in `checkPiece` pieces into one buffer of its
    /// own (so the check does not stay in memory). The damage reported is the first in the file.
    static func checkPages(of base: PagedTable) throws {
        var pages: [PageCheck] = []
        let rows = RowRule(base)
        for (i, ref) in base.rowPages.enumerated() {
            pages.append(PageCheck(ref: ref, expected: min(PagedTable.rowsPerPage, base.count - i * PagedTable.rowsPerPage)))
        }
        let file = base.file
        guard !pages.isEmpty else { return }
        pages.sort { $0.ref.offset < $1.ref.offset }
        let total = pages.reduce(0) { $0 + recordHeaderSize + $1.ref.length }
        // Runs of 2 MiB or more, up to eight per processor: the threads take them in turn, so
        // a thread the system runs slower takes fewer (one equal run per processor left the
        // whole check waiting for the slowest).
        let runs = max(1, min(ProcessInfo.processInfo.activeProcessorCount * 8, 64, total >> 21))
        // Cut the pages into runs of about equal bytes.
        var bounds = [0]
        var bytes = 0
        for (i, page) in pages.enumerated() {
            bytes += recordHeaderSize + page.ref.length
            if bytes * runs >= total * bounds.count, bounds.count < runs, i + 1 < pages.count { bounds.append(i + 1) }
        }
        bounds.append(pages.count)
        let runBounds = bounds, sorted = pages
        let failures = Locked<[StoreError?]>(Array(repeating: nil, count: bounds.count - 1))
        DispatchQueue.concurrentPerform(iterations: runBounds.count - 1) { run in
            do {
                try checkRun(sorted[runBounds[run]..<runBounds[run + 1]], rows: rows, fieldLaid: base.fieldLaid, in: file)
            } catch let error as StoreError {
                failures.withLock { $0[run] = error }
            } catch {
                failures.withLock { $0[run] = .corrupted(offset: sorted[runBounds[run]].ref.offset, reason: "\(error)") }
            }
        }
        if let first = failures.withLock({ $0.lazy.compactMap { $0 }.first }) { throw first }
    }

    /// How much of a snapshot a check of every page reads at a time: small enough that the bytes
    /// read stay in the processor's cache while their checksums and rows are checked.
    static let checkPiece = 256 << 10

    /// Checks a run of row pages in file order, reading them in `checkPiece` pieces into one buffer.
    private static func checkRun(_ pages: ArraySlice<PageCheck>, rows: RowRule, fieldLaid: Bool, in file: PagedFile) throws {
        let largest = pages.reduce(0) { max($0, recordHeaderSize + $1.ref.length) }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(largest, checkPiece), alignment: 16)
        defer { buffer.deallocate() }
        var offsets: [Int] = []   // each row page's, one array for the run
        var next = pages.startIndex
        while next < pages.endIndex {
            // Fill the buffer from the next page on; check every page that lies whole in it.
            let bufferStart = pages[next].ref.offset
            let bufferCount = try file.read(at: bufferStart, into: buffer)
            var records: [UnsafeRawBufferPointer] = []
            var end = next
            while end < pages.endIndex {
                let ref = pages[end].ref
                let at = ref.offset - bufferStart
                guard at >= 0, at + recordHeaderSize + ref.length <= bufferCount else { break }
                records.append(UnsafeRawBufferPointer(rebasing: buffer[at..<at + recordHeaderSize + ref.length]))
                end += 1
            }
            guard end > next else {
                throw StoreError.corrupted(offset: bufferStart, reason: "a page lies past the end of the file")
            }
            let checksums = _storeFileVerifiesChecksums
                ? CRC32C.checksums(records.map { UnsafeRawBufferPointer(rebasing: $0[recordHeaderSize...]) })
                : []
            for (k, record) in records.enumerated() {
                let page = pages[next + k]
                try checkRecord(record, at: page.ref.offset, length: page.ref.length, kind: .rowPage,
                                payloadChecksum: checksums.isEmpty ? nil : checksums[k])
                try rows.check(record, at: page.ref.offset, expected: page.expected, fieldLaid: fieldLaid, offsets: &offsets)
            }
            next = end
        }
    }

    /// A row page for a check of every page, and how many rows it must hold.
    struct PageCheck: Sendable {
        let ref: PageRef
        let expected: Int
    }

    /// What each row of a table's pages must be: its field count, and each value's kind.
    struct RowRule: @unchecked Sendable {
        let schema: ObjectSchema
        let checks: [ValueCheck]
        let optional: [Bool]
        /// Each field's quick check, when every field has one.
        let quick: [TagRule]?

        init(_ base: PagedTable) {
            schema = base.storedSchema
            checks = base.checks
            optional = base.storedSchema.fields.map(\.isOptional)
            let rules = zip(checks, optional).compactMap { TagRule($0, optional: $1) }
            quick = rules.count == checks.count ? rules : nil
        }

        /// Checks the rows of a row page (the whole record, its checksums already checked)
        /// without building them; a value that does not fit is described as a read would.
        func check(_ record: UnsafeRawBufferPointer, at offset: Int, expected: Int, fieldLaid: Bool, offsets: inout [Int]) throws {
            guard fieldLaid else {
                try pageOffsets(record, at: offset, expected: expected, into: &offsets)
                return try check(rows: record, at: offset, offsets: offsets)
            }
            // A page laid out by field: tested a field at a time; only a page that test refuses
            // is turned round, and its rows checked one by one, to say what is wrong.
            if let quick, quick.withUnsafeBufferPointer({ FieldLaidRows.fits(record, from: recordHeaderSize + 1, expected: expected, rules: $0) }) {
                return
            }
            let items = try turnedRound(record, at: offset, expected: expected)
            try items.bytes.withUnsafeBytes { try check(rows: $0, at: offset, offsets: items.offsets) }
        }

        /// Checks rows laid out one after another (row `k` is `bytes[offsets[k] ..< offsets[k + 1]]`).
        private func check(rows record: UnsafeRawBufferPointer, at offset: Int, offsets: [Int]) throws {
            // The common case: every value of a plain kind, checked by its tag; only the rows
            // the quick check refuses (if any) are walked again by the full check below.
            var first = 0
            if let quick {
                first = quick.withUnsafeBufferPointer { rules in
                    offsets.withUnsafeBufferPointer { offsets in PlainRows.firstRowNotFitting(record, offsets: offsets, rules: rules) }
                }
            }
            for k in first..<offsets.count - 1 {
                var r = ByteReader(record, from: offsets[k], to: offsets[k + 1])
                do {
                    let n = try r.count()
                    guard n == checks.count else {
                        throw FileFormatError("a \(schema.name) row has \(n) fields, not \(checks.count)")
                    }
                    for i in 0..<n { try r.skipValue(checks[i], optional: optional[i]) }
                    guard r.isAtEnd else { throw FileFormatError("\(offsets[k + 1] - r.position) unexpected bytes after a row") }
                } catch is ValueCheck.Mismatch {
                    // Read it whole to say which field holds what.
                    var again = ByteReader(record, from: offsets[k], to: offsets[k + 1])
                    let row = try? again.row()
                    let problem = row.flatMap { ValueCheck.problem(in: $0, schema: schema, checks: checks) } ?? "a \(schema.name) row does not fit its fields"
                    throw StoreError.corrupted(offset: offset, reason: "row \(k) of a \(schema.name) page: \(problem)")
                } catch let error as FileFormatError {
                    throw StoreError.corrupted(offset: offset, reason: "row \(k) of a \(schema.name) page: \(error.reason)")
                }
            }
        }
    }

    /// Reads every page of a table's base and checks it: checksums, rows, and that the key
    /// pages list each row's key once, with its slot.
    private static func checkWhole(_ table: TableState) throws {
        guard let base = table.base else { return }
        let pk = table.schema.primaryKeyIndex
        var keyed = 0
        var failure: String?
        base.forEachSlot { slot, row in
            guard failure == nil, let row else { return }
            if base.listedSlot(forKey: row[pk])?.slot != slot {
                failure = "\(table.schema.name) key \(row[pk].literal.prefix(60)) is not listed for its row"
            }
            keyed += 1
        }
        if let damage = base.file.damage.error { throw damage }
        if let failure { throw StoreError.corrupted(offset: base.rowPages.first?.offset ?? 0, reason: failure) }
        // Every key entry decodes, names a slot of the table, and comes after the one before it.
        var listed = 0
        var previous: StoreValue?
        for page in base.keyPages.indices {
            let ref = base.keyPages[page]
            let bytes = try base.file.readPage(ref, kind: .keyPage)
            let offsets = try pageOffsets(bytes, at: ref.offset, expected: nil)
            try bytes.withUnsafeBytes { raw in
                for i in 0..<offsets.count - 1 {
                    var r = ByteReader(raw, from: offsets[i], to: offsets[i + 1])
                    do {
                        let key = try r.value()
                        let slot = try r.varint()
                        guard r.isAtEnd, slot < UInt64(base.count) else { throw FileFormatError("a key entry of \(table.schema.name) is not a key and a slot") }
                        if i == 0, key != base.firstKeys[page] { throw FileFormatError("a key page of \(table.schema.name) does not start with its directory key") }
                        if let previous, keyCompare(previous, key) >= 0 { throw FileFormatError("the keys of \(table.schema.name) are out of order") }
                        previous = key
                    } catch let error as FileFormatError {
                        throw StoreError.corrupted(offset: ref.offset, reason: error.reason)
                    }
                }
            }
            listed += offsets.count - 1
        }
        guard listed == keyed else {
            throw StoreError.corrupted(offset: base.keyPages.first?.offset ?? 0,
                                       reason: "\(table.schema.name) has \(keyed) rows and \(listed) keys")
        }
        try checkStoredIndexesWhole(base)
    }
}

