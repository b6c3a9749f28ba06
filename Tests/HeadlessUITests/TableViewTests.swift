import Foundation
import HeadlessUI
import Streams
import TestSupport
import Testing

/// A plain data source over sections of strings.
final class StringsDataSource: TableViewDataSource, TableViewDataSourcePrefetching {
    var sections: [[String]]
    var prefetched: [IndexPath] = []
    var cancelled: [IndexPath] = []
    var committed: [IndexPath] = []

    init(_ sections: [[String]]) { self.sections = sections }

    func numberOfSections(in tableView: TableView) -> Int { sections.count }
    func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int { sections[section].count }
    func tableView(_ tableView: TableView, cellForRowAt indexPath: IndexPath) -> TableViewCell {
        let cell = tableView.dequeueReusableCell(withIdentifier: "Cell", for: indexPath)
        cell.textLabel?.text = sections[indexPath.section][indexPath.row]
        return cell
    }
    func tableView(_ tableView: TableView, commit editingStyle: TableViewCell.EditingStyle, forRowAt indexPath: IndexPath) {
        committed.append(indexPath)
    }
    func tableView(_ tableView: TableView, prefetchRowsAt indexPaths: [IndexPath]) { prefetched += indexPaths }
    func tableView(_ tableView: TableView, cancelPrefetchingForRowsAt indexPaths: [IndexPath]) { cancelled += indexPaths }
}

final class SelectionDelegate: TableViewDelegate {
    var selected: [IndexPath] = []
    var tallRow: Int?
    func tableView(_ tableView: TableView, didSelectRowAt indexPath: IndexPath) { selected.append(indexPath) }
    func tableView(_ tableView: TableView, heightForRowAt indexPath: IndexPath) -> Double {
        indexPath.row == tallRow ? 100 : tableView.rowHeight
    }
}

@MainActor
func texts(_ table: TableView) -> [String] {
    table.visibleCells.map { $0.textLabel?.text ?? "" }
}

@MainActor @Suite(.resourceCheck) struct TableViewTests {
    func makeTable(rows: Int, height: Double = 132) -> (TableView, StringsDataSource) {
        let table = TableView(height: height, rowHeight: 44)
        table.register(TableViewCell.self, forCellReuseIdentifier: "Cell")
        let dataSource = StringsDataSource([(0..<rows).map { "row \($0)" }])
        table.dataSource = dataSource
        return (table, dataSource)
    }

    @Test func viewportDecidesVisibleRows() {
        let (table, source) = makeTable(rows: 100)
        defer { withExtendedLifetime(source) {} }
        #expect(table.indexPathsForVisibleRows == (0..<3).map { IndexPath(row: $0, section: 0) })
        #expect(table.cellForRow(at: IndexPath(row: 3, section: 0)) == nil)
        table.scroll(to: 50)
        #expect(texts(table) == ["row 1", "row 2", "row 3", "row 4"])
        table.scroll(to: 1_000_000)
        #expect(table.contentOffset == 100 * 44 - 132)
        #expect(texts(table) == ["row 97", "row 98", "row 99"])
        table.scroll(to: -5)
        #expect(table.contentOffset == 0)
    }

    @Test func cellsLeavingTheViewportAreReused() {
        let (table, source) = makeTable(rows: 1_000)
        defer { withExtendedLifetime(source) {} }
        let first = table.cellForRow(at: IndexPath(row: 0, section: 0))
        for offset in stride(from: 0.0, through: 20_000, by: 30) { table.scroll(to: offset) }
        #expect(table.cellCount <= 5)
        #expect(table.visibleCells.count <= 4)
        #expect(table.visibleCells.contains { $0 === first } || table.reusePoolCount > 0)
        #expect(texts(table).first == "row \(Int(20_000 / 44))")
    }

    @Test func prepareForReuseRunsWhenACellLeavesTheViewport() throws {
        let table = TableView(height: 88, rowHeight: 44)
        table.register(PizzaCell.self, forCellReuseIdentifier: "Pizza")
        let bag = DisposeBag()
        Headless.run {
            Observable.just((0..<10).map { "pizza \($0)" })
                .bind(to: table.rx.items(cellIdentifier: "Pizza", cellType: PizzaCell.self)) { _, name, cell in cell.name.text = name }
                .disposed(by: bag)
        }
        let cell = table.cellForRow(at: IndexPath(row: 0, section: 0)) as? PizzaCell
        #expect(cell?.name.text == "pizza 0")
        table.scroll(to: 88)
        #expect(cell?.reuseCount == 1)
        // The cell came back for a new row and shows that row's name.
        let row = try #require(cell?.indexPath?.row)
        #expect([2, 3].contains(row))
        #expect(cell?.name.text == "pizza \(row)")
    }

