import Foundation
import Testing
import TestSupport
@testable import ObjectStore

/// Damage at every byte of a small file, compacted and not: the store opens with exactly the
/// state of a version the file's whole records prove, or throws a typed error and leaves the
/// file byte for byte as it was. Only an appended commit can be torn by a crash; a snapshot is
/// written whole (to a temporary file, then renamed), so damage inside it is corruption.
@Suite(.resourceCheck) struct FileStoreDamageTests {
    typealias S = FileStoreSupport

    /// A second model, so that a snapshot holds more than one table.
    struct Label: StoreObject, Equatable {
        static var primaryKey: KeyPath<Label, Int> { \.id }
        var id: Int
        var name: String
    }

    /// What a store holds: every memo and label, in primary-key order.
    struct Contents: Equatable, CustomStringConvertible {
        var memos: [String] = []
        var labels: [String] = []
        var description: String { "memos \(memos), labels \(labels)" }

        init(_ store: Store) {
            memos = store.objects(Memo.self).sorted(byKeyPath: "id").map { "\($0.id):\($0.text)" }
            labels = store.objects(Label.self).sorted(byKeyPath: "id").map { "\($0.id):\($0.name)" }
        }
    }

    static var objectTypes: [any StoreObject.Type] { [Memo.self, Label.self] }

    /// A file written by five commits (compacted after commit `compactAfter`, if given), with
    /// the contents of every version it went through and the version its snapshot holds.
    static func makeFile(compactAfter: Int?) throws -> (url: URL, states: [Int: Contents], snapshotVersion: Int) {
        let url = S.temporaryFile()
        let store = try Store(configuration: .file(url: url, objectTypes: objectTypes, autoCompaction: .never))
        var states = [0: Contents(store)]
        let writes: [(Transaction) throws -> Void] = [
            { try $0.add(Memo(id: 1, topic: "a", text: "one")); try $0.add(Label(id: 1, name: "red")) },
            { try $0.add(Memo(id: 2, topic: "b", text: "two")); try $0.add(Label(id: 2, name: "green")) },
            { try $0.add(Memo(id: 1, topic: "a", text: "one, edited"), update: .modified) },
            { try $0.delete(Label.self, forPrimaryKey: 2); try $0.add(Label(id: 3, name: "blue")) },
            { try $0.add(Memo(id: 3, topic: "c", text: "three")) },
        ]
        var snapshotVersion = 0
        for (i, write) in writes.enumerated() {
            try store.write(write)
            states[store.version] = Contents(store)
            if i + 1 == compactAfter {
                try store.compact()
                snapshotVersion = store.version
            }
        }
        return (url, states, snapshotVersion)
    }

    /// Opens the file: its version and contents, or the typed error.
    static func open(_ url: URL) -> Result<(version: Int, contents: Contents), StoreError> {
        do {
            let store = try Store(configuration: .file(url: url, objectTypes: objectTypes))
            return .success((store.version, Contents(store)))
        } catch let error as StoreError {
            return .failure(error)
        } catch {
            Issue.record("not a StoreError: \(error)")
            return .failure(.io(path: "", reason: "\(error)"))
        }
    }

    /// The guide's byte count of a new store: header, meta and an empty directory, 60 bytes.
    @Test func aNewStoreIsAHeaderAMetaAndADirectory() throws {
        let url = S.temporaryFile()
        defer { S.cleanUp(url) }
        _ = try Store(configuration: .file(url: url))
        let bytes = S.bytes(url)
        #expect(bytes.count == 60)
        #expect(S.recordOffsets(bytes).map { bytes[$0 + FileFormat.recordHeaderSize] } == [FileFormat.Kind.meta.rawValue, FileFormat.Kind.directory.rawValue])
        #expect(bytes[8] == 5)
    }

