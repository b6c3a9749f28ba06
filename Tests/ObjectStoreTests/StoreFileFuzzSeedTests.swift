import Foundation
import Testing
import TestSupport
@testable import ObjectStore

/// The fuzz target's seeds (Fuzz/Corpus/storefile) and regression tests for inputs the fuzzer
/// found (Fuzz/Targets/storefile.swift).
@Suite(.resourceCheck) struct StoreFileFuzzSeedTests {
    typealias S = FileStoreSupport

    /// Small store files of every record kind, in the format the library writes: (name, bytes).
    static func seeds() throws -> [(String, [UInt8])] {
        var out: [(String, [UInt8])] = []
        func make(_ name: String, _ body: (Store) throws -> Void) throws {
            let url = S.temporaryFile()
            defer { S.cleanUp(url) }
            do {
                let store = try Store(configuration: .file(url: url, objectTypes: [Memo.self, Pizza.self], autoCompaction: .never))
                try body(store)
            }
            out.append((name, S.bytes(url)))
        }
        try make("empty") { _ in }
        try make("commits") { store in
            try store.write { try $0.add([Memo(id: 1, topic: "a", text: "one"), Memo(id: 2, topic: "b", text: "two")]) }
            try store.write { try $0.add(Memo(id: 1, topic: "a", text: "uno"), update: .modified) }
            try store.write { try $0.delete(Memo.self, forPrimaryKey: 2) }
        }
        try make("snapshot") { store in
            try store.write { try $0.add([Memo(id: 1, topic: "a", text: "one"), Memo(id: 3, topic: "c", text: "three")]) }
            try store.compact()
            try store.write { try $0.add(Memo(id: 4, topic: "a", text: "four")) }
        }
        try make("kinds") { store in
            try store.write { try $0.add(Array(Fixture.pizzas.prefix(2)), update: .modified) }
            var tag = Fixture.pizzas[4]
            tag.price = 3.25
            try store.write { try $0.add(tag, update: .modified) }
        }
        try make("pages") { store in
            // Two row pages (a full one and one of 8 rows), laid out by field in format 5.
            try store.write { try $0.add((0..<136).map { Memo(id: $0, topic: ["a", "b", "é"][$0 % 3], text: $0 % 7 == 0 ? "" : "m\($0)") }) }
            try store.compact()
        }
        let commits = out[1].1
        out.append(("torn", Array(commits[..<(commits.count - 9)])))
        return out
    }

