import Foundation
@testable import ObjectStore

extension FileFormat {
    /// The records of a whole format 2 snapshot (meta, then each table in chunks), handed to
    /// `emit` about `chunkSize` bytes at a time. The store writes format 4 (`writePagedSnapshot`);
    /// this stays so tests can make the files an older release wrote, which must keep opening.
    static func writeFormat2Snapshot(_ tables: [String: TableState], schemaVersion: UInt64, version: Int, emit: ([UInt8]) throws -> Void) throws {
        var w = ByteWriter()
        metaRecord(schemaVersion: schemaVersion, version: version, into: &w)
        var tableRecords = 0
        for name in tables.keys.sorted() {
            let table = tables[name]!
            var all: [Row] = []
            table.forEachRow { _, row in all.append(row) }
            var rows = all.makeIterator()
            var next = rows.next()
            repeat {
                var body = ByteWriter()
                var count = 0
                while let row = next, body.bytes.count < chunkSize {
                    body.row(row)
                    count += 1
                    next = rows.next()
                }
                let start = begin(.table, into: &w)
                writeDefinition(table.schema, into: &w)
                w.count(count)
                w.bytes.append(contentsOf: body.bytes)
                try finish(&w, start: start)
                tableRecords += 1
                try emit(w.bytes)
                w.bytes.removeAll(keepingCapacity: true)
            } while next != nil
        }
        sealRecord(tableRecords: tableRecords, into: &w)
        try emit(w.bytes)
    }

    /// The record that ends a snapshot: written last, so a snapshot that has it is whole.
    static func sealRecord(tableRecords: Int, into w: inout ByteWriter) {
        let start = begin(.seal, into: &w)
        w.count(tableRecords)
        try! finish(&w, start: start)   // a few bytes
    }
}
