import Differentiator
import Foundation
import ObjectStore
import Observation
import Streams
import StreamsObservation
import TestSupport
import Testing
@testable import Pizzaiolo

/// The Cart screen on observable state, as a SwiftUI `CartView` would hold it: the sample's
/// `CartViewModel`, unchanged, with each output observed and each edit an observed action.
@MainActor
final class CartState {
    let lines: Observed<Changeset<SectionModel<String, CartRow>>?>
    let totals: Observed<String>
    let isEmpty: Observed<Bool>
    let error: Observed<String?>
    let increment: ObservedAction<String, Void>
    let decrement: ObservedAction<String, Void>
    let remove: ObservedAction<String, Void>

    init(_ viewModel: CartViewModel) {
        lines = Observed(viewModel.lines.map { $0 }, initial: nil)
        totals = Observed(viewModel.totals, initial: "")
        isEmpty = Observed(viewModel.isEmpty, initial: true)
        error = Observed(viewModel.error, initial: nil)
        increment = ObservedAction(viewModel.increment)
        decrement = ObservedAction(viewModel.decrement)
        remove = ObservedAction(viewModel.remove)
    }

    var rows: [CartRow] { lines.value?.finalSections.first?.items ?? [] }
}

/// What the SwiftUI view shows, line by line: a `List` of rows with − and +, the totals and
/// Pay, or the empty message; an alert when an edit failed.
@MainActor
func cartView(_ state: CartState) -> [String] {
    var lines: [String] = []
    if state.isEmpty.value {
        lines.append("Your cart is empty")
    } else {
        for row in state.rows { lines.append("\(row.name) \(row.quantityText) \(row.total) [−] [+]") }
        lines.append(state.totals.value)
        lines.append("[Pay]")
    }
    if let error = state.error.value { lines.append("Alert: \(error)") }
    return lines
}

/// One row of the list, as a SwiftUI `CartRowView(row:)` would read it.
@MainActor
func cartRowView(_ state: CartState, id: String) -> String? {
    state.rows.first { $0.id == id }.map { "\($0.name) \($0.quantityText)" }
}

@MainActor @Suite(.resourceCheck) struct CartOnObservationTests {
    @Test func theCartRunsOnObservableStateWithItsViewModelUnchanged() throws {
        let store = Store()
        let cart = CartRepository(store: store)
        try cart.add(id: "pizza-1", name: "Margherita", summary: "", unitPrice: 899)
        try cart.add(id: "pizza-2", name: "Marinara", summary: "", unitPrice: 799)
        let state = CartState(CartViewModel(cart: cart))
        MainScheduler.drain()                                // the first list, as the run loop would
        let view = BodyReader { cartView(state) }
        let totals = BodyReader { state.totals.value }
        #expect(view.output == [
            "Margherita ×1 $8.99 [−] [+]",
            "Marinara ×1 $7.99 [−] [+]",
            "2 pizzas: $16.98",
            "[Pay]",
        ])

        state.increment.run("pizza-1")                       // the row's + button
        MainScheduler.drain()
        #expect(view.invalidations == 1)                      // one commit: one new body
        #expect(view.render() == [
            "Margherita ×2 $17.98 [−] [+]",
            "Marinara ×1 $7.99 [−] [+]",
            "3 pizzas: $25.97",
            "[Pay]",
        ])
        #expect(state.lines.value?.updatedItems.map(\.itemIndex) == [0])   // animates one row
        #expect(totals.invalidations == 1)
        totals.render()

        state.decrement.run("pizza-2")                       // stays at one: no commit
        MainScheduler.drain()
        #expect(totals.invalidations == 1)

        state.remove.run("pizza-1")                          // swipe to delete
        state.remove.run("pizza-2")
        MainScheduler.drain()
        #expect(view.render() == ["Your cart is empty"])
        #expect(state.lines.value?.deletedItems.map(\.itemIndex) == [0])
        #expect(view.offMainActor == 0 && totals.offMainActor == 0)
        #expect(state.remove.error == nil)
    }

    @Test func theScreensStateEndsWithIt() throws {
        let store = Store()
        let cart = CartRepository(store: store)
        try cart.add(id: "pizza-1", name: "Margherita", summary: "", unitPrice: 899)
        let before = Resources.total
        var state: CartState? = CartState(CartViewModel(cart: cart))
        weak let released = state
        MainScheduler.drain()
        #expect(state.map(cartView)?.first == "Margherita ×1 $8.99 [−] [+]")
        #expect(state.flatMap { cartRowView($0, id: "pizza-1") } == "Margherita ×1")
        state = nil
        #expect(released == nil)
        MainScheduler.drain()
        #expect(Resources.total == before)
        try cart.add(id: "pizza-1", name: "Margherita", summary: "", unitPrice: 899)
        MainScheduler.drain()
    }
}