    @Test func seedsOpenWithTheirData() throws {
        let url = S.temporaryFile()
        defer { S.cleanUp(url) }
        let expected: [String: [Int]] = ["empty": [], "commits": [1], "snapshot": [1, 3, 4], "kinds": [], "torn": [1, 2],
                                         "pages": Array(0..<136)]
        for (name, bytes) in try Self.seeds() {
            #expect(bytes.count < 4096, "\(name) is too long for the fuzzer's -max_len")
            S.write(bytes, to: url)
            let store = try Store(configuration: .file(url: url, objectTypes: [Memo.self, Pizza.self]))
            #expect(store.objects(Memo.self).sorted(byKeyPath: "id").map(\.id) == expected[name], "\(name)")
            if name == "kinds" { #expect(store.objects(Pizza.self).count == 3) }
        }
    }

    /// Fuzz inputs that crashed once, replayed as the fuzz target does (checksums off).
    static let regressions: [(name: String, base64: String)] = [
        // A Memo whose `id` is stored as a double too large for Int: max(ofProperty:) trapped
        // converting it (now the value is not an Int: nil).
        ("huge double id", "Uk1WU1RPUkUBAAAAQmfSJgoAAADOi4sobmVgNgEAAAAAAAABAABPAAAAo23NxkWYxs0DAQRNZW1vAAMCaWQDaW50AgV0b3BpYwZzdHJpbGcCBHRleHQGc3RyaW5nAAIABE1lbW8DAwIFAWEFA29uZQAETWVtbwMDBAUBYgUDdHdvEgAAAPENQtmKHNnwAwABAQRNZW1vBv4BuQUDdW5vCwAAAMSNPqe0uI7dAwABAgRNZW1vAwQ="),
        // A Memo whose `text` is stored as data: Results trapped decoding it (now every row read
        // from a file is checked against its stored field kinds: StoreError.corrupted).
        // A format 3 directory naming a page at offset 2^64 - 1: the bounds check overflowed
        // (now the offset is compared with the directory's before anything is added to it).
        ("page offset overflow", "Uk1WU1RPUkUDAAAAw0S1mRIAAAAjj3MG22q4RQEAAAAAAAAAAAGAAAAAAAAAACYAAABYAraDxQFAiv7///////9/AAAYAAAA/f4CBQFhBQNvbmUDAwYFAWMFBXRocmVlFAAAAARypDaUig2XBwIAAAAAAwAAAAYAAAADAgADBgFJAAAA1geww/FsqFYFAQRNZW1vAAMCaWQDaW50AgV0b3BpYwZzdHJpbmcCBHRleHQGc3RyaW5nAAIBLv//////////AAAAAAAAACYAAAABYACxAAAAAAAUAAAAAwIVAAAAYXTt/bfBwf4DAAEABE1lbW8DAwgFAWEFBGZvdXI="),
        ("wrong value kind", "Uk1WU1RPUkUBAAAAQmfSJgoAAADOi4sobmVgMgEAAAAAAAAAAABPAAAAo23NxkWYxs0DAQRNZW1vAAMCaWQDaW50AgV0b3BpYwZzdHJpbmcCBHRleHQGc3RyaW5nAAIABE1lbW8DAwIFAWEFA29uZQAETWVtbwMDBAUBYgcDdHdvEgAAAPENQtmKHNnwAwABAQRNZW1vAwIBAgUDdW5vCwAABMSNPqe0uI7dAwABAgRNZW1vAwQ="),
    ]

    @Test func rowsAreCheckedAgainstTheirStoredKinds() throws {
        let url = S.temporaryFile()
        defer { S.cleanUp(url) }
        let bytes = [UInt8](try #require(Data(base64Encoded: Self.regressions.first { $0.name == "wrong value kind" }!.base64)))
        S.write(bytes, to: url)
        _storeFileVerifiesChecksums = false
        defer { _storeFileVerifiesChecksums = true }
        #expect {
            try Store(configuration: .file(url: url, objectTypes: [Memo.self]))
        } throws: { error in
            guard case StoreError.corrupted(_, let reason) = error else { return false }
            return reason == "Memo.text holds data, not string"
        }
        #expect(S.bytes(url) == bytes)
    }

    @Test func fuzzRegressions() throws {
        let url = S.temporaryFile()
        defer { S.cleanUp(url) }
        _storeFileVerifiesChecksums = false
        defer { _storeFileVerifiesChecksums = true }
        for (name, base64) in Self.regressions {
            let bytes = [UInt8](try #require(Data(base64Encoded: base64)))
            S.write(bytes, to: url)
            do {
                let store = try Store(configuration: .file(url: url, objectTypes: [Memo.self]))
                let memos = store.objects(Memo.self)
                _ = memos.map(\.text)
                let next = (memos.max(ofProperty: "id") as Int? ?? 0) &+ 1
                try store.write { try $0.add(Memo(id: next, topic: "a", text: "fuzz"), update: .modified) }
                #expect(store.object(ofType: Memo.self, forPrimaryKey: next)?.text == "fuzz", "\(name)")
            } catch let error as StoreError {
                #expect(S.bytes(url) == bytes, "\(name): \(error)")
            }
        }
    }

    /// `REACTIVEMVVM_WRITE_FUZZ_SEEDS=Fuzz/Corpus/storefile swift test --filter writeFuzzSeeds`
    @Test(.enabled(if: ProcessInfo.processInfo.environment["REACTIVEMVVM_WRITE_FUZZ_SEEDS"] != nil))
    func writeFuzzSeeds() throws {
        let dir = URL(fileURLWithPath: ProcessInfo.processInfo.environment["REACTIVEMVVM_WRITE_FUZZ_SEEDS"]!)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for (name, bytes) in try Self.seeds() {
            let url = dir.appendingPathComponent(name)
            try Data(bytes).write(to: url)
            #expect(S.bytes(url) == bytes)
        }
    }
}