    /// One commit of two models, compacted, then the file cut by three bytes (or one, or into
    /// the first table record): the store must not open without a table (or empty) at the
    /// committed version, and must not truncate the file.
    @Test func aCompactedFileCutShortIsCorruptionNotATornCommit() throws {
        let url = S.temporaryFile()
        defer { S.cleanUp(url) }
        do {
            let store = try Store(configuration: .file(url: url, objectTypes: Self.objectTypes, autoCompaction: .never))
            try store.write { tx in
                try tx.add(Memo(id: 1, topic: "a", text: "one"))
                try tx.add(Label(id: 1, name: "red"))
            }
            try store.compact()
        }
        let original = S.bytes(url)
        for cut in [3, 1, original.count - S.recordOffsets(original)[1] - 5] {
            let damaged = Array(original.dropLast(cut))
            S.write(damaged, to: url)
            guard case .failure(.corrupted) = Self.open(url) else {
                Issue.record("cut by \(cut) bytes: opened as \(Self.open(url)) instead of reporting corruption")
                continue
            }
            #expect(S.bytes(url) == damaged, "cut by \(cut): a failed open changed the file")
        }
        S.write(original, to: url)
        guard case .success(let opened) = Self.open(url) else { Issue.record("the whole file does not open"); return }
        #expect(opened.version == 1 && opened.contents.labels == ["1:red"] && opened.contents.memos == ["1:one"])
    }

    /// Not compacted; compacted with commits after the snapshot; compacted last (the file ends
    /// in the snapshot).
    static let layouts: [Int?] = [nil, 2, 5]

    @Test(arguments: layouts)
    func everyTruncationOpensAProvenVersionOrFailsUntouched(compactAfter: Int?) throws {
        let (url, states, snapshotVersion) = try Self.makeFile(compactAfter: compactAfter)
        defer { S.cleanUp(url) }
        let original = S.bytes(url)
        // Where each commit record ends: a prefix of the file proves the commits that end in it.
        let commitEnds = Self.commitRecordEnds(original)
        #expect(commitEnds.count == 5 - snapshotVersion)
        var opened = 0
        for length in 1..<original.count {
            let damaged = Array(original[..<length])
            S.write(damaged, to: url)
            switch Self.open(url) {
            case .success(let store):
                let proven = snapshotVersion + commitEnds.filter { $0 <= length }.count
                #expect(store.version == proven, "cut to \(length): opened at version \(store.version), the whole records prove \(proven)")
                #expect(store.contents == states[store.version], "cut to \(length): \(store.contents) is not version \(store.version)")
                #expect(store.version >= snapshotVersion)
                opened += 1
            case .failure:
                #expect(S.bytes(url) == damaged, "cut to \(length): a failed open changed the file")
            }
        }
        // A file that ends in its snapshot has no commit to tear: every cut is corruption.
        #expect(snapshotVersion == 5 ? opened == 0 : opened > 0)
    }

