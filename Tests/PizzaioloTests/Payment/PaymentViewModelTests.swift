import Foundation
import HeadlessUI
import ObjectStore
import Repository
import Streams
import StreamsTesting
import Testing
import TestSupport
@testable import Pizzaiolo

/// `PaymentViewModel`, a pure function of the pay taps: taps on a `TestScheduler`, the order
/// sent to the embedded kitchen, its fate read back from the store.
@MainActor @Suite(.resourceCheck) struct PaymentViewModelTests {
    /// The view-model bench, with the embedded kitchen and an order queue on its store.
    @MainActor struct Rig {
        let bench: ViewModelBench
        let backend = Backend.embedded()
        let orders: OrderQueue
        var scheduler: TestScheduler { bench.scheduler }
        var store: Store { bench.store }
        var cart: CartRepository { bench.cart }

        init(pizzas: Int) throws {
            bench = try ViewModelBench()
            orders = OrderQueue(store: bench.store, backend: backend)
            for _ in 0..<pizzas { try bench.cart.add(id: "pizza-1", name: "Margherita", summary: "", unitPrice: 899) }
        }

        func viewModel(paying taps: [(Int, String)]) -> PaymentViewModel {
            PaymentViewModel(input: PaymentViewModel.Input(pay: bench.hot(taps)), cart: cart, orders: orders)
        }
    }

    @Test func payingSendsTheOrderAndTheConfirmationEmptiesTheCartButKeepsTheTotal() throws {
        let rig = try Rig(pizzas: 2)
        let viewModel = rig.viewModel(paying: [(100, "card")])
        let total = rig.bench.record(viewModel.total)
        let status = rig.bench.record(viewModel.status)
        let canPay = rig.bench.record(viewModel.canPay)
        let error = rig.bench.record(viewModel.error)
        rig.scheduler.advance(to: 200)
        #expect(rig.orders.orders.map(\.state) == ["submitted"])
        rig.backend.settle()                                    // the kitchen answers (at 200)

        #expect(status.events == [.next(0, nil), .next(100, "Sending your order…"), .next(200, "Order Placed")])
        #expect(total.events == [.next(0, "Total: $17.98")])
        #expect(canPay.events.map(\.value.element) == [true, false])
        #expect(error.events == [.next(0, nil), .next(100, nil)])
        #expect(rig.orders.orders.map { "\($0.state) \($0.method) \($0.total)" } == ["confirmed card 1798"])
        #expect(rig.cart.items.isEmpty)
    }

    @Test func aRefusedOrderSaysWhyKeepsTheCartAndPayingIsPossibleAgain() throws {
        let rig = try Rig(pizzas: 1)
        rig.backend.fixture?.setRoute(.status(402, body: "card declined"), for: "/orders")
        let viewModel = rig.viewModel(paying: [(100, "wallet")])
        let status = rig.bench.record(viewModel.status)
        let canPay = rig.bench.record(viewModel.canPay)
        rig.scheduler.advance(to: 200)
        rig.backend.settle()
        #expect(status.events.last == .next(200, "Payment failed: the kitchen refused the order: card declined"))
        #expect(canPay.events.map(\.value.element) == [true, false, true])
        #expect(rig.cart.items.count == 1)
    }

    @Test func anEmptyCartCannotBePaidAndATapStoresNothing() throws {
        let rig = try Rig(pizzas: 0)
        let viewModel = rig.viewModel(paying: [(100, "cash")])
        let total = rig.bench.record(viewModel.total)
        let status = rig.bench.record(viewModel.status)
        let canPay = rig.bench.record(viewModel.canPay)
        rig.scheduler.advance(to: 200)
        #expect(total.events == [.next(0, "Total: $0.00")])
        #expect(status.events == [.next(0, nil)])
        #expect(canPay.events == [.next(0, false)])
        #expect(rig.orders.orders.isEmpty)
    }

    @Test func aNewPaymentScreenStartsWithNothingToSayAndWritesNothing() throws {
        let rig = try Rig(pizzas: 1)
        let first = rig.viewModel(paying: [(100, "card")])
        _ = rig.bench.record(first.status)
        rig.scheduler.advance(to: 200)
        rig.backend.settle()
        #expect(rig.orders.orders.map(\.state) == ["confirmed"])

        let version = rig.store.objects(PlacedOrder.self).toArray()
        let second = rig.viewModel(paying: [])
        #expect(rig.store.objects(PlacedOrder.self).toArray().map(\.state) == version.map(\.state))
        let status = rig.bench.record(second.status)
        rig.scheduler.advance(to: 300)
        #expect(status.events == [.next(200, nil)])
    }
}
