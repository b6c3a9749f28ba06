import Foundation
import Testing
import TestSupport
@testable import ObjectStore

/// Power cut before every operation of every write path (and after the last), on a
/// ``SimulatedFileSystem``, under `.full` durability. At each cut the disk is imaged several
/// ways: every unsynced change lost, every one kept, and, of the changes since the last sync,
/// every combination of lost, kept and torn after its first 512-byte sector when there are at
/// most four, else eight seeded random ones (torn at a random sector). Entries not followed by
/// a directory sync are forgotten, and each image is made again with them all kept. Each image
/// is opened with the real disk: it must hold every commit acknowledged before the cut and
/// nothing but a prefix of the commits begun (never a state that was never committed); a copy
/// `writeCopy(toFile:)` acknowledged must be there, and any copy there must be whole. The
/// figures are in `Guides/Reliability.md`, "Faults and power cuts, simulated".
@Suite(.resourceCheck) struct PowerCutTests {
    typealias S = FileStoreSupport
    typealias Kept = SimulatedFileSystem.Kept

    /// What the disk would hold after one power cut, and what had been acknowledged by then.
    private struct Image {
        let label: String
        let files: [String: [UInt8]]
        let acknowledged: [Int]
        let attempted: [Int]
        let copyAcknowledged: Bool
    }

    @Test(arguments: FaultWalk.paths) func aPowerCutBeforeEveryOperation(_ path: FaultWalk.Path) async throws {
        let url = S.temporaryFile()
        defer { S.cleanUp(url) }
        try path.prepare?(url)
        let run = FaultWalk.Run(path, in: url)
        let images = FileTestBox<[Image]>([])
        let cut: @Sendable (String) -> Void = { label in
            for keepingEntries in [false, true] {
                let made = Self.patterns(run.disk.unsyncedChanges(keepingEntries: keepingEntries)).enumerated().map { number, keep in
                    Image(label: "\(label), image \(number)\(keepingEntries ? ", unsynced entries kept" : "")",
                          files: run.disk.powerCut(keepingEntries: keepingEntries, keep),
                          acknowledged: run.acknowledged, attempted: run.attempted, copyAcknowledged: run.copyAcknowledged)
                }
                images.withLock { $0 += made }
            }
        }
        run.disk.beforeOperation = { index in cut("\(path.name), cut before operation \(index)") }
        await path.steps(run)
        run.disk.beforeOperation = nil
        cut("\(path.name), cut after the last operation")
        #expect(run.errors.isEmpty, "\(run.errors)")
        run.close()
        let all = images.withLock { $0 }
        for image in all {
            do { try Self.check(image, url: url, path: path) } catch { Issue.record("\(image.label): \(error)") }
        }
        print("PowerCutTests: \(path.name): \(run.disk.operations.count) operations, \(all.count) power cuts simulated")
    }

    /// What to keep of `count` unsynced changes, in each image of one cut.
    private static func patterns(_ count: Int) -> [(Int) -> Kept] {
        var patterns: [(Int) -> Kept] = [{ _ in .none }, { _ in .whole }]
        if count == 0 { return [patterns[0]] }
        let choices: [Kept] = [.none, .whole, .torn(sectors: 1)]
        if count <= 4 {
            var combination = Array(repeating: 0, count: count)
            for _ in 0..<Int(pow(3.0, Double(count))) {
                let fixed = combination.map { choices[$0] }
                patterns.append { fixed[$0] }
                for digit in 0..<count {   // the next combination, in base 3
                    combination[digit] += 1
                    if combination[digit] < 3 { break }
                    combination[digit] = 0
                }
            }
        } else {
            var random = SeededRandom(seed: UInt64(count))
            for _ in 0..<8 {
                let fixed: [Kept] = (0..<count).map { _ in
                    switch random.next() % 3 {
                    case 0: .none
                    case 1: .whole
                    default: .torn(sectors: Int(random.next() % 8))
                    }
                }
                patterns.append { fixed[$0] }
            }
        }
        return patterns
    }

    private static func check(_ image: Image, url: URL, path: FaultWalk.Path) throws {
        let ids = try FaultWalk.ids(in: image.files[url.path] ?? [], schemaVersion: path.schemaVersion)
        #expect(Set(image.acknowledged).isSubset(of: ids), "\(image.label): acknowledged \(image.acknowledged), found \(ids)")
        #expect(ids == Array(image.attempted.prefix(ids.count)), "\(image.label): begun \(image.attempted), found \(ids)")
        let copy = FaultWalk.copyURL(url).path
        if image.copyAcknowledged { #expect(image.files[copy] != nil, "\(image.label): the acknowledged copy was lost") }
        if let bytes = image.files[copy] {
            #expect(try FaultWalk.ids(in: bytes, schemaVersion: 0) == path.prepared, "\(image.label): the copy")
        }
    }
}
