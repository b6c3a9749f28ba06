import Foundation
import HeadlessUI
import Streams
import TestSupport
import Testing

/// A plain data source whose sections have header titles (UIKit's
/// `tableView(_:titleForHeaderInSection:)`), the third section none.
final class TitledDataSource: TableViewDataSource {
    var sections: [(title: String?, rows: [String])]

    init(_ sections: [(title: String?, rows: [String])]) { self.sections = sections }

    func numberOfSections(in tableView: TableView) -> Int { sections.count }
    func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int { sections[section].rows.count }
    func tableView(_ tableView: TableView, cellForRowAt indexPath: IndexPath) -> TableViewCell {
        let cell = tableView.dequeueReusableCell(withIdentifier: "Cell", for: indexPath)
        cell.textLabel?.text = sections[indexPath.section].rows[indexPath.row]
        return cell
    }
    func tableView(_ tableView: TableView, titleForHeaderInSection section: Int) -> String? { sections[section].title }
}

@MainActor @Suite(.resourceCheck) struct SectionTitleTests {
    @Test func aPlainDataSourcesHeadersAreRenderedAboveTheirRows() {
        let table = TableView(height: 440, rowHeight: 44)
        table.register(TableViewCell.self, forCellReuseIdentifier: "Cell")
        let dataSource = TitledDataSource([("Red", ["Marinara"]), ("White", ["Bianca", "Funghi"]), (nil, ["Calzone"])])
        table.dataSource = dataSource
        #expect(table.render() == """
        TableView 4 rows in 3 sections, offset 0
          Header "Red"
          TableViewCell [0,0]
            Label "Marinara"
          Header "White"
          TableViewCell [1,0]
            Label "Bianca"
          TableViewCell [1,1]
            Label "Funghi"
          TableViewCell [2,0]
            Label "Calzone"
        """)
    }

    @Test func onlyTheHeadersOfSectionsOnScreenAreRendered() {
        // 88 points: two rows. Scrolled to 88, the viewport shows White's rows only.
        let table = TableView(height: 88, rowHeight: 44)
        table.register(TableViewCell.self, forCellReuseIdentifier: "Cell")
        let dataSource = TitledDataSource([("Red", ["Marinara", "Diavola"]), ("White", ["Bianca", "Funghi"]), ("Empty", [])])
        table.dataSource = dataSource
        table.scroll(to: 88)
        #expect(table.render() == """
        TableView 4 rows in 3 sections, offset 88
          Header "White"
          TableViewCell [1,0]
            Label "Bianca"
          TableViewCell [1,1]
            Label "Funghi"
          Header "Empty"
        """)
        table.scroll(to: 0)
        #expect(table.render() == """
        TableView 4 rows in 3 sections, offset 0
          Header "Red"
          TableViewCell [0,0]
            Label "Marinara"
          TableViewCell [0,1]
            Label "Diavola"
        """)
    }

    @Test func theReloadDataSourcesTitleClosureNamesEachSection() {
        let table = TableView(height: 440)
        table.register(TableViewCell.self, forCellReuseIdentifier: "Cell")
        let dataSource = RxTableViewSectionedReloadDataSource<SectionModel<String, String>>(configureCell: { _, table, indexPath, item in
            let cell = table.dequeueReusableCell(withIdentifier: "Cell", for: indexPath)
            cell.textLabel?.text = item
            return cell
        }, titleForHeaderInSection: { dataSource, section in dataSource[section].model })
        let bag = DisposeBag()
        Headless.run {
            Observable.just([SectionModel(model: "Red", items: ["Marinara"]), SectionModel(model: "White", items: ["Bianca"])])
                .bind(to: table.rx.items(dataSource: dataSource))
                .disposed(by: bag)
        }
        #expect(table.render() == """
        TableView 2 rows in 2 sections, offset 0
          Header "Red"
          TableViewCell [0,0]
            Label "Marinara"
          Header "White"
          TableViewCell [1,0]
            Label "Bianca"
        """)
    }

    @Test func anAnimatedInsertOfASectionShowsItsHeader() {
        let table = TableView(height: 440)
        table.register(TableViewCell.self, forCellReuseIdentifier: "Cell")
        let dataSource = RxTableViewSectionedAnimatedDataSource<PizzaSection>(configureCell: { _, table, indexPath, pizza in
            let cell = table.dequeueReusableCell(withIdentifier: "Cell", for: indexPath)
            cell.textLabel?.text = pizza.name
            return cell
        }, titleForHeaderInSection: { dataSource, section in dataSource[section].model })
        let sections = BehaviorSubject(value: [PizzaSection(model: "Monday", items: [Pizza(name: "Margherita", price: 8)])])
        let bag = DisposeBag()
        Headless.run { sections.bind(to: table.rx.items(dataSource: dataSource)).disposed(by: bag) }
        Headless.run {
            sections.onNext([
                PizzaSection(model: "Monday", items: [Pizza(name: "Margherita", price: 8)]),
                PizzaSection(model: "Tuesday", items: [Pizza(name: "Marinara", price: 7)]),
            ])
        }
        #expect(table.batchUpdateCount == 1)
        #expect(table.render() == """
        TableView 2 rows in 2 sections, offset 0
          Header "Monday"
          TableViewCell [0,0]
            Label "Margherita"
          Header "Tuesday"
          TableViewCell [1,0]
            Label "Marinara"
        """)
    }

    @Test func footersFollowTheirRowsAndTitlesCanBeReadBySection() {
        let table = TableView(height: 440)
        table.register(TableViewCell.self, forCellReuseIdentifier: "Cell")
        let dataSource = RxTableViewSectionedReloadDataSource<SectionModel<String, String>>(configureCell: { _, table, indexPath, item in
            let cell = table.dequeueReusableCell(withIdentifier: "Cell", for: indexPath)
            cell.textLabel?.text = item
            return cell
        }, titleForHeaderInSection: { dataSource, section in dataSource[section].model },
           titleForFooterInSection: { dataSource, section in "\(dataSource[section].items.count) pizzas" })
        let sections = BehaviorSubject(value: [SectionModel(model: "Red", items: ["Marinara", "Diavola"])])
        let bag = DisposeBag()
        Headless.run { sections.bind(to: table.rx.items(dataSource: dataSource)).disposed(by: bag) }
        #expect(table.render() == """
        TableView 2 rows, offset 0
          Header "Red"
          TableViewCell [0,0]
            Label "Marinara"
          TableViewCell [0,1]
            Label "Diavola"
          Footer "2 pizzas"
        """)
        #expect(table.headerTitle(forSection: 0) == "Red")
        #expect(table.footerTitle(forSection: 0) == "2 pizzas")
        #expect(table.headerTitle(forSection: 1) == nil)
        Headless.run { sections.onNext([SectionModel(model: "White", items: ["Bianca"])]) }
        #expect(table.headerTitle(forSection: 0) == "White")
        #expect(table.footerTitle(forSection: 0) == "1 pizzas")
    }

    @Test func aTableWithoutTitlesRendersAsBefore() {
        let table = TableView(height: 440)
        table.register(TableViewCell.self, forCellReuseIdentifier: "Cell")
        let dataSource = TitledDataSource([(nil, ["Marinara"])])
        table.dataSource = dataSource
        #expect(table.headerTitle(forSection: 0) == nil)
        #expect(table.render() == """
        TableView 1 row, offset 0
          TableViewCell [0,0]
            Label "Marinara"
        """)
    }
}
