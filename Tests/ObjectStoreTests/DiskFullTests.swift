import Foundation
import Testing
import TestSupport
@testable import ObjectStore

/// A full disk, for real: a store on a 1 MiB tmpfs fills it. The commit that does not fit throws
/// ``StoreError/diskFull(path:operation:)``, reads go on with every acknowledged commit, and
/// once space is freed the same store writes again, with no reopening; reopened, the file holds
/// exactly the acknowledged commits. Mounting needs root on Linux: elsewhere the test prints
/// why it did not run and passes without checking anything.
@Suite(.resourceCheck, .startsProcesses) struct DiskFullTests {
    typealias S = FileStoreSupport

    /// Mounts a tmpfs of `size` at a new folder; `nil` (with the reason printed) when it cannot.
    private static func mountTmpfs(size: String) -> URL? {
        let dir = S.temporaryFile().deletingLastPathComponent().appendingPathComponent("full", isDirectory: true)
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        guard FileManager.default.isExecutableFile(atPath: "/bin/mount"),
              let mount = try? ChildProcess(URL(fileURLWithPath: "/bin/mount"),
                                            arguments: ["-t", "tmpfs", "-o", "size=\(size)", "tmpfs", dir.path],
                                            output: Pipe(), discardingStandardError: true)
        else {
            print("DiskFullTests: skipped, no mount command here")
            return nil
        }
        mount.waitUntilExit()
        let mounts = (try? String(contentsOfFile: "/proc/mounts", encoding: .utf8)) ?? ""
        guard mounts.contains(" \(dir.path) tmpfs ") else {
            print("DiskFullTests: skipped, a tmpfs could not be mounted (it needs root on Linux)")
            S.cleanUp(dir)
            return nil
        }
        return dir
    }

    private static func unmount(_ dir: URL) {
        if let umount = try? ChildProcess(URL(fileURLWithPath: "/bin/umount"), arguments: [dir.path], output: Pipe()) {
            umount.waitUntilExit()
        }
        S.cleanUp(dir)
    }

    @Test func aFullDiskIsItsOwnErrorAndTheSameStoreWritesAgainOnceSpaceIsFreed() throws {
        guard let dir = Self.mountTmpfs(size: "1m") else { return }
        defer { Self.unmount(dir) }
        let url = dir.appendingPathComponent("full.store")
        let filler = dir.appendingPathComponent("filler")
        try Data(repeating: 7, count: 384 << 10).write(to: filler)
        let text = String(repeating: "x", count: 4 << 10)
        var acknowledged = 0
        var failure: Error?
        do {
            let store = try FileStoreTests.open(url, [Memo.self], autoCompaction: .never)
            for id in 0..<1_000 {
                do {
                    try store.write { try $0.add(Memo(id: id, topic: "t", text: text)) }
                    acknowledged += 1
                } catch {
                    failure = error
                    break
                }
            }
            // The commit that did not fit says the disk is full, in its own case.
            guard case .diskFull(let path, _)? = failure as? StoreError else {
                Issue.record("expected diskFull, got \(String(describing: failure))")
                return
            }
            #expect(path == url.path)
            #expect(acknowledged > 10)
            // Reads go on with every acknowledged commit, and nothing of the failed one.
            #expect(store.objects(Memo.self).count == acknowledged)
            #expect(store.object(ofType: Memo.self, forPrimaryKey: acknowledged) == nil)
            // A compaction cannot fit either: it fails, and the store is as it was.
            #expect(throws: StoreError.self) { try store.compact() }
            #expect(store.objects(Memo.self).count == acknowledged)
            // Space freed: the same store object writes again.
            try FileManager.default.removeItem(at: filler)
            try store.write { try $0.add(Memo(id: acknowledged, topic: "t", text: "after")) }
            #expect(store.objects(Memo.self).count == acknowledged + 1)
        }
        // Reopened, the file holds exactly the acknowledged commits and the one after.
        let reopened = try FileStoreTests.open(url, [Memo.self])
        #expect(reopened.objects(Memo.self).count == acknowledged + 1)
        #expect(reopened.object(ofType: Memo.self, forPrimaryKey: acknowledged)?.text == "after")
        #expect(reopened._checkInvariants())
    }
}
