import Foundation
import Streams
import Testing
import TestSupport
@testable import ObjectStore

/// `readOnly` opens a file without ever changing it; `writeCopy(toFile:)` writes a compact,
/// consistent copy while the store is in use.
@Suite(.resourceCheck) struct ReadOnlyAndCopyTests {
    typealias S = FileStoreSupport

    private static func readOnly(_ url: URL, objectTypes: [any StoreObject.Type] = [Memo.self]) -> Store.Configuration {
        var configuration = Store.Configuration.file(url: url, objectTypes: objectTypes)
        configuration.readOnly = true
        return configuration
    }

    /// A file ending with an unfinished commit, opened read-only: the data of the whole commits,
    /// the tail ignored (not truncated), every write refused with a typed error, and the file's
    /// bytes the same before and after.
    @Test func aReadOnlyStoreNeverChangesTheFile() throws {
        let url = try FileStoreCorruptionTests.makeFile(commits: 3)
        defer { S.cleanUp(url) }
        let whole = S.bytes(url)
        let lastCommit = S.recordOffsets(whole).last!
        let torn = Array(whole[..<(lastCommit + 20)])
        S.write(torn, to: url)
        let before = torn.withUnsafeBytes { CRC32C.checksum($0) }
        let told = LockedValue<[Store.RecoveryReport]>([])
        var configuration = Self.readOnly(url)
        configuration.shouldCompactOnLaunch = { _, _ in true }   // not asked: a read-only store never compacts
        configuration.onRecovery = { report in told.mutate { $0.append(report) } }
        do {
            let store = try Store(configuration: configuration)
            #expect(store.objects(Memo.self).map(\.id).sorted() == [1, 2])
            #expect(store.recoveryReport?.truncated == false)
            #expect(store.recoveryReport?.offset == lastCommit)
            let path = url.standardizedFileURL.path
            #expect(throws: StoreError.readOnly(path: path)) { try store.write { try $0.add(Memo(id: 9, topic: "t", text: "x")) } }
            #expect(throws: StoreError.readOnly(path: path)) { try store.compact() }
            let done = DispatchSemaphore(value: 0)
            let asyncError = LockedValue<Swift.Error?>(nil)
            store.writeAsync({ try $0.add(Memo(id: 9, topic: "t", text: "x")) }, on: ImmediateScheduler.instance) { error in
                asyncError.set(error)
                done.signal()
            }
            #expect(done.wait(timeout: .now() + 30) == .success)
            #expect(asyncError.get() as? StoreError == .readOnly(path: path))
            #expect(S.bytes(url).withUnsafeBytes { CRC32C.checksum($0) } == before)
        }
        #expect(told.get().map(\.truncated) == [false])
        #expect(S.bytes(url) == torn)
    }

