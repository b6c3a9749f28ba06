import Foundation
import Testing
import TestSupport
@testable import ObjectStore

/// A rename or link into place (a compaction's, a migration's, `writeCopy`'s) is durable only
/// once the directory is synced too. When that fails the store says so instead of carrying on
/// as if the rename would survive a power cut.
@Suite(.resourceCheck) struct DirectorySyncTests {
    typealias S = FileStoreSupport

    static let injected = StoreError.io(path: "", reason: "syncing the directory failed: Input/output error (injected)")

    @Test func syncingADirectoryReportsFailure() throws {
        let url = S.temporaryFile()
        defer { S.cleanUp(url) }
        try StoreFile.syncDirectory(of: url.path, in: POSIXFileSystem())   // the directory exists: synced
        let missing = url.deletingLastPathComponent().appendingPathComponent("gone").appendingPathComponent("x.store")
        #expect(throws: StoreError.self) { try StoreFile.syncDirectory(of: missing.path, in: POSIXFileSystem()) }
    }

    /// The compaction itself succeeds (the old file and the new one hold the same commits),
    /// but the next commit is refused, with nothing written, until the directory is synced;
    /// then writes go on and every commit reopens.
    @Test func aCommitAfterAnUnsyncedCompactionWaitsForTheDirectory() throws {
        let url = S.temporaryFile()
        defer { S.cleanUp(url) }
        do {
            let store = try Store(configuration: .file(url: url, objectTypes: [Memo.self], autoCompaction: .never))
            try store.write { try $0.add(Memo(id: 1, topic: "a", text: "before")) }
            let file = store.core.file!
            let calls = FileTestBox(0)
            file.syncsDirectory = { _ in
                calls.withLock { $0 += 1 }
                throw Self.injected
            }
            try store.compact()
            #expect(calls.withLock { $0 } == 1)
            let size = S.bytes(url).count
            #expect(throws: Self.injected) {
                try store.write { try $0.add(Memo(id: 2, topic: "b", text: "refused")) }
            }
            #expect(calls.withLock { $0 } == 2)
            #expect(S.bytes(url).count == size)   // nothing was appended
            #expect(store.version == 1)
            #expect(store.object(ofType: Memo.self, forPrimaryKey: 2) == nil)

            file.syncsDirectory = { path in
                calls.withLock { $0 += 1 }
                try StoreFile.syncDirectory(of: path, in: POSIXFileSystem())
            }
            try store.write { try $0.add(Memo(id: 3, topic: "c", text: "after")) }
            try store.write { try $0.add(Memo(id: 4, topic: "d", text: "after")) }
            #expect(calls.withLock { $0 } == 3)   // synced once, then no more
        }
        let store = try Store(configuration: .file(url: url, objectTypes: [Memo.self]))
        #expect(store.objects(Memo.self).sorted(byKeyPath: "id").map(\.id) == [1, 3, 4])
    }

    /// Under `.relaxed` no commit claims to be on the disk, so none waits for the directory.
    @Test func relaxedCommitsDoNotWaitForTheDirectory() throws {
        let url = S.temporaryFile()
        defer { S.cleanUp(url) }
        let store = try Store(configuration: .file(url: url, objectTypes: [Memo.self], durability: .relaxed, autoCompaction: .never))
        store.core.file!.syncsDirectory = { _ in throw Self.injected }
        try store.write { try $0.add(Memo(id: 1, topic: "a", text: "x")) }
        try store.compact()
        try store.write { try $0.add(Memo(id: 2, topic: "b", text: "y")) }
        #expect(store.version == 2)
    }

    /// A copy whose directory cannot be synced is removed again: the caller is told it failed,
    /// and finds no copy that a power cut could take away.
    @Test func aCopyWhoseDirectoryCannotBeSyncedIsRemoved() throws {
        let url = S.temporaryFile()
        defer { S.cleanUp(url) }
        let store = try Store(configuration: .file(url: url, objectTypes: [Memo.self]))
        try store.write { try $0.add(Memo(id: 1, topic: "a", text: "x")) }
        let copy = url.deletingLastPathComponent().appendingPathComponent("copy.store")
        let snapshot = store.core.snapshot()
        #expect(throws: Self.injected) {
            try StoreFile.writeCopy(snapshot.tables, version: snapshot.version, schemaVersion: 0, to: copy.path,
                                    in: POSIXFileSystem(),
                                    syncingDirectory: { _ in throw Self.injected })
        }
        #expect(!FileManager.default.fileExists(atPath: copy.path))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: url.deletingLastPathComponent().path)
        #expect(leftovers.allSatisfy { !$0.hasPrefix("copy.store") })
        // With a directory that syncs, the same copy is made and opens.
        try store.writeCopy(toFile: copy)
        let copied = try Store(configuration: .file(url: copy, objectTypes: [Memo.self]))
        #expect(copied.objects(Memo.self).map(\.text) == ["x"])
    }
}
