import Foundation

extension FileFormat {
    // MARK: Writing records

    /// Starts a record: reserves its header and writes the kind byte.
    static func begin(_ kind: Kind, into w: inout ByteWriter) -> Int {
        let start = w.bytes.count
        w.bytes.append(contentsOf: repeatElement(0, count: recordHeaderSize))
        w.u8(kind.rawValue)
        return start
    }

    /// Fills in the header of the record that `begin` started at `start`.
    ///
    /// - Throws: `FileFormatError` when the record is longer than a reader accepts.
    static func finish(_ w: inout ByteWriter, start: Int) throws {
        let payloadStart = start + recordHeaderSize
        let length = w.bytes.count - payloadStart
        guard length <= maxRecordLength else {
            throw FileFormatError("a record of \(length) bytes exceeds the limit of \(maxRecordLength) (split the transaction)")
        }
        let payloadCRC = CRC32C.checksum(w.bytes[payloadStart...])
        w.patchU32(UInt32(length), at: start)
        w.patchU32(payloadCRC, at: start + 4)
        w.patchU32(CRC32C.checksum(w.bytes[start..<start + 8]), at: start + 8)
    }

    static func metaRecord(schemaVersion: UInt64, version: Int, into w: inout ByteWriter) {
        let start = begin(.meta, into: &w)
        w.u64(schemaVersion)
        w.count(version)
        try! finish(&w, start: start)   // a few bytes
    }

    static func writeDefinition(_ schema: ObjectSchema, into w: inout ByteWriter) {
        w.string(schema.name)
        w.count(schema.primaryKeyIndex)
        w.count(schema.fields.count)
        for (field, kind) in zip(schema.fields, schema.kindNames) {
            w.string(field.name)
            w.string(kind)
            w.u8((field.isOptional ? 1 : 0) | (field.isIndexed ? 2 : 0))
        }
    }


    /// The whole file of a new, empty store: header, meta and an empty directory.
    static func emptyStore(schemaVersion: UInt64) -> [UInt8] {
        var bytes = fileHeader()
        let meta = try! writePagedSnapshot([:], schemaVersion: schemaVersion, version: 0) { bytes += $0 }.meta   // a few bytes
        bytes.replaceSubrange(headerSize..<headerSize + meta.count, with: meta)
        return bytes
    }

    /// One commit: the definitions of tables the file does not know yet, then the changes.
    static func commitRecord(_ log: [ChangeRecord], newTables: [ObjectSchema]) throws -> [UInt8] {
        var w = ByteWriter()
        w.bytes.reserveCapacity(64 + log.count * 48)
        let start = begin(.commit, into: &w)
        w.count(newTables.count)
        for schema in newTables { writeDefinition(schema, into: &w) }
        w.count(log.count)
        for change in log {
            switch change {
            case .insert(let table, let row):
                w.u8(Change.insert.rawValue)
                w.string(table)
                w.row(row)
            case .update(let table, let key, let fields, let values):
                w.u8(Change.update.rawValue)
                w.string(table)
                w.value(key)
                w.count(fields.count)
                for (field, value) in zip(fields, values) {
                    w.count(field)
                    w.value(value)
                }
            case .delete(let table, let key):
                w.u8(Change.delete.rawValue)
                w.string(table)
                w.value(key)
            }
        }
        try finish(&w, start: start)
        return w.bytes
    }
}
