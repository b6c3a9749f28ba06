import Foundation
import HeadlessUI
import Streams
import TestSupport
import Testing

struct Pizza: IdentifiableType, Equatable {
    let name: String
    var price: Int
    var identity: String { name }
}

typealias PizzaSection = AnimatableSectionModel<String, Pizza>

@MainActor @Suite(.resourceCheck) struct TableViewRxTests {
    @Test func itemsWithACellFactory() {
        let table = TableView(height: 440)
        table.register(TableViewCell.self, forCellReuseIdentifier: "Cell")
        let items = BehaviorSubject(value: ["Margherita", "Marinara"])
        let bag = DisposeBag()
        Headless.run {
            items.bind(to: table.rx.items) { table, row, name in
                let cell = table.dequeueReusableCell(withIdentifier: "Cell", for: IndexPath(row: row, section: 0))
                cell.textLabel?.text = name
                return cell
            }.disposed(by: bag)
        }
        #expect(texts(table) == ["Margherita", "Marinara"])
        items.onNext(["Diavola"])
        Headless.drain()
        #expect(texts(table) == ["Diavola"])
    }

    @Test func modelSelectedAndItemDeleted() {
        let table = TableView(height: 440)
        table.register(PizzaCell.self, forCellReuseIdentifier: "Pizza")
        let bag = DisposeBag()
        var selected: [String] = [], deleted: [String] = []
        Headless.run {
            Observable.just(["Margherita", "Marinara"])
                .bind(to: table.rx.items(cellIdentifier: "Pizza", cellType: PizzaCell.self)) { _, name, cell in cell.name.text = name }
                .disposed(by: bag)
            table.rx.modelSelected(String.self).subscribe(onNext: { selected.append($0) }).disposed(by: bag)
            table.rx.modelDeleted(String.self).subscribe(onNext: { deleted.append($0) }).disposed(by: bag)
        }
        table.tapRow(at: IndexPath(row: 1, section: 0))
        table.swipeToDelete(rowAt: IndexPath(row: 0, section: 0))
        #expect(selected == ["Marinara"])
        #expect(deleted == ["Margherita"])
        #expect(throws: (any Error).self) { let _: String = try table.rx.model(at: IndexPath(row: 9, section: 0)) }
    }

    @Test func disposingTheBindingDetachesTheDataSource() {
        let table = TableView(height: 440)
        table.register(TableViewCell.self, forCellReuseIdentifier: "Cell")
        let subscription = Headless.run {
            Observable.just(["a", "b"]).bind(to: table.rx.items(cellIdentifier: "Cell", cellType: TableViewCell.self)) { _, text, cell in
                cell.textLabel?.text = text
            }
        }
        #expect(table.dataSource != nil)
        #expect(table.numberOfRows(inSection: 0) == 2)
        Headless.run { subscription.dispose() }
        #expect(table.dataSource == nil)
        #expect(table.visibleCells.isEmpty)
    }

    @Test func reloadDataSourceShowsSections() {
        let table = TableView(height: 440)
        table.register(TableViewCell.self, forCellReuseIdentifier: "Cell")
        let dataSource = RxTableViewSectionedReloadDataSource<SectionModel<String, String>>(configureCell: { _, table, indexPath, item in
            let cell = table.dequeueReusableCell(withIdentifier: "Cell", for: indexPath)
            cell.textLabel?.text = item
            return cell
        }, titleForHeaderInSection: { dataSource, section in dataSource[section].model })
        let bag = DisposeBag()
        Headless.run {
            Observable.just([SectionModel(model: "Red", items: ["Marinara"]), SectionModel(model: "White", items: ["Bianca", "Funghi"])])
                .bind(to: table.rx.items(dataSource: dataSource))
                .disposed(by: bag)
        }
        #expect(texts(table) == ["Marinara", "Bianca", "Funghi"])
        #expect(dataSource.titleForHeaderInSection(dataSource, 1) == "White")
        #expect(dataSource[IndexPath(row: 1, section: 1)] == "Funghi")
    }

    @Test func animatedDataSourceAppliesEachStageAsOneBatch() {
        let table = TableView(height: 440)
        table.register(TableViewCell.self, forCellReuseIdentifier: "Cell")
        let dataSource = RxTableViewSectionedAnimatedDataSource<PizzaSection>(configureCell: { _, table, indexPath, pizza in
            let cell = table.dequeueReusableCell(withIdentifier: "Cell", for: indexPath)
            cell.textLabel?.text = "\(pizza.name) \(pizza.price)"
            return cell
        })
        let sections = BehaviorSubject(value: [PizzaSection(model: "menu", items: [Pizza(name: "Margherita", price: 8), Pizza(name: "Marinara", price: 7)])])
        let bag = DisposeBag()
        Headless.run { sections.bind(to: table.rx.items(dataSource: dataSource)).disposed(by: bag) }
        #expect(table.reloadCount >= 1)
        let marinaraCell = table.cellForRow(at: IndexPath(row: 1, section: 0))
        let reloadsBefore = table.reloadCount
        Headless.run {
            sections.onNext([PizzaSection(model: "menu", items: [Pizza(name: "Diavola", price: 10), Pizza(name: "Marinara", price: 7), Pizza(name: "Margherita", price: 9)])])
        }
        #expect(texts(table) == ["Diavola 10", "Marinara 7", "Margherita 9"])
        // Margherita changed and moved: reloaded in one batch, moved (with Diavola inserted) in the next.
        #expect(table.batchUpdateCount == 2)
        #expect(table.reloadCount == reloadsBefore)
        #expect(table.cellForRow(at: IndexPath(row: 1, section: 0)) === marinaraCell)
    }

