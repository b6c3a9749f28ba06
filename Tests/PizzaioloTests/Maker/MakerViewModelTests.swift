import Foundation
import HeadlessUI
import ObjectStore
import Streams
import StreamsTesting
import Testing
import TestSupport
@testable import Pizzaiolo

/// `MakerViewModel`, a pure function of its taps: toppings chosen and dropped on a
/// `TestScheduler`, the price and Add to cart recorded, the cart read from the store.
@MainActor @Suite(.resourceCheck) struct MakerViewModelTests {
    @Test func toppingsPriceThePizzaAndAddToCartAddsOneLinePerSetOfToppings() throws {
        let bench = try ViewModelBench()
        let cart = bench.cart
        let viewModel = MakerViewModel(
            input: MakerViewModel.Input(toggle: bench.hot([(100, "olives"), (200, "ham"), (300, "olives"), (500, "olives")]),
                                        addToCart: bench.taps(50, 400, 410, 600)),
            cart: cart)
        let price = bench.record(viewModel.price)
        let canAdd = bench.record(viewModel.canAdd)
        let summary = bench.record(viewModel.summary)
        let error = bench.record(viewModel.addToCart)
        bench.run()

        #expect(price.events == [.next(0, "Price: $2.99"), .next(100, "Price: $3.49"), .next(200, "Price: $4.99"), .next(300, "Price: $4.49"), .next(500, "Price: $4.99")])
        #expect(canAdd.events.map(\.value.element) == [false, true, true, true, true])
        #expect(summary.events.last == .next(500, "Ham, Olives"))
        #expect(error.events == [.next(0, nil), .next(50, nil), .next(400, nil), .next(410, nil), .next(600, nil)])
        // Nothing chosen at 50: nothing added. Ham twice, then ham and olives: two lines.
        #expect(cart.items.map { "\($0.id)×\($0.quantity) \($0.unitPrice)" } == ["custom-ham×2 449", "custom-ham+olives×1 499"])
        #expect(cart.items.first?.summary == "Ham")
    }

    @Test func theSameToppingsInAnyOrderAreOnePizza() {
        #expect(MakerViewModel.identity(["olives", "ham"]) == MakerViewModel.identity(["ham", "olives"]))
        #expect(MakerViewModel.price([]) == MakerViewModel.basePrice)
    }
}
