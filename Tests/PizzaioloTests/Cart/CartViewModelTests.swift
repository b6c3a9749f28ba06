import Foundation
import HeadlessUI
import ObjectStore
import Streams
import StreamsTesting
import Testing
import TestSupport
@testable import Pizzaiolo

/// `CartViewModel`: the lines as the store's change sets, the totals, and the edits (each an
/// `Action`), executed at set times on a `TestScheduler`.
@Suite(.resourceCheck) struct CartViewModelTests {
    @Test func editsChangeTheLinesTheTotalsAndTheChangeSets() throws {
        let scheduler = TestScheduler.milliseconds()
        let cart = try CartRepository(store: Store(configuration: memoryStore()))
        try cart.add(id: "pizza-1", name: "Margherita", summary: "", unitPrice: 899)
        try cart.add(id: "pizza-2", name: "Marinara", summary: "", unitPrice: 799)
        let viewModel = CartViewModel(cart: cart)
        scheduler.scheduleAt(100) { viewModel.increment.execute("pizza-1") }
        scheduler.scheduleAt(200) { viewModel.decrement.execute("pizza-1") }
        scheduler.scheduleAt(300) { viewModel.decrement.execute("pizza-1") }   // stays at one
        scheduler.scheduleAt(400) { viewModel.remove.execute("pizza-1") }
        scheduler.scheduleAt(500) { viewModel.remove.execute("pizza-2") }
        let bag = DisposeBag()
        let totals = record(viewModel.totals, on: scheduler, in: bag)
        let isEmpty = record(viewModel.isEmpty, on: scheduler, in: bag)
        let lines = record(viewModel.lines, on: scheduler, in: bag)
        let error = record(viewModel.error, on: scheduler, in: bag)
        scheduler.advance(to: 1000)

        #expect(totals.events == [
            .next(0, "2 pizzas: $16.98"), .next(100, "3 pizzas: $25.97"), .next(200, "2 pizzas: $16.98"),
            .next(400, "1 pizza: $7.99"), .next(500, "0 pizzas: $0.00"),
        ])                                                      // 300 changed nothing: no commit
        #expect(isEmpty.events.last == .next(500, true))
        // The table animates what each commit touched: a modification, then two deletions.
        func change(at time: Int) -> Changeset<SectionModel<String, CartRow>>? {
            lines.events.first { $0.time == time }?.value.element
        }
        #expect(change(at: 0)?.finalSections.first?.items.map(\.name) == ["Margherita", "Marinara"])
        #expect(change(at: 100)?.updatedItems.map(\.itemIndex) == [0])
        #expect(change(at: 100)?.deletedItems.isEmpty == true)
        #expect(change(at: 400)?.deletedItems.map(\.itemIndex) == [0])
        #expect(change(at: 400)?.finalSections.first?.items.map(\.name) == ["Marinara"])
        #expect(error.events == [.next(0, nil), .next(100, nil), .next(200, nil), .next(300, nil), .next(400, nil), .next(500, nil)])
    }
}
