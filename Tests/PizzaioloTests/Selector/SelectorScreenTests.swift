import Foundation
import HeadlessUI
import Streams
import Testing
import TestSupport
@testable import Pizzaiolo

/// The Selector's list of the pizzas its chips select: one live query that follows the chips,
/// so a chip switch is one batch update of the table (the rows that left and came), never a
/// reload.
@MainActor @Suite(.resourceCheck) struct SelectorScreenTests {
    static func names(_ table: TableView) -> [String] {
        (0..<table.numberOfRows(inSection: 0)).compactMap { table.cellForRow(at: IndexPath(row: $0, section: 0))?.textLabel?.text }
    }

    @Test func aChipSwitchAnimatesTheListInsteadOfReloadingIt() throws {
        let backend = Backend.embedded()
        let (app, selector) = try launchSelector(backend)
        let list = selector.list
        #expect(list.numberOfRows(inSection: 0) == 9)
        let (reloads, batches) = (list.reloadCount, list.batchUpdateCount)

        app.tap(selector.chips.first { $0.title == "Seafood" })
        #expect(Self.names(list) == ["Frutti di Mare"])
        #expect(list.reloadCount == reloads)                        // not reloaded…
        #expect(list.batchUpdateCount == batches + 1)               // …but one batch update
        let narrowed = try #require(list.lastBatchUpdate)
        #expect(narrowed.deletedRows.count == 8)
        #expect(narrowed.insertedRows.isEmpty)

        app.tap(selector.chips.first { $0.title == "Seafood" })    // the chip off: all nine again
        #expect(list.numberOfRows(inSection: 0) == 9)
        #expect(list.reloadCount == reloads)
        #expect(list.batchUpdateCount == batches + 2)
        let widened = try #require(list.lastBatchUpdate)
        #expect(widened.insertedRows.count == 8)
        #expect(widened.deletedRows.isEmpty)
    }

    @Test func aRowTapShowsItsPage() throws {
        let backend = Backend.embedded()
        let (app, selector) = try launchSelector(backend)
        app.tap(selector.chips.first { $0.title == "Vegetarian" })
        let rows = Self.names(selector.list)
        #expect(rows.count > 1)
        Headless.run { _ = selector.list.tapRow(at: IndexPath(row: rows.count - 1, section: 0)) }
        backend.settle()                                            // its photo
        #expect(selector.nameLabel.text == rows.last)
    }
}
