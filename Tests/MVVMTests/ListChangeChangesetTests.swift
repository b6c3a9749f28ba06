import Foundation
import HeadlessUI
import MVVM
import ObjectStore
import Repository
import Streams
import TestSupport
import Testing

private struct Line: StoreObject, Equatable {
    static var primaryKey: KeyPath<Line, String> { \.id }
    var id: String
    var quantity: Int
    var position: Int
}

/// The store's change sets reach the table as they are: a commit becomes one batch update with
/// exactly the rows it touched.
@MainActor @Suite(.resourceCheck) struct ListChangeChangesetTests {
    @Test func aCommitBecomesTheTablesBatchUpdate() throws {
        let store = Store()
        try store.write { tx in
            try tx.add(Line(id: "a", quantity: 1, position: 0))
            try tx.add(Line(id: "b", quantity: 1, position: 1))
            try tx.add(Line(id: "c", quantity: 1, position: 2))
        }
        let query = ViewModelQuery<Line, String>(store: store, sortedBy: [ObjectStore.SortDescriptor(keyPath: "position")]) { "\($0.id)×\($0.quantity)" }
        let table = TableView(height: 400, rowHeight: 40)
        table.register(TableViewCell.self, forCellReuseIdentifier: "Cell")
        let dataSource = RxTableViewSectionedChangesetDataSource<SectionModel<String, String>>(configureCell: { _, table, indexPath, text in
            let cell = table.dequeueReusableCell(withIdentifier: "Cell", for: indexPath)
            cell.textLabel?.text = text
            return cell
        })
        let bag = DisposeBag()
        Headless.run {
            query.observeChanges(on: ImmediateScheduler.instance)
                .map { $0.changeset(section: "lines") }
                .bind(to: table.rx.items(dataSource: dataSource))
                .disposed(by: bag)
        }
        let texts = { (0..<table.numberOfRows(inSection: 0)).map { table.cellForRow(at: IndexPath(row: $0, section: 0))?.textLabel?.text } }
        #expect(texts() == ["a×1", "b×1", "c×1"])
        // Delete "a", change "c" (new position 1, old position 2), add "d".
        let edit = Headless.run { Result {
            try store.write { tx in
                if let a = tx.object(ofType: Line.self, forPrimaryKey: "a") { try tx.delete(a) }
                try tx.add(Line(id: "c", quantity: 2, position: 2), update: .modified)
                try tx.add(Line(id: "d", quantity: 1, position: 3))
            }
        } }
        try edit.get()
        #expect(texts() == ["b×1", "c×2", "d×1"])
        #expect(table.batchUpdateCount == 1)
        let batch = try #require(table.lastBatchUpdate)
        #expect(batch.deletedRows == [IndexPath(row: 0, section: 0)])
        #expect(batch.insertedRows == [IndexPath(row: 2, section: 0)])
        #expect(batch.reloadedRows == [IndexPath(row: 2, section: 0)])        // c's old row
    }
}
