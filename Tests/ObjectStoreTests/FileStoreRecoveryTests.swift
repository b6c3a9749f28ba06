import Foundation
import Testing
import TestSupport
@testable import ObjectStore

/// What an open tells the app: an unfinished commit dropped from the end of the file (how many
/// bytes, where, which commit), and damage named as precisely as its checksum allows.
@Suite(.resourceCheck) struct FileStoreRecoveryTests {
    typealias S = FileStoreSupport

    /// Commit 3 cut in the middle: the open drops it, truncates the file to the end of commit
    /// 2, and says so once, through the configuration's callback and the store.
    @Test func anOpenThatDropsACommitCutShortTellsTheApp() throws {
        let url = try FileStoreCorruptionTests.makeFile(commits: 3)
        defer { S.cleanUp(url) }
        let original = S.bytes(url)
        let lastCommit = S.recordOffsets(original).last!
        let cut = Array(original[..<(lastCommit + (original.count - lastCommit) / 2)])
        S.write(cut, to: url)
        let told = LockedValue<[Store.RecoveryReport]>([])
        var configuration = Store.Configuration.file(url: url, objectTypes: [Memo.self])
        configuration.onRecovery = { report in told.mutate { $0.append(report) } }
        let expected = Store.RecoveryReport(path: url.standardizedFileURL.path, droppedBytes: cut.count - lastCommit,
                                            offset: lastCommit, droppedVersion: 3, truncated: true)
        do {
            let store = try Store(configuration: configuration)
            #expect(store.recoveryReport == expected)
            #expect(store.version == 2)
            #expect(store.objects(Memo.self).map(\.id).sorted() == [1, 2])
            #expect(S.bytes(url) == Array(original[..<lastCommit]))
            #expect("\(expected)" == "dropped \(cut.count - lastCommit) unfinished bytes at offset \(lastCommit) of "
                    + "\(url.standardizedFileURL.path) (commit 3 was not finished; the store opens at version 2)")
        }
        #expect(told.get() == [expected])
        // The file now ends with a whole commit: the next open has nothing to tell.
        let reopened = try Store(configuration: configuration)
        #expect(reopened.recoveryReport == nil)
        #expect(told.get().count == 1)
    }

    /// A second `Store` opened on the file while the first is alive shares its open, and its
    /// configuration's callback is told of the same drop.
    @Test func aSecondStoreOnTheOpenFileIsToldToo() throws {
        let url = try FileStoreCorruptionTests.makeFile(commits: 3)
        defer { S.cleanUp(url) }
        let original = S.bytes(url)
        let lastCommit = S.recordOffsets(original).last!
        S.write(Array(original[..<(lastCommit + 5)]), to: url)
        let first = LockedValue<[Store.RecoveryReport]>([]), second = LockedValue<[Store.RecoveryReport]>([])
        var configuration = Store.Configuration.file(url: url, objectTypes: [Memo.self])
        configuration.onRecovery = { report in first.mutate { $0.append(report) } }
        let opener = try Store(configuration: configuration)
        configuration.onRecovery = { report in second.mutate { $0.append(report) } }
        let later = try Store(configuration: configuration)
        #expect(first.get().map(\.droppedBytes) == [5])
        #expect(second.get() == first.get())
        #expect(later.recoveryReport == opener.recoveryReport)
    }

    @Test(arguments: [1, 7, 12, 13])
    func aCommitCutAfterAFewBytesIsReported(keep: Int) throws {
        let url = try FileStoreCorruptionTests.makeFile(commits: 2)
        defer { S.cleanUp(url) }
        let original = S.bytes(url)
        let lastCommit = S.recordOffsets(original).last!
        S.write(Array(original[..<(lastCommit + keep)]), to: url)
        let store = try Store(configuration: .file(url: url, objectTypes: [Memo.self]))
        #expect(store.recoveryReport?.droppedBytes == keep)
        #expect(store.recoveryReport?.offset == lastCommit)
        #expect(store.recoveryReport?.droppedVersion == 2)
    }

    @Test func aWholeFileAndAnInMemoryStoreHaveNoReport() throws {
        let url = try FileStoreCorruptionTests.makeFile(commits: 2)
        defer { S.cleanUp(url) }
        #expect(try Store(configuration: .file(url: url, objectTypes: [Memo.self])).recoveryReport == nil)
        #expect(Store().recoveryReport == nil)
    }

    /// Every byte of a small file flipped in turn: the open fails naming the damaged record,
    /// and the bytes its checksum names include the flipped one; or (in the last commit, which
    /// a crash may leave unfinished) the commit is dropped and reported from an offset at or
    /// before the flipped byte. A flipped byte at offset 40 was reported as "corrupted at byte
    /// 16" with nothing to say which bytes that covered.
    @Test func damageIsNamedAsPreciselyAsTheChecksumAllows() throws {
        let url = try FileStoreCorruptionTests.makeFile(commits: 3, compactAfter: 2)
        defer { S.cleanUp(url) }
        let original = S.bytes(url)
        let records = S.recordOffsets(original)
        var named = 0
        for position in 16..<original.count {
            var damaged = original
            damaged[position] ^= 0x08
            S.write(damaged, to: url)
            do {
                let store = try Store(configuration: .file(url: url, objectTypes: [Memo.self]))
                let report = try #require(store.recoveryReport, "byte \(position) changed without a word")
                #expect(report.offset <= position && report.offset == records.last!, "byte \(position)")
            } catch StoreError.corrupted(let offset, let reason) {
                guard reason.contains("checksum does not match") else { continue }   // a check after the checksums
                named += 1
                let ranges = Self.byteRanges(in: reason)
                #expect(ranges.contains { $0.contains(position) }, "byte \(position): \(reason)")
                #expect(records.contains(offset) || offset == 0, "byte \(position): reported at \(offset)")
            }
        }
        #expect(named > original.count / 2)
    }

    /// The `A–B` ranges a damage reason names.
    static func byteRanges(in reason: String) -> [ClosedRange<Int>] {
        var ranges: [ClosedRange<Int>] = []
        let words = reason.split(separator: " ")
        for word in words {
            let parts = word.split(separator: "–")
            if parts.count == 2, let low = Int(parts[0]), let high = Int(parts[1]) { ranges.append(low...high) }
        }
        return ranges
    }
}
