import Foundation
import Testing
import TestSupport
@testable import Pizzaiolo

/// The walkthrough `swift run pizzaiolo` prints, compared with the reviewed snapshot in
/// `Snapshots/walkthrough.txt`. After an intended change, regenerate it with
/// `REACTIVEMVVM_RECORD_SNAPSHOTS=1 swift test --filter WalkthroughTests` and review the diff.
@MainActor @Suite(.resourceCheck) struct WalkthroughTests {
    static let snapshot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Snapshots/walkthrough.txt")

    @Test func theWalkthroughPrintsTheReviewedSnapshot() throws {
        var output = ""
        try Walkthrough.run(storeConfiguration: memoryStore()) { output += $0 }
        if ProcessInfo.processInfo.environment["REACTIVEMVVM_RECORD_SNAPSHOTS"] == "1" {
            try FileManager.default.createDirectory(at: Self.snapshot.deletingLastPathComponent(), withIntermediateDirectories: true)
            try output.write(to: Self.snapshot, atomically: true, encoding: .utf8)
        }
        let expected = try String(contentsOf: Self.snapshot, encoding: .utf8)
        #expect(output == expected)
    }

    @Test func twoRunsPrintTheSameText() throws {
        var first = ""
        var second = ""
        try Walkthrough.run(storeConfiguration: memoryStore()) { first += $0 }
        try Walkthrough.run(storeConfiguration: memoryStore()) { second += $0 }
        #expect(first == second)
        #expect(first.contains("Order Placed"))
    }
}
