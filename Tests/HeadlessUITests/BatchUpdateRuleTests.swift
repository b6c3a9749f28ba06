import Foundation
import HeadlessUI
import Testing

/// Every rule UIKit enforces on one `performBatchUpdates`, each broken once: the batch is
/// refused with that rule, in UIKit's words, and the table reloads to match its data source.
@MainActor @Suite(.resourceCheck) struct BatchUpdateRuleTests {
    /// Runs `updates` as one batch on a table whose data source goes from the row counts `old`
    /// to `new`; the error it is refused with, or `nil` when it is accepted.
    func refusal(_ old: [Int], _ new: [Int], _ updates: @escaping (TableView) -> Void) -> BatchUpdateError? {
        let table = TableView(height: 10_000, rowHeight: 1)
        table.register(TableViewCell.self, forCellReuseIdentifier: "Cell")
        let dataSource = CountsDataSource(old)
        table.dataSource = dataSource
        dataSource.counts = new
        do {
            try table.performBatchUpdates { updates(table) }
        } catch let error as BatchUpdateError {
            #expect(table.numberOfSections == new.count, "the table reloads after a refused batch")
            return error
        } catch {
            Issue.record("unexpected \(error)")
        }
        return nil
    }

    func path(_ section: Int, _ row: Int) -> IndexPath { IndexPath(row: row, section: section) }

    /// Each rule, a batch that breaks only it, and words of UIKit's message for it.
    nonisolated static let cases: [(BatchUpdateError.Rule, old: [Int], new: [Int], words: String, updates: @MainActor @Sendable (TableView) -> Void)] = [
        (.sectionOutOfRangeBefore, [1, 1], [1], "attempt to delete section 2, but there are only 2 sections before the update", { $0.deleteSections([2]) }),
        (.sectionOutOfRangeAfter, [1], [1, 1], "attempt to insert section 2 but there are only 2 sections after the update", { $0.insertSections([2]) }),
        (.deleteAndReloadSameSection, [1, 1], [1], "attempt to delete and reload the same section (0)", { $0.deleteSections([0]); $0.reloadSections([0]) }),
        (.deleteAndMoveSameSection, [1, 1], [1], "attempt to perform a delete and a move from the same section (0)", { $0.deleteSections([0]); $0.moveSection(0, toSection: 0) }),
        (.reloadAndMoveSameSection, [1, 1], [1, 1], "attempt to create two animations for cell", { $0.reloadSections([0]); $0.moveSection(0, toSection: 1) }),
        (.insertAndMoveSameSection, [1, 1], [1, 1, 1], "attempt to perform an insert and a move to the same section (0)", { $0.insertSections([0]); $0.moveSection(1, toSection: 0) }),
        (.twoMovesFromOneSection, [1, 1], [1, 1], "attempt to move section 0 more than once", { $0.moveSection(0, toSection: 1); $0.moveSection(0, toSection: 0) }),
        (.twoMovesToOneSection, [1, 1], [1, 1], "attempt to move two sections to section 1", { $0.moveSection(0, toSection: 1); $0.moveSection(1, toSection: 1) }),
        (.invalidNumberOfSections, [1, 1], [1, 1], "invalid number of sections. The number of sections contained in the table view after the update (2)", { $0.insertSections([1]) }),
        (.invalidIndexPath, [2], [2], "Attempted to perform update with invalid index path: {length = 1, path = 0}", { $0.reloadRows(at: [IndexPath(index: 0)]) }),
        (.rowOutOfRangeBefore, [3], [2], "attempt to delete row 3 from section 0 which only contains 3 rows before the update", { $0.deleteRows(at: [IndexPath(row: 3, section: 0)]) }),
        (.rowOutOfRangeAfter, [5], [6], "attempt to insert row 6 into section 0, but there are only 6 rows in section 0 after the update", { $0.insertRows(at: [IndexPath(row: 6, section: 0)]) }),
        (.rowInDeletedSection, [2, 2], [2], "attempt to delete row 0 from section 1, which is deleted in the same update", { $0.deleteSections([1]); $0.deleteRows(at: [IndexPath(row: 0, section: 1)]) }),
        (.rowInReloadedSection, [2, 2], [2, 2], "attempt to reload row 0 from section 1, which is reloaded in the same update", { $0.reloadSections([1]); $0.reloadRows(at: [IndexPath(row: 0, section: 1)]) }),
        (.rowInInsertedSection, [2], [2, 1], "attempt to insert row 0 into section 1, which is inserted in the same update", { $0.insertSections([1]); $0.insertRows(at: [IndexPath(row: 0, section: 1)]) }),
        (.moveFromDeletedSection, [2, 2], [3], "cannot move a row from a deleted section (1)", { $0.deleteSections([1]); $0.moveRow(at: IndexPath(row: 0, section: 1), to: IndexPath(row: 0, section: 0)) }),
        (.moveIntoInsertedSection, [2], [1, 1], "cannot move a row into a newly inserted section (1)", { $0.insertSections([1]); $0.moveRow(at: IndexPath(row: 0, section: 0), to: IndexPath(row: 0, section: 1)) }),
        (.duplicateIndexPath, [3], [1], "attempt to delete the same index path ({length = 2, path = 0 - 1}) twice", { $0.deleteRows(at: [IndexPath(row: 1, section: 0), IndexPath(row: 1, section: 0)]) }),
        (.deleteAndReloadSameIndexPath, [3], [2], "attempt to delete and reload the same index path ({length = 2, path = 0 - 1})", { $0.deleteRows(at: [IndexPath(row: 1, section: 0)]); $0.reloadRows(at: [IndexPath(row: 1, section: 0)]) }),
        (.deleteAndMoveSameIndexPath, [3], [2], "attempt to perform a delete and a move from the same index path ({length = 2, path = 0 - 1})", { $0.deleteRows(at: [IndexPath(row: 1, section: 0)]); $0.moveRow(at: IndexPath(row: 1, section: 0), to: IndexPath(row: 0, section: 0)) }),
        (.insertAndMoveSameIndexPath, [3], [4], "attempt to perform an insert and a move to the same index path ({length = 2, path = 0 - 0})", { $0.insertRows(at: [IndexPath(row: 0, section: 0)]); $0.moveRow(at: IndexPath(row: 2, section: 0), to: IndexPath(row: 0, section: 0)) }),
        (.reloadAndMoveSameIndexPath, [3], [3], "attempt to create two animations for cell", { $0.reloadRows(at: [IndexPath(row: 1, section: 0)]); $0.moveRow(at: IndexPath(row: 1, section: 0), to: IndexPath(row: 0, section: 0)) }),
        (.reloadInMovedSection, [1, 2], [2, 1], "row 0 of section 1 is reloaded while section 1 moves", { $0.moveSection(1, toSection: 0); $0.reloadRows(at: [IndexPath(row: 0, section: 1)]) }),
        (.twoMovesFromOneIndexPath, [3], [3], "attempt to move index path ({length = 2, path = 0 - 0}) more than once", { $0.moveRow(at: IndexPath(row: 0, section: 0), to: IndexPath(row: 1, section: 0)); $0.moveRow(at: IndexPath(row: 0, section: 0), to: IndexPath(row: 2, section: 0)) }),
        (.twoMovesToOneIndexPath, [3], [3], "attempt to move two rows to index path ({length = 2, path = 0 - 2})", { $0.moveRow(at: IndexPath(row: 0, section: 0), to: IndexPath(row: 2, section: 0)); $0.moveRow(at: IndexPath(row: 1, section: 0), to: IndexPath(row: 2, section: 0)) }),
        (.invalidNumberOfRows, [3], [4], "invalid number of rows in section 0. The number of rows contained in an existing section after the update (4) must be equal to the number of rows contained in that section before the update (3), plus or minus the number of rows inserted or deleted from that section (0 inserted, 0 deleted)", { _ in }),
    ]

