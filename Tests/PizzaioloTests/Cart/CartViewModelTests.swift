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
@MainActor @Suite(.resourceCheck) struct CartViewModelTests {
    @Test func editsChangeTheLinesTheTotalsAndTheChangeSets() throws {
        let bench = try ViewModelBench()
        let cart = bench.cart
        try cart.add(id: "pizza-1", name: "Margherita", summary: "", unitPrice: 899)
        try cart.add(id: "pizza-2", name: "Marinara", summary: "", unitPrice: 799)
        let viewModel = CartViewModel(cart: cart)
        let scheduler = bench.scheduler
        scheduler.scheduleAt(100) { viewModel.increment.execute("pizza-1") }
        scheduler.scheduleAt(200) { viewModel.decrement.execute("pizza-1") }
        scheduler.scheduleAt(300) { viewModel.decrement.execute("pizza-1") }   // stays at one
        scheduler.scheduleAt(400) { viewModel.remove.execute("pizza-1") }
        scheduler.scheduleAt(500) { viewModel.remove.execute("pizza-2") }
        let totals = bench.record(viewModel.totals)
        let isEmpty = bench.record(viewModel.isEmpty)
        let lines = bench.record(viewModel.lines)
        let error = bench.record(viewModel.error)
        bench.run()

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
