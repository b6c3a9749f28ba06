import Foundation
import Testing
import TestSupport
@testable import ObjectStore

/// Damaged files: a torn tail is dropped, damage before it is a typed error that leaves the
/// file untouched, and no byte pattern crashes the reader.
@Suite(.resourceCheck) struct FileStoreCorruptionTests {
    typealias S = FileStoreSupport

    /// A file with `commits` commits; commit i (1-based) adds Memo i.
    static func makeFile(commits: Int, compactAfter: Int? = nil) throws -> URL {
        let url = S.temporaryFile()
        let store = try Store(configuration: .file(url: url, objectTypes: [Memo.self], autoCompaction: .never))
        for i in 1...commits {
            try store.write { try $0.add(Memo(id: i, topic: "t\(i % 2)", text: "memo \(i)")) }
            if i == compactAfter { try store.compact() }
        }
        return url
    }

    /// The memo ids in the file, or the error opening it raised.
    static func open(_ url: URL) -> Result<[Int], StoreError> {
        do {
            let store = try Store(configuration: .file(url: url, objectTypes: [Memo.self]))
            return .success(store.objects(Memo.self).sorted(byKeyPath: "id").map(\.id))
        } catch let error as StoreError {
            return .failure(error)
        } catch {
            Issue.record("not a StoreError: \(error)")
            return .failure(.io(path: "", reason: "\(error)"))
        }
    }

    @Test func aFlippedByteInTheMiddleIsReportedAndTheFileLeftAlone() throws {
        let url = try Self.makeFile(commits: 6)
        defer { S.cleanUp(url) }
        let original = S.bytes(url)
        let records = S.recordOffsets(original)
        #expect(records.count == 8)   // meta, seal, 6 commits
        for (target, position) in [(records[3], records[3] + 2), (records[3], records[3] + 9), (records[4], records[4] + 20)] {
            var damaged = original
            damaged[position] ^= 0x40
            S.write(damaged, to: url)
            guard case .failure(.corrupted(let offset, let reason)) = Self.open(url) else {
                Issue.record("damage at \(position) was not reported")
                continue
            }
            #expect(offset == target)
            #expect(reason.contains("checksum"))
            #expect(S.bytes(url) == damaged)
        }
    }

    @Test func aRecordCutShortIsATornTailAndIsDropped() throws {
        let url = try Self.makeFile(commits: 5)
        defer { S.cleanUp(url) }
        let original = S.bytes(url)
        let records = S.recordOffsets(original)
        // Cut inside the last record's header, inside its payload, and one byte short.
        #expect(records.count == 7)   // meta, seal, 5 commits
        for cut in [records[6] + 5, records[6] + 15, original.count - 1] {
            S.write(Array(original[..<cut]), to: url)
            #expect(Self.open(url) == .success([1, 2, 3, 4]))
            #expect(S.bytes(url) == Array(original[..<records[6]]))   // the torn tail is gone
        }
        // Cut inside an earlier commit: everything before it survives.
        S.write(Array(original[..<(records[4] + 14)]), to: url)
        #expect(Self.open(url) == .success([1, 2]))
        // New commits go after the last whole record.
        do {
            let store = try Store(configuration: .file(url: url, objectTypes: [Memo.self]))
            try store.write { try $0.add(Memo(id: 10, topic: "t", text: "after the cut")) }
        }
        #expect(Self.open(url) == .success([1, 2, 10]))
    }

    @Test func garbageAfterTheLastRecord() throws {
        let url = try Self.makeFile(commits: 3)
        defer { S.cleanUp(url) }
        let original = S.bytes(url)
        // Too short to be a record header, or zeros (a file system's preallocated tail): dropped.
        for tail in [[UInt8](repeating: 0xAB, count: 7), [UInt8](repeating: 0, count: 300)] {
            S.write(original + tail, to: url)
            #expect(Self.open(url) == .success([1, 2, 3]))
            #expect(S.bytes(url) == original)
        }
        // Bytes that are not a record: reported at the end of the last good record, file untouched.
        var generator = SeededRandom(seed: 7)
        let garbage = (0..<200).map { _ in UInt8.random(in: 0...255, using: &generator) }
        S.write(original + garbage, to: url)
        #expect(Self.open(url) == .failure(.corrupted(offset: original.count, reason: "a record header's checksum does not match: a byte in \(original.count)–\(original.count + 11) is not as written")))
        #expect(S.bytes(url) == original + garbage)
    }

    @Test func aDamagedHeaderOrSnapshotIsReported() throws {
        let url = try Self.makeFile(commits: 4, compactAfter: 2)
        defer { S.cleanUp(url) }
        let original = S.bytes(url)
        var damaged = original
        damaged[2] ^= 1
        S.write(damaged, to: url)
        #expect(Self.open(url) == .failure(.notAStoreFile(path: url.standardizedFileURL.path)))
        damaged = original
        damaged[13] ^= 1
        S.write(damaged, to: url)
        #expect(Self.open(url) == .failure(.corrupted(offset: 0, reason: "the file header's checksum does not match: a byte in 0–15 is not as written")))
        // meta, a row page, a key page, an index page, the directory (the snapshot), 2 commits
        let records = S.recordOffsets(original)
        #expect(records.count == 7)
        damaged = original
        damaged[records[1] + 14] ^= 0x10
        S.write(damaged, to: url)
        #expect(Self.open(url) == .failure(.corrupted(offset: records[1], reason: S.payloadMismatch(original, record: records[1]))))
        S.write(original, to: url)
        #expect(Self.open(url) == .success([1, 2, 3, 4]))
    }

    /// Every single-byte change and every truncation of a small file: a typed error with the
    /// file unchanged, or the data of a prefix of the commits. Never a crash.
    @Test func everySingleByteChangeAndTruncation() throws {
        let url = try Self.makeFile(commits: 4, compactAfter: 1)
        defer { S.cleanUp(url) }
        let original = S.bytes(url)
        let prefixes = (0...4).map { Array(1...max($0, 1)).prefix($0).map { $0 } }
        var outcomes = (errors: 0, prefixes: 0)
        func check(_ bytes: [UInt8], _ what: String) {
            S.write(bytes, to: url)
            switch Self.open(url) {
            case .success(let ids):
                #expect(prefixes.contains(ids), "\(what): opened with \(ids)")
                outcomes.prefixes += 1
            case .failure:
                #expect(S.bytes(url) == bytes, "\(what): a failed open changed the file")
                outcomes.errors += 1
            }
        }
        for position in original.indices {
            for mask: UInt8 in [0x01, 0x80, 0xFF] {
                var damaged = original
                damaged[position] ^= mask
                check(damaged, "byte \(position) ^ \(mask)")
            }
        }
        for length in 0..<original.count { check(Array(original[..<length]), "truncated to \(length)") }
        #expect(outcomes.errors > 0 && outcomes.prefixes > 0)
    }
}

