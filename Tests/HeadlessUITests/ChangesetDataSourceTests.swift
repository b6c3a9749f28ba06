import Foundation
import HeadlessUI
import Streams
import Testing
import TestSupport

/// `RxTableViewSectionedChangesetDataSource`: change sets computed elsewhere, applied as they are.
@MainActor @Suite(.resourceCheck) struct ChangesetDataSourceTests {
    typealias Section = SectionModel<String, String>

    private func makeTable() -> (TableView, RxTableViewSectionedChangesetDataSource<Section>) {
        let table = TableView(height: 400, rowHeight: 40)
        table.register(TableViewCell.self, forCellReuseIdentifier: "Cell")
        let dataSource = RxTableViewSectionedChangesetDataSource<Section>(configureCell: { _, table, indexPath, name in
            let cell = table.dequeueReusableCell(withIdentifier: "Cell", for: indexPath)
            cell.textLabel?.text = name
            return cell
        })
        return (table, dataSource)
    }

    private func change(_ items: [String], deleted: [Int] = [], inserted: [Int] = [], updated: [Int] = []) -> Changeset<Section> {
        var changeset = Changeset<Section>()
        changeset.finalSections = [Section(model: "menu", items: items)]
        changeset.deletedItems = deleted.map { ItemPath(sectionIndex: 0, itemIndex: $0) }
        changeset.insertedItems = inserted.map { ItemPath(sectionIndex: 0, itemIndex: $0) }
        changeset.updatedItems = updated.map { ItemPath(sectionIndex: 0, itemIndex: $0) }
        return changeset
    }

    private func texts(_ table: TableView) -> [String?] {
        (0..<table.numberOfRows(inSection: 0)).map { table.cellForRow(at: IndexPath(row: $0, section: 0))?.textLabel?.text }
    }

    @Test func theFirstChangeReloadsAndEachLaterOneIsOneBatchWithNoDiff() {
        let (table, dataSource) = makeTable()
        let changes = PublishSubject<Changeset<Section>>()
        let bag = DisposeBag()
        Headless.run { changes.bind(to: table.rx.items(dataSource: dataSource)).disposed(by: bag) }
        Headless.run { changes.onNext(.initialValue([Section(model: "menu", items: ["Margherita", "Marinara"])])) }
        #expect(texts(table) == ["Margherita", "Marinara"])
        #expect(table.batchUpdateCount == 0)
        let marinara = table.cellForRow(at: IndexPath(row: 1, section: 0))
        let reloads = table.reloadCount
        Headless.run { changes.onNext(change(["Diavola", "Margherita*", "Marinara"], inserted: [0], updated: [0])) }
        #expect(texts(table) == ["Diavola", "Margherita*", "Marinara"])
        #expect(table.batchUpdateCount == 1)
        #expect(table.reloadCount == reloads)
        #expect(table.lastBatchUpdate?.insertedRows == [IndexPath(row: 0, section: 0)])
        #expect(table.lastBatchUpdate?.reloadedRows == [IndexPath(row: 0, section: 0)])
        #expect(table.cellForRow(at: IndexPath(row: 2, section: 0)) === marinara)   // moved down, not rebuilt
    }

    @Test func aChangeSetThatDoesNotFitIsReportedAndTheTableReloadsWithItsRows() {
        let (table, dataSource) = makeTable()
        let changes = PublishSubject<Changeset<Section>>()
        let bag = DisposeBag()
        Headless.run { changes.bind(to: table.rx.items(dataSource: dataSource)).disposed(by: bag) }
        Headless.run { changes.onNext(.initialValue([Section(model: "menu", items: ["A", "B"])])) }
        let (_, errors) = capturingProgrammingErrors {
            // Three rows after one insertion into two: the change set lies about the rows.
            Headless.run { changes.onNext(change(["A", "B", "C", "D"], inserted: [2])) }
        }
        #expect(errors.count == 1)
        #expect(texts(table) == ["A", "B", "C", "D"])
    }
}