    @Test func everyRuleHasACase() {
        #expect(Set(Self.cases.map(\.0.rawValue)) == Set(BatchUpdateError.Rule.allCases.map(\.rawValue)))
    }

    @Test(arguments: 0..<BatchUpdateRuleTests.cases.count)
    func eachRuleIsRefusedInUIKitsWords(index: Int) {
        let (rule, old, new, words, updates) = Self.cases[index]
        let error = refusal(old, new, updates)
        #expect(error?.rule == rule)
        #expect(error?.reason.contains(words) == true, "\(error?.reason ?? "accepted")")
        #expect(error?.reason.hasPrefix("Invalid update: ") == true)
    }

    @Test func movesOutOfRangeUseUIKitsMoveMessages() {
        let before = refusal([2], [2]) { $0.moveRow(at: path(0, 2), to: path(0, 0)) }
        #expect(before?.rule == .rowOutOfRangeBefore)
        #expect(before?.reason.contains("attempt to move index path ({length = 2, path = 0 - 2}) that does not exist - there are only 2 rows in section 0 before the update") == true)
        let after = refusal([2], [2]) { $0.moveRow(at: path(0, 0), to: path(0, 2)) }
        #expect(after?.rule == .rowOutOfRangeAfter)
        #expect(after?.reason.contains("to index path ({length = 2, path = 0 - 2}) that does not exist - there are only 2 rows in section 0 after the update") == true)
    }

    @Test func anUpdateAndAMoveOfOneRowInOneBatchIsRefused() {
        // What a single-changeset diff gives for [a, b, c] → [b', a, c]: reload b, move it up.
        let error = refusal([3], [3]) {
            $0.reloadRows(at: [path(0, 1)])
            $0.moveRow(at: path(0, 1), to: path(0, 0))
        }
        #expect(error?.rule == .reloadAndMoveSameIndexPath)
        // The same changes as two batches, reload first, are accepted.
        #expect(refusal([3], [3]) { $0.reloadRows(at: [path(0, 1)]) } == nil)
        #expect(refusal([3], [3]) { $0.moveRow(at: path(0, 1), to: path(0, 0)) } == nil)
    }

    @Test func batchesThatFollowEveryRuleAreAccepted() {
        // Deletes and reloads at old paths, inserts and move targets at new ones, in one batch.
        #expect(refusal([3, 2], [2, 3]) {
            $0.deleteRows(at: [path(0, 0)])
            $0.reloadRows(at: [path(0, 2)])
            $0.insertRows(at: [path(1, 0)])
            $0.moveRow(at: path(1, 1), to: path(0, 0))
            $0.moveRow(at: path(0, 1), to: path(1, 1))
        } == nil)
        // Sections: delete one, insert one, move one, reload one; rows moving with their section.
        #expect(refusal([1, 2, 3, 4], [4, 9, 1, 3]) {
            $0.deleteSections([1])
            $0.insertSections([1])
            $0.moveSection(3, toSection: 0)
            $0.reloadSections([0])
            $0.reloadRows(at: [path(2, 1)])
        } == nil)
    }
}