    @Test(arguments: layouts)
    func everyFlippedByteOpensAProvenVersionOrFailsUntouched(compactAfter: Int?) throws {
        let (url, states, snapshotVersion) = try Self.makeFile(compactAfter: compactAfter)
        defer { S.cleanUp(url) }
        let original = S.bytes(url)
        let lastRecord = S.recordOffsets(original).last!
        for position in original.indices {
            for mask: UInt8 in [0x01, 0x80] {
                var damaged = original
                damaged[position] ^= mask
                S.write(damaged, to: url)
                switch Self.open(url) {
                case .success(let store):
                    // Only damage in the last commit's payload can pass for a torn write.
                    #expect(snapshotVersion < 5 && position >= lastRecord + FileFormat.recordHeaderSize && store.version == 4,
                            "byte \(position) ^ \(mask): opened at version \(store.version)")
                    #expect(store.contents == states[store.version], "byte \(position) ^ \(mask): \(store.contents)")
                    #expect(store.version >= snapshotVersion)
                case .failure:
                    #expect(S.bytes(url) == damaged, "byte \(position) ^ \(mask): a failed open changed the file")
                }
            }
        }
    }

    /// The same file in format 1, as the library wrote it before the seal record existed: the
    /// file in format 2, its seal removed, the header's format and checksum set to 1's.
    static func formatOne(_ bytes: [UInt8]) -> [UInt8] {
        let bytes = S.formatTwo(bytes)
        let offsets = S.recordOffsets(bytes)
        var old = bytes
        if let i = offsets.firstIndex(where: { bytes[$0 + FileFormat.recordHeaderSize] == FileFormat.Kind.seal.rawValue }) {
            old.removeSubrange(offsets[i]..<(i + 1 < offsets.count ? offsets[i + 1] : bytes.count))
        }
        old[8] = 1
        let crc = old[0..<12].withUnsafeBytes { CRC32C.checksum($0) }
        for k in 0..<4 { old[12 + k] = UInt8(truncatingIfNeeded: crc >> (8 * k)) }
        return old
    }

    @Test(arguments: layouts)
    func aFormatOneFileOpensAndIsRewrittenInTheCurrentFormat(compactAfter: Int?) throws {
        let (url, states, _) = try Self.makeFile(compactAfter: compactAfter)
        defer { S.cleanUp(url) }
        S.write(Self.formatOne(S.bytes(url)), to: url)
        guard case .success(let store) = Self.open(url) else { Issue.record("a format 1 file does not open"); return }
        #expect(store.version == 5 && store.contents == states[5])
        let rewritten = S.bytes(url)
        #expect(rewritten[8] == UInt8(FileFormat.formatVersion))
        guard case .success(let again) = Self.open(url) else { Issue.record("the rewritten file does not open"); return }
        #expect(again.version == 5 && again.contents == states[5])
    }

    /// A file written by the previous release (format 2, its snapshot read whole) opens with
    /// the same contents and is rewritten in the current format (4) at once.
    @Test(arguments: layouts)
    func aFormatTwoFileOpensAndIsRewrittenInTheCurrentFormat(compactAfter: Int?) throws {
        let (url, states, _) = try Self.makeFile(compactAfter: compactAfter)
        defer { S.cleanUp(url) }
        let old = S.formatTwo(S.bytes(url))
        #expect(old[8] == 2)
        S.write(old, to: url)
        guard case .success(let store) = Self.open(url) else { Issue.record("a format 2 file does not open"); return }
        #expect(store.version == 5 && store.contents == states[5])
        let rewritten = S.bytes(url)
        #expect(rewritten[8] == 5)
        guard case .success(let again) = Self.open(url) else { Issue.record("the rewritten file does not open"); return }
        #expect(again.version == 5 && again.contents == states[5])
    }

    /// A format 1 file has no seal, so a record's kind byte tells a torn commit from a damaged
    /// snapshot: a compacted file cut inside its last table record is corruption, a cut in the
    /// last commit is a torn tail.
    @Test func aFormatOneFileCutShortIsJudgedByTheRecordsKind() throws {
        let (url, _, _) = try Self.makeFile(compactAfter: 5)
        defer { S.cleanUp(url) }
        let old = Self.formatOne(S.bytes(url))
        let damaged = Array(old.dropLast(3))
        S.write(damaged, to: url)
        guard case .failure(.corrupted) = Self.open(url) else { Issue.record("a cut snapshot opened"); return }
        #expect(S.bytes(url) == damaged)
        let (logURL, logStates, _) = try Self.makeFile(compactAfter: nil)
        defer { S.cleanUp(logURL) }
        S.write(Array(Self.formatOne(S.bytes(logURL)).dropLast(3)), to: logURL)
        guard case .success(let store) = Self.open(logURL) else { Issue.record("a torn last commit was not dropped"); return }
        #expect(store.version == 4 && store.contents == logStates[4])
    }

    /// The end offsets of the commit records (the records whose kind byte says commit).
    static func commitRecordEnds(_ bytes: [UInt8]) -> [Int] {
        let offsets = S.recordOffsets(bytes)
        return offsets.enumerated().compactMap { i, offset in
            guard bytes[offset + FileFormat.recordHeaderSize] == FileFormat.Kind.commit.rawValue else { return nil }
            return i + 1 < offsets.count ? offsets[i + 1] : bytes.count
        }
    }
}