    /// A file the process may only read (a bundle's resource): read-only opens it; a read-write
    /// open is refused by the system (unless the tests run as root, which may write anyway).
    @Test func aFileWithReadOnlyPermissionsOpensReadOnly() throws {
        let url = try FileStoreCorruptionTests.makeFile(commits: 2)
        defer {
            chmod(url.path, 0o600)
            S.cleanUp(url)
        }
        let original = S.bytes(url)
        #expect(chmod(url.path, 0o444) == 0)
        do {
            let store = try Store(configuration: Self.readOnly(url))
            #expect(store.objects(Memo.self).count == 2)
            #expect(store.object(ofType: Memo.self, forPrimaryKey: 2)?.text == "memo 2")
        }
        if getuid() != 0 {
            #expect { try Store(configuration: .file(url: url, objectTypes: [Memo.self])) } throws: { error in
                if case .io = error as? StoreError { return true } else { return false }
            }
        }
        #expect(S.bytes(url) == original)
    }

    @Test func aMissingFileIsAnErrorAndIsNotCreated() throws {
        let url = S.temporaryFile()
        defer { S.cleanUp(url) }
        #expect { try Store(configuration: Self.readOnly(url)) } throws: { error in
            if case .io(_, let reason) = error as? StoreError { return reason.contains("does not create") } else { return false }
        }
        #expect(!FileManager.default.fileExists(atPath: url.path))
    }

    @Test func aModelThatDiffersIsNotMigratedReadOnly() throws {
        let url = try FileStoreCorruptionTests.makeFile(commits: 2)
        defer { S.cleanUp(url) }
        let original = S.bytes(url)
        var configuration = Self.readOnly(url, objectTypes: [Memo.self])
        configuration.schemaVersion = 5
        #expect { try Store(configuration: configuration) } throws: { error in
            if case .migrationRequired(_, let reason) = error as? StoreError { return reason.contains("read-only") } else { return false }
        }
        #expect(S.bytes(url) == original)
    }

    /// A writer has the file alone: while it is open for writing, a read-only open is refused
    /// (and the other way round), and the file is untouched.
    @Test func aWriterAndAReadOnlyStoreExcludeEachOther() throws {
        let url = try FileStoreCorruptionTests.makeFile(commits: 1)
        defer { S.cleanUp(url) }
        let path = url.standardizedFileURL.path
        do {
            let writer = try Store(configuration: .file(url: url, objectTypes: [Memo.self]))
            #expect(throws: StoreError.fileLocked(path: path)) { try Store(configuration: Self.readOnly(url)) }
            _ = writer
        }
        let reader = try Store(configuration: Self.readOnly(url))
        #expect(throws: StoreError.fileLocked(path: path)) { try Store(configuration: .file(url: url, objectTypes: [Memo.self])) }
        #expect(reader.objects(Memo.self).count == 1)
    }

    @Test(arguments: StoreBackend.allCases)
    func writeCopyWritesACompactCopyThatOpens(_ backend: StoreBackend) throws {
        let store = try backend.makeStore(objectTypes: [Memo.self])
        for i in 1...50 { try store.write { try $0.add(Memo(id: i % 10, topic: "t", text: "version \(i)"), update: .modified) } }
        let copy = S.temporaryFile("copy.store")
        defer { S.cleanUp(copy) }
        try store.writeCopy(toFile: copy)
        let contents = try S.bytes(copy).withUnsafeBytes { try FileFormat.read($0, path: copy.path, codeSchemas: [:]) }
        #expect(contents.commits == 0)                   // a snapshot, no log: compacted
        let opened = try Store(configuration: .file(url: copy, objectTypes: [Memo.self]))
        #expect(opened.objects(Memo.self).sorted(byKeyPath: "id").map(\.text) == store.objects(Memo.self).sorted(byKeyPath: "id").map(\.text))
        #expect(opened.version == store.version)
        // Never over an existing file.
        let before = S.bytes(copy)
        #expect { try store.writeCopy(toFile: copy) } throws: { error in
            if case .io(_, let reason) = error as? StoreError { return reason.contains("already exists") } else { return false }
        }
        #expect(S.bytes(copy) == before)
    }

    /// Copies taken while another thread commits numbered transactions (five entries, a
    /// rewrite of the batch before, a progress marker) each hold exactly a prefix of the
    /// commits: one commit, whole.
    @Test func aCopyWhileAnotherThreadWritesHoldsOneWholeCommit() throws {
        let url = S.temporaryFile()
        defer { S.cleanUp(url) }
        let store = try Store(configuration: .file(url: url, objectTypes: [Entry.self, Progress.self], durability: .relaxed,
                                                  autoCompaction: Store.AutoCompaction(logMultiple: 2, minimumBytes: 32 << 10)))
        let stop = LockedValue(false)
        let finished = DispatchSemaphore(value: 0)
        Thread {
            var batch = 1
            while !stop.get() {
                let n = batch
                try! store.write { tx in
                    for k in 0..<5 { try tx.add(Entry(id: "\(n)-\(k)", batch: n, payload: String(repeating: "x", count: 10 + n % 40))) }
                    if n > 1 { try tx.add(Entry(id: "\(n - 1)-0", batch: n - 1, payload: "rewritten by \(n)"), update: .modified) }
                    try tx.add(Progress(id: 0, last: n), update: .modified)
                }
                batch += 1
            }
            finished.signal()
        }.start()
        var lasts: [Int] = []
        for k in 0..<20 {
            // Let the writer commit at least once since the last copy.
            let seen = store.version
            while store.version == seen { usleep(200) }
            let copy = url.deletingLastPathComponent().appendingPathComponent("copy-\(k).store")
            try store.writeCopy(toFile: copy)
            lasts.append(try FileStoreCrashTests.checkPrefix(copy, reportedAtLeast: 0))
        }
        stop.set(true)
        finished.wait()
        #expect(lasts == lasts.sorted() && Set(lasts).count == lasts.count)   // each copy a later commit
    }
}
