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
@Suite(.resourceCheck) struct MakerViewModelTests {
    @Test func toppingsPriceThePizzaAndAddToCartAddsOneLinePerSetOfToppings() throws {
        let scheduler = TestScheduler.milliseconds()
        let cart = try CartRepository(store: Store(configuration: memoryStore()))
        let viewModel = MakerViewModel(
            input: MakerViewModel.Input(
                toggle: scheduler.createHotObservable([.next(100, "olives"), .next(200, "ham"), .next(300, "olives"), .next(500, "olives")]).asObservable(),
                addToCart: scheduler.createHotObservable([.next(50, ()), .next(400, ()), .next(410, ()), .next(600, ())]).asObservable()),
            cart: cart)
        let bag = DisposeBag()
        let price = record(viewModel.price, on: scheduler, in: bag)
        let canAdd = record(viewModel.canAdd, on: scheduler, in: bag)
        let summary = record(viewModel.summary, on: scheduler, in: bag)
        let error = record(viewModel.error, on: scheduler, in: bag)
        scheduler.advance(to: 1000)

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
