import Foundation
import HeadlessUI
import Streams
import TestSupport
import Testing

@MainActor @Suite(.resourceCheck) struct DriverBindingTests {
    @Test func driveIntoBinders() {
        let label = Label()
        let button = Button(title: "Order")
        let name = Variable("Margherita")
        let bag = DisposeBag()
        Headless.run {
            name.asDriver().map { Optional($0) }.drive(label.rx.text).disposed(by: bag)
            name.asDriver().map { !$0.isEmpty }.drive(button.rx.isEnabled).disposed(by: bag)
        }
        #expect(label.text == "Margherita")
        name.value = ""
        Headless.drain()
        #expect(label.text == "")
        #expect(!button.isEnabled)
    }

    @Test func driveTableItemsWithACurriedBinding() {
        let table = TableView(height: 440)
        table.register(TableViewCell.self, forCellReuseIdentifier: "Cell")
        let items = BehaviorRelay(value: ["Margherita", "Marinara"])
        let bag = DisposeBag()
        Headless.run {
            items.asDriver().drive(table.rx.items(cellIdentifier: "Cell", cellType: TableViewCell.self)) { _, name, cell in
                cell.textLabel?.text = name
            }.disposed(by: bag)
        }
        #expect(texts(table) == ["Margherita", "Marinara"])
        items.accept(["Diavola"])
        Headless.drain()
        #expect(texts(table) == ["Diavola"])
    }

    @Test func controlEventsAndPropertiesAsTraits() {
        let button = Button(title: "Go")
        let field = TextField(text: "a")
        var taps = 0
        var texts: [String?] = []
        let bag = DisposeBag()
        Headless.run {
            button.rx.tap.asSignal().emit(onNext: { taps += 1 }).disposed(by: bag)
            field.rx.text.asDriver().drive(onNext: { texts.append($0) }).disposed(by: bag)
        }
        Headless.run {
            button.tap()
            field.text = ""
            field.type("b")
        }
        #expect(taps == 1)
        #expect(texts.first == "a")
        #expect(texts.last == "b")
    }

    @Test func controlEventAsInfallible() {
        let button = Button(title: "Go")
        var taps = 0
        let bag = DisposeBag()
        Headless.run {
            button.rx.tap.asInfallible().subscribe(onNext: { taps += 1 }).disposed(by: bag)
        }
        Headless.run {
            button.tap()
            button.tap()
        }
        #expect(taps == 2)
    }
}
