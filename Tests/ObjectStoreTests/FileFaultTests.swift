import Foundation
import Testing
import TestSupport
@testable import ObjectStore

/// Every operation of every write path failed once, on a ``SimulatedFileSystem``: each path's
/// operations are counted with no fault, then it runs again failing the N-th one with each
/// fault that can hit it (EIO, ENOSPC, EINTR, a short write), for every N. After each run:
/// every error thrown is a ``StoreError`` (a full disk ``StoreError/diskFull(path:operation:)``),
/// an EINTR or a short write shows nowhere, the same store object commits again once the fault
/// has passed, and the file, reopened, holds exactly the acknowledged commits (a copy
/// `writeCopy(toFile:)` acknowledged is whole, one it did not is absent). The disk is also
/// imaged as a power cut would leave it, right after the fault and again after the next
/// commit: every acknowledged commit is there, nothing but commits begun. The figures are in
/// `Guides/Reliability.md`, "Faults and power cuts, simulated".
@Suite(.resourceCheck) struct FileFaultTests {
    typealias S = FileStoreSupport
    typealias Fault = SimulatedFileSystem.Fault

    @Test(arguments: FaultWalk.paths) func everyOperationFailedOnce(_ path: FaultWalk.Path) async throws {
        let operations = try await Self.run(path, failing: nil)
        var injected = 0
        for (index, kind) in operations.enumerated() {
            for fault in Fault.allCases where fault.applies(to: kind) {
                do {
                    _ = try await Self.run(path, failing: (index, fault))
                } catch {
                    Issue.record("\(path.name), operation \(index) (\(kind)) failing with \(fault): \(error)")
                }
                injected += 1
            }
        }
        print("FileFaultTests: \(path.name): \(operations.count) operations, \(injected) runs each failing one")
    }

    /// Runs `path` once, failing `failing` if given, and checks it; returns the operations made.
    private static func run(_ path: FaultWalk.Path, failing: (index: Int, fault: Fault)?) async throws -> [SimulatedFileSystem.Operation] {
        let url = S.temporaryFile()
        defer { S.cleanUp(url) }
        try path.prepare?(url)
        let run = FaultWalk.Run(path, in: url)
        if let failing { run.disk.fail(operation: failing.index, with: failing.fault) }
        await path.steps(run)
        let operations = run.disk.operations
        let label = failing.map { "\(path.name), operation \($0.index) (\(operations[$0.index])) failing with \($0.fault)" } ?? path.name
        for (step, error) in run.errors {
            #expect(error is StoreError, "\(label): \(step) threw \(error)")
        }
        switch failing?.fault {
        case nil, .interrupted?, .shortWrite?:
            #expect(run.errors.isEmpty, "\(label): \(run.errors)")
        case .diskFull?:
            if let first = run.errors.first, case .diskFull = first.error as? StoreError {} else if let first = run.errors.first {
                Issue.record("\(label): \(first.step) threw \(first.error), not diskFull")
            }
        case .ioError?:
            break
        }
        try powerCuts(run, path: path, "\(label), then a power cut")
        // The same store goes on (a failed open is tried again: the fault has passed).
        if run.store == nil { run.open() }
        run.commit(99)
        #expect(run.acknowledged.last == 99, "\(label): after the fault: \(run.errors)")
        try powerCuts(run, path: path, "\(label), then a commit and a power cut", exact: true)
        run.close()
        let ids = try FaultWalk.ids(in: S.bytes(url), schemaVersion: path.schemaVersion)
        #expect(ids == run.acknowledged.sorted(), "\(label)")
        let copy = FaultWalk.copyURL(url)
        if run.copyAcknowledged {
            #expect(try FaultWalk.ids(in: S.bytes(copy), schemaVersion: 0) == path.prepared, "\(label): the copy")
        } else {
            #expect(!FileManager.default.fileExists(atPath: copy.path), "\(label): a copy that failed was left")
        }
        return operations
    }

    /// Cuts the power now, four ways (every unsynced change lost or kept, unsynced directory
    /// entries forgotten or kept), and checks each image holds every acknowledged commit and
    /// nothing but commits begun; with `exact` (everything acknowledged was synced since), it
    /// holds the acknowledged commits and no other.
    private static func powerCuts(_ run: FaultWalk.Run, path: FaultWalk.Path, _ label: String, exact: Bool = false) throws {
        for keepingEntries in [false, true] {
            for kept in [SimulatedFileSystem.Kept.none, .whole] {
                let files = run.disk.powerCut(keepingEntries: keepingEntries) { _ in kept }
                let ids = try FaultWalk.ids(in: files[run.url.path] ?? [], schemaVersion: path.schemaVersion)
                let image = "\(label) (unsynced changes \(kept), entries \(keepingEntries ? "kept" : "forgotten"))"
                #expect(Set(run.acknowledged).isSubset(of: ids), "\(image): acknowledged \(run.acknowledged), found \(ids)")
                #expect(Set(ids).isSubset(of: run.attempted), "\(image): begun \(run.attempted), found \(ids)")
                if exact, case .none = kept { #expect(ids == run.acknowledged.sorted(), "\(image)") }
            }
        }
    }
}
