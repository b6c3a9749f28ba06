import Foundation
import Testing
import TestSupport
@testable import ObjectStore

/// The `rowpage` fuzz target's seeds (Fuzz/Corpus/rowpage): one valid row page laid out by field
/// for each of the target's tables, its first byte naming the table. The target asks
/// `_fieldLaidQuickCheckKeepsItsPromise` of every input; the seeds are pages it accepts.
@Suite(.resourceCheck) struct RowPageFuzzSeedTests {
    /// The fuzz target's tables, in its order (Fuzz/Targets/rowpage.swift lists the same).
    static let tables: [[(String, Bool)]] = [
        [("int", false), ("string", false), ("double", false), ("date", false), ("int", true), ("link<Note>", true), ("link<Note>", true)],
        [("int", false), ("string", true), ("bool", false), ("data", true), ("uuid", true)],
        [("string", false), ("int", false), ("list<link<Category>>", false), ("list<string>", false), ("double", true)],
        [("uuid", false), ("link<Tag>", true), ("list<int>", true), ("date", true)],
    ]

    /// A row of table `table`, the `k`-th of its page.
    static func row(table: Int, _ k: Int) -> Row {
        let id = Int64(k * 7 + 1)
        let uuid = UUID(uuid: (UInt8(k), 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, UInt8(table)))
        let date = StoreValue.date(Date(timeIntervalSinceReferenceDate: Double(k) * 3600))
        switch table {
        case 0:
            return [.int(id), .string("note \(k), revision 0"), .double(Double(k) / 4), date,
                    k % 3 == 0 ? .null : .int(Int64(k % 1000)), .int(Int64(k % 8 + 1)), k % 5 == 0 ? .null : .int(Int64(k % 3))]
        case 1:
            return [.int(id), k % 4 == 0 ? .null : .string(k % 2 == 0 ? "crème" : "plain"), .bool(k % 2 == 0),
                    k % 3 == 0 ? .null : .data(Data([UInt8(k), 0xFF, 0])), k % 2 == 0 ? .null : .uuid(uuid)]
        case 2:
            return [.string(String(repeating: "long ", count: k % 40)), .int(-id * 1_000_000_007),
                    .list((0..<(k % 4)).map { .int(Int64($0 + 1)) }), .list(k % 3 == 0 ? [] : [.string("a"), .string("bé")]),
                    k % 2 == 0 ? .null : .double(.pi * Double(k))]
        default:
            return [.uuid(uuid), k % 2 == 0 ? .null : .string("tag\(k)"), k % 3 == 0 ? .null : .list([.int(Int64(k)), .null]),
                    k % 4 == 0 ? .null : date]
        }
    }

    /// Each table's seed: its index, then the body (after the kind byte) of a page of `rows` rows.
    static func seeds(rows: Int = 24) throws -> [(String, [UInt8])] {
        try tables.indices.map { table in
            var encoded = ByteWriter()
            var offsets = [0]
            for k in 0..<rows {
                encoded.row(row(table: table, k))
                offsets.append(encoded.bytes.count)
            }
            var w = ByteWriter()
            w.bytes = [UInt8(table)]
            try FieldLaidRows.write(rows, fieldCount: tables[table].count, into: &w) { encoded.bytes[offsets[$0]..<offsets[$0 + 1]] }
            return ("table\(table)", w.bytes)
        }
    }

    static func promise(_ seed: [UInt8]) -> Bool? {
        let table = tables[Int(seed[0]) % tables.count]
        return _fieldLaidQuickCheckKeepsItsPromise(body: Array(seed.dropFirst()), kindNames: table.map(\.0), optional: table.map(\.1))
    }

    /// Every seed is a page the quick check accepts, whose rows the row-by-row check accepts
    /// too; a seed with a string made invalid UTF-8 is one it refuses.
    @Test func seedsAreAcceptedPages() throws {
        for (name, seed) in try Self.seeds() {
            #expect(seed.count < 4096, "\(name) is too long for the fuzzer's -max_len")
            #expect(Self.promise(seed) == true, "\(name)")
        }
        var damaged = try Self.seeds()[0].1
        let text = Array("note 0,".utf8)
        let at = try #require(damaged.indices.first { damaged[$0...].starts(with: text) })   // the first note's text
        damaged[at] = 0xFF
        #expect(Self.promise(damaged) == nil)
    }

    /// Writes the seeds into the folder the variable names (the corpus is made this way):
    /// `REACTIVEMVVM_WRITE_ROWPAGE_SEEDS=Fuzz/Corpus/rowpage swift test --filter writeRowPageFuzzSeeds`
    @Test(.enabled(if: ProcessInfo.processInfo.environment["REACTIVEMVVM_WRITE_ROWPAGE_SEEDS"] != nil))
    func writeRowPageFuzzSeeds() throws {
        let dir = URL(fileURLWithPath: ProcessInfo.processInfo.environment["REACTIVEMVVM_WRITE_ROWPAGE_SEEDS"]!)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for (name, bytes) in try Self.seeds() {
            try Data(bytes).write(to: dir.appendingPathComponent(name))
        }
    }
}