    /// Random edits through the animated data source: the table always shows the new data,
    /// and every change is one valid batch (no programming error).
    @Test(arguments: [11, 12, 13] as [UInt64])
    func animatedDataSourceFollowsRandomEdits(seed: UInt64) {
        var random = SeededRandom(seed: seed)
        var nextID = 0
        let table = TableView(height: 100_000, rowHeight: 10)
        table.register(TableViewCell.self, forCellReuseIdentifier: "Cell")
        let dataSource = RxTableViewSectionedAnimatedDataSource<ToppingSection>(configureCell: { _, table, indexPath, topping in
            let cell = table.dequeueReusableCell(withIdentifier: "Cell", for: indexPath)
            cell.textLabel?.text = "\(topping)"
            return cell
        })
        var current = randomSections(&random, nextID: &nextID)
        let subject = BehaviorSubject(value: current)
        let bag = DisposeBag()
        Headless.run { subject.bind(to: table.rx.items(dataSource: dataSource)).disposed(by: bag) }
        let (_, errors) = capturingProgrammingErrors {
            for _ in 0..<30 {
                current = randomEdit(current, &random, nextID: &nextID)
                Headless.run { subject.onNext(current) }
                #expect(texts(table) == current.flatMap { $0.items.map { "\($0)" } })
            }
        }
        #expect(errors.isEmpty)
        #expect(table.batchUpdateCount > 0)
    }
}

final class Tile: CollectionViewCell {
    let title = Label()
    required init(reuseIdentifier: String?) {
        super.init(reuseIdentifier: reuseIdentifier)
        contentView.addSubview(title)
    }
}

@MainActor @Suite(.resourceCheck) struct CollectionViewTests {
    @Test func gridViewportAndItemsBinding() {
        let collection = CollectionView(height: 200, itemsPerRow: 3, itemHeight: 100)
        collection.register(Tile.self, forCellWithReuseIdentifier: "Tile")
        let bag = DisposeBag()
        var selected: [Int] = []
        Headless.run {
            Observable.just(Array(0..<20))
                .bind(to: collection.rx.items(cellIdentifier: "Tile", cellType: Tile.self)) { _, number, cell in cell.title.text = "\(number)" }
                .disposed(by: bag)
            collection.rx.modelSelected(Int.self).subscribe(onNext: { selected.append($0) }).disposed(by: bag)
        }
        #expect(collection.visibleCells.map { ($0 as? Tile)?.title.text } == ["0", "1", "2", "3", "4", "5"])
        #expect(collection.contentHeight == 700)
        collection.scroll(to: 150)
        #expect(collection.indexPathsForVisibleItems.map(\.item) == Array(3..<12))
        collection.tapItem(at: IndexPath(item: 4, section: 0))
        #expect(selected == [4])
        #expect(collection.cellForItem(at: IndexPath(item: 0, section: 0)) == nil)
    }

    @Test func animatedCollectionDataSource() {
        let collection = CollectionView(height: 1_000, itemsPerRow: 2, itemHeight: 50)
        collection.register(Tile.self, forCellWithReuseIdentifier: "Tile")
        let dataSource = RxCollectionViewSectionedAnimatedDataSource<AnimatableSectionModel<String, Int>>(configureCell: { _, view, indexPath, number in
            let cell = view.dequeueReusableCell(withReuseIdentifier: "Tile", for: indexPath) as! Tile
            cell.title.text = "\(number)"
            return cell
        })
        let subject = BehaviorSubject(value: [AnimatableSectionModel(model: "s", items: [1, 2, 3])])
        let bag = DisposeBag()
        Headless.run { subject.bind(to: collection.rx.items(dataSource: dataSource)).disposed(by: bag) }
        Headless.run { subject.onNext([AnimatableSectionModel(model: "s", items: [3, 1, 4])]) }
        #expect(collection.visibleCells.map { ($0 as? Tile)?.title.text } == ["3", "1", "4"])
        // 2 deleted in one batch; 4 inserted and 1 moved in the next.
        #expect(collection.batchUpdateCount == 2)
    }
}