    @Test func delegateRowHeightsShapeTheViewport() {
        let (table, source) = makeTable(rows: 10)
        defer { withExtendedLifetime(source) {} }
        let delegate = SelectionDelegate()
        delegate.tallRow = 0
        table.delegate = delegate
        #expect(table.indexPathsForVisibleRows.map(\.row) == [0, 1])
        #expect(table.contentHeight == 100 + 9 * 44)
        table.scrollToRow(at: IndexPath(row: 5, section: 0))
        #expect(table.contentOffset == 100 + 4 * 44)
    }

    @Test func sectionsFlowOneAfterAnother() {
        let table = TableView(height: 176, rowHeight: 44)
        table.register(TableViewCell.self, forCellReuseIdentifier: "Cell")
        let dataSource = StringsDataSource([["a0", "a1"], [], ["c0", "c1", "c2"]])
        table.dataSource = dataSource
        #expect(table.numberOfSections == 3)
        #expect(table.numberOfRows(inSection: 2) == 3)
        #expect(table.indexPathsForVisibleRows == [IndexPath(row: 0, section: 0), IndexPath(row: 1, section: 0), IndexPath(row: 0, section: 2), IndexPath(row: 1, section: 2)])
        #expect(table.render() == """
        TableView 5 rows in 3 sections, offset 0
          TableViewCell [0,0]
            Label "a0"
          TableViewCell [0,1]
            Label "a1"
          TableViewCell [2,0]
            Label "c0"
          TableViewCell [2,1]
            Label "c1"
        """)
    }

    @Test func reloadDataRereadsTheDataSource() {
        let (table, dataSource) = makeTable(rows: 3)
        dataSource.sections = [["x", "y"]]
        #expect(texts(table) == ["row 0", "row 1", "row 2"])
        table.reloadData()
        #expect(texts(table) == ["x", "y"])
    }

    @Test func validBatchUpdatesMoveCellsAndKeepThem() throws {
        let (table, dataSource) = makeTable(rows: 3)
        let keep = table.cellForRow(at: IndexPath(row: 2, section: 0))
        dataSource.sections = [["new", "row 0", "row 2"]]
        var completed = false
        try table.performBatchUpdates({
            table.deleteRows(at: [IndexPath(row: 1, section: 0)])
            table.insertRows(at: [IndexPath(row: 0, section: 0)])
        }, completion: { completed = $0 })
        #expect(completed)
        #expect(texts(table) == ["new", "row 0", "row 2"])
        #expect(table.cellForRow(at: IndexPath(row: 2, section: 0)) === keep)
        #expect(table.batchUpdateCount == 1)
    }

    @Test func moveAndReload() throws {
        let (table, dataSource) = makeTable(rows: 3)
        dataSource.sections = [["row 2", "row 0", "ROW 1"]]
        try table.performBatchUpdates({
            table.moveRow(at: IndexPath(row: 2, section: 0), to: IndexPath(row: 0, section: 0))
            table.reloadRows(at: [IndexPath(row: 1, section: 0)])
        })
        #expect(texts(table) == ["row 2", "row 0", "ROW 1"])
    }

    @Test func invalidBatchIsATypedErrorAndTheTableRecovers() {
        let (table, dataSource) = makeTable(rows: 3)
        dataSource.sections = [["a", "b", "c", "d"]]
        #expect {
            try table.performBatchUpdates({ table.deleteRows(at: [IndexPath(row: 0, section: 0)]) })
        } throws: { error in
            guard let error = error as? BatchUpdateError else { return false }
            return error.reason.contains("invalid number of rows in section 0")
                && error.reason.contains("after the update (4)") && error.reason.contains("before the update (3)")
        }
        #expect(texts(table) == ["a", "b", "c"])
        #expect(table.numberOfRows(inSection: 0) == 4)
        #expect(throws: BatchUpdateError.self) {
            try table.performBatchUpdates({ table.deleteRows(at: [IndexPath(row: 9, section: 0)]) })
        }
        dataSource.sections = []
        #expect(throws: BatchUpdateError.self) {
            try table.performBatchUpdates({})
        }
    }

    @Test func singleUpdateOutsideABatchReportsAnInvalidChange() {
        let (table, dataSource) = makeTable(rows: 2)
        dataSource.sections = [["a", "b", "c"]]
        table.insertRows(at: [IndexPath(row: 2, section: 0)])
        #expect(texts(table) == ["row 0", "row 1", "c"])
        let (_, errors) = capturingProgrammingErrors {
            table.insertRows(at: [IndexPath(row: 0, section: 0)])
        }
        #expect(errors.count == 1)
        #expect(errors.first?.contains("Invalid update") == true)
    }

    @Test func sectionBatchUpdates() throws {
        let table = TableView(height: 440, rowHeight: 44)
        table.register(TableViewCell.self, forCellReuseIdentifier: "Cell")
        let dataSource = StringsDataSource([["a"], ["b"], ["c"]])
        table.dataSource = dataSource
        dataSource.sections = [["c"], ["new"], ["a"]]
        try table.performBatchUpdates({
            table.deleteSections([1])
            table.insertSections([1])
            table.moveSection(2, toSection: 0)
        })
        #expect(texts(table) == ["c", "new", "a"])
        dataSource.sections = [["c"], ["a"]]
        #expect(throws: BatchUpdateError.self) {
            try table.performBatchUpdates({ table.deleteSections([0, 1]) })
        }
    }

    @Test func tapSelectsAndNotifiesDelegateAndRx() {
        let (table, source) = makeTable(rows: 10)
        defer { withExtendedLifetime(source) {} }
        let delegate = SelectionDelegate()
        table.delegate = delegate
        var selected: [IndexPath] = []
        let subscription = table.rx.itemSelected.subscribe(onNext: { selected.append($0) })
        #expect(table.tapRow(at: IndexPath(row: 1, section: 0)))
        #expect(!table.tapRow(at: IndexPath(row: 8, section: 0)))
        #expect(delegate.selected == [IndexPath(row: 1, section: 0)])
        #expect(selected == [IndexPath(row: 1, section: 0)])
        #expect(table.indexPathForSelectedRow == IndexPath(row: 1, section: 0))
        #expect(table.cellForRow(at: IndexPath(row: 1, section: 0))?.isSelected == true)
        table.deselectRow(at: IndexPath(row: 1, section: 0))
        #expect(table.indexPathForSelectedRow == nil)
        subscription.dispose()
    }

    @Test func swipeToDeleteCommitsAndEmits() {
        let (table, dataSource) = makeTable(rows: 5)
        var deleted: [IndexPath] = []
        let subscription = table.rx.itemDeleted.subscribe(onNext: { deleted.append($0) })
        #expect(table.swipeToDelete(rowAt: IndexPath(row: 2, section: 0)))
        #expect(dataSource.committed == [IndexPath(row: 2, section: 0)])
        #expect(deleted == [IndexPath(row: 2, section: 0)])
        subscription.dispose()
    }

    @Test func prefetchingAnnouncesRowsNearTheViewport() {
        let (table, dataSource) = makeTable(rows: 100)
        table.prefetchDataSource = dataSource
        table.prefetchDistance = 2
        #expect(dataSource.prefetched == [IndexPath(row: 3, section: 0), IndexPath(row: 4, section: 0)])
        table.scroll(to: 44)
        // Row 3 became visible (cancelled), row 5 entered the window; row 0 left the viewport into it.
        #expect(dataSource.cancelled == [IndexPath(row: 3, section: 0)])
        #expect(Set(dataSource.prefetched) == Set([0, 3, 4, 5].map { IndexPath(row: $0, section: 0) }))
    }

    @Test func unregisteredIdentifierIsAProgrammingError() {
        let table = TableView()
        let dataSource = StringsDataSource([["a"]])
        let (_, errors) = capturingProgrammingErrors { table.dataSource = dataSource }
        #expect(errors.count == 1)
        #expect(errors.first?.contains("must register") == true)
    }

    @Test func backgroundViewRendersBehindRows() {
        let (table, dataSource) = makeTable(rows: 0)
        table.backgroundView = Label(text: "Loading…")
        #expect(table.render() == "TableView 0 rows, offset 0\n  Label \"Loading…\"")
        _ = dataSource
    }
}
