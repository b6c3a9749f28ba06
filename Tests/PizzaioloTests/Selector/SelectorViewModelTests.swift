import Foundation
import HeadlessUI
import ObjectStore
import Repository
import Streams
import StreamsTesting
import Testing
import TestSupport
@testable import Pizzaiolo

/// `SelectorViewModel`, a pure function of its taps and the menu: taps on a `TestScheduler`,
/// the outputs recorded, the cart read from an in-memory store.
@MainActor @Suite(.resourceCheck) struct SelectorViewModelTests {
    typealias Page = SelectorPagesTests
    static let menu = Page.menu       // Margherita {1,2}, Marinara {1}, Frutti di Mare {3}, Bianca {4}

    /// The stored pizzas of `bench`'s store, as pages.
    static func pizzas(_ bench: ViewModelBench) -> ViewModelQuery<Pizza, PizzaPage> {
        ViewModelQuery(store: bench.store, sortedBy: [ObjectStore.SortDescriptor(keyPath: "id")], viewModel: { PizzaPage($0, baseURL: Page.base) })
    }

    @Test func pagesFollowTheTapsAndAddToCartAddsThePageShown() throws {
        let bench = try ViewModelBench()
        let cart = bench.cart
        let viewModel = SelectorViewModel(
            input: SelectorViewModel.Input(
                toggleCategory: bench.hot([(400, 1), (600, 1)]),
                next: bench.taps(200, 210),
                previous: bench.taps(220),
                select: bench.hot([(500, 0), (510, 9)]),
                addToCart: bench.taps(300, 310, 520)),
            menu: bench.hot([(100, Self.menu)]),
            pizzas: Self.pizzas(bench), cart: cart, startAt: nil)
        let current = bench.record(viewModel.currentPage)
        let thumbnails = bench.record(viewModel.thumbnails)
        let canGoBack = bench.record(viewModel.canGoBack)
        let error = bench.record(viewModel.addToCart)
        bench.run()

        // The Classic chip (400) keeps Marinara, now page 2 of 2; select 9 (510) is no page;
        // clearing the chip (600) keeps Margherita.
        #expect(current.events.map(\.time) == [0, 100, 200, 210, 220, 500])
        #expect(current.events.map { $0.value.element??.name } == [nil, "Margherita", "Marinara", "Frutti di Mare", "Marinara", "Margherita"])
        #expect(thumbnails.events.last == .next(600, "[Margherita] · Marinara · Frutti di Mare · Bianca"))
        #expect(canGoBack.events == [.next(0, false), .next(200, true), .next(500, false)])
        // Each tap added the page shown then: Marinara twice (one line, ×2), then Margherita.
        #expect(error.events == [.next(0, nil), .next(300, nil), .next(310, nil), .next(520, nil)])
        #expect(cart.items.map { "\($0.name)×\($0.quantity)" } == ["Marinara×2", "Margherita×1"])
    }

    @Test func theSelectorOpensAtItsStartPizzaAndAddsNothingBeforeTheMenu() throws {
        let bench = try ViewModelBench()
        let cart = bench.cart
        let viewModel = SelectorViewModel(
            input: SelectorViewModel.Input(addToCart: bench.taps(50)),
            menu: bench.hot([(100, Self.menu)]),
            pizzas: Self.pizzas(bench), cart: cart, startAt: .named("bianca"))
        let current = bench.record(viewModel.currentPage)
        let error = bench.record(viewModel.addToCart)
        bench.run()
        #expect(current.events.map { $0.value.element??.name } == [nil, "Bianca"])
        #expect(error.events == [.next(0, nil), .next(50, nil)])
        #expect(cart.items.isEmpty)
    }

    @Test func aWriteThatFailsIsAMessageAndTheNextAddClearsIt() throws {
        let bench = try ViewModelBench()
        let (store, cart) = (bench.store, bench.cart)
        let taps = PublishSubject<Void>()
        let viewModel = SelectorViewModel(
            input: SelectorViewModel.Input(addToCart: taps.asObservable()),
            menu: .just(Self.menu), pizzas: Self.pizzas(bench), cart: cart, startAt: nil)
        let error = bench.record(viewModel.addToCart)
        // Inside another write transaction the store refuses the cart's write.
        try store.write { _ in Headless.run { taps.onNext(()) } }
        Headless.run { taps.onNext(()) }
        #expect(error.events.compactMap(\.value.element) == [nil, "Could not add the pizza: write() called inside a write transaction", nil])
        #expect(cart.items.map(\.quantity) == [1])
    }

    @Test func theListFollowsTheChipsWithChangeSetsNotANewList() throws {
        let bench = try ViewModelBench()
        try bench.store.write { tx in
            for page in Self.menu {
                try tx.add(Pizza(id: page.id, name: page.name, summary: "", categories: page.categoryIDs.map { Pizzaiolo.Category(id: $0, name: "\($0)") },
                                 price: page.cents, photo: ""), update: .modified)
            }
        }
        let viewModel = SelectorViewModel(
            input: SelectorViewModel.Input(toggleCategory: bench.hot([(200, 1), (300, 1)])),
            menu: bench.hot([(100, Self.menu)]), pizzas: Self.pizzas(bench), cart: bench.cart, startAt: nil)
        let list = bench.record(viewModel.list)
        bench.run()

        let changes = list.events.compactMap(\.value.element)
        #expect(list.events.map(\.time) == [0, 200, 300])
        #expect(changes.map { $0.finalSections.first?.items.map(\.name) ?? [] } == [
            ["Margherita", "Marinara", "Frutti di Mare", "Bianca"], ["Margherita", "Marinara"], ["Margherita", "Marinara", "Frutti di Mare", "Bianca"],
        ])
        // The Classic chip (200) deletes the two others; clearing it (300) inserts them again.
        #expect(changes[1].deletedItems.map(\.itemIndex) == [2, 3])
        #expect(changes[1].insertedItems.isEmpty)
        #expect(changes[2].insertedItems.map(\.itemIndex) == [2, 3])
        #expect(changes[2].deletedItems.isEmpty)
    }
}
