import Foundation

extension FileFormat {
    /// Reads a store file in format 1 or 2 (still read; such a file is rewritten in the current
    /// format when it is opened): after the header, a meta record, the snapshot's table records,
    /// a seal record (format 2 only), then the log of commits. Fills in `contents`' schema
    /// version, version, ends and commit count; the rows go to `loader`.
    static func readOldFormat(_ bytes: UnsafeRawBufferPointer, format: UInt32, contents: inout Contents, loader: inout Loader) throws {
        var sawMeta = false
        var sealed = false
        var tableRecords = 0
        var sawCommit = false
        /// Whether a record that is not whole may be a commit torn by a crash (and so be
        /// dropped). Only appended commits can be torn: a snapshot is written to a temporary
        /// file and renamed into place whole. In format 2 the seal marks where the log starts;
        /// a format 1 file has no seal, so the record's kind byte (when it is there) decides.
        func mayBeTorn(kind: UInt8?) -> Bool {
            if format >= 2 { return sealed }
            if sawCommit { return true }
            if let kind { return kind == Kind.commit.rawValue }
            return tableRecords == 0
        }
        let end = try forEachRecord(bytes, origin: 0, from: headerSize, mayBeTorn: mayBeTorn) { kind, kindByte, p, record in
            switch kind {
            case .meta:
                guard !sawMeta else { throw FileFormatError("a second meta record") }
                sawMeta = true
                contents.schemaVersion = try p.u64()
                let version = try p.varint()
                guard version < UInt64(Int.max / 2) else { throw FileFormatError("impossible version \(version)") }
                contents.version = Int(version)
            case .table:
                guard sawMeta, !sealed, !sawCommit else { throw FileFormatError("a snapshot record after the log started") }
                try loader.readTable(&p)
                tableRecords += 1
            case .seal:
                guard format >= 2 else { throw FileFormatError("unknown record kind \(kindByte)") }
                guard sawMeta, !sealed else { throw FileFormatError(sawMeta ? "a second seal record" : "a seal before the meta record") }
                let count = try p.varint()
                guard count == UInt64(tableRecords) else {
                    throw FileFormatError("the snapshot has \(tableRecords) table records, its seal says \(count)")
                }
                sealed = true
                contents.snapshotEnd = record.upperBound
            case .commit:
                guard sawMeta else { throw FileFormatError("a commit before the meta record") }
                guard format < 2 || sealed else { throw FileFormatError("a commit before the snapshot's seal") }
                if !sawCommit && format < 2 { contents.snapshotEnd = record.lowerBound }
                sawCommit = true
                try loader.readCommit(&p)
                contents.commits += 1
            case .directory, .rowPage, .keyPage, .indexPage:
                throw FileFormatError("unknown record kind \(kindByte)")
            }
        }
        guard sawMeta else {
            throw StoreError.corrupted(offset: headerSize, reason: "the file has no complete meta record")
        }
        if format >= 2 && !sealed {
            throw StoreError.corrupted(offset: end, reason: "the snapshot ends without its seal record (the file is cut short)")
        }
        if format < 2 && !sawCommit { contents.snapshotEnd = end }
        contents.validEnd = end
        contents.version += contents.commits
    }
}
