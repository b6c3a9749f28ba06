import Foundation
import HeadlessUI
import ObjectStore
import Streams
import StreamsTesting
import Testing
import TestSupport
@testable import Pizzaiolo

/// `SelectorViewModel`, a pure function of its taps and the menu: taps on a `TestScheduler`,
/// the outputs recorded, the cart read from an in-memory store.
@Suite(.resourceCheck) struct SelectorViewModelTests {
    typealias Page = SelectorPagesTests
    static let menu = Page.menu       // Margherita {1,2}, Marinara {1}, Frutti di Mare {3}, Bianca {4}

    static func taps(_ scheduler: TestScheduler, _ times: [Int]) -> Observable<Void> {
        scheduler.createHotObservable(times.map { .next($0, ()) }).asObservable()
    }

    @Test func pagesFollowTheTapsAndAddToCartAddsThePageShown() throws {
        let scheduler = TestScheduler.milliseconds()
        let cart = try CartRepository(store: Store(configuration: memoryStore()))
        let viewModel = SelectorViewModel(
            input: SelectorViewModel.Input(
                toggleCategory: scheduler.createHotObservable([.next(400, 1), .next(600, 1)]).asObservable(),
                next: Self.taps(scheduler, [200, 210]),
                previous: Self.taps(scheduler, [220]),
                select: scheduler.createHotObservable([.next(500, 0), .next(510, 9)]).asObservable(),
                addToCart: Self.taps(scheduler, [300, 310, 520])),
            menu: scheduler.createHotObservable([.next(100, Self.menu)]).asObservable(),
            cart: cart, startAt: nil)
        let bag = DisposeBag()
        let current = record(viewModel.currentPage, on: scheduler, in: bag)
        let thumbnails = record(viewModel.thumbnails, on: scheduler, in: bag)
        let canGoBack = record(viewModel.canGoBack, on: scheduler, in: bag)
        let error = record(viewModel.error, on: scheduler, in: bag)
        scheduler.advance(to: 1000)

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
        let scheduler = TestScheduler.milliseconds()
        let cart = try CartRepository(store: Store(configuration: memoryStore()))
        let viewModel = SelectorViewModel(
            input: SelectorViewModel.Input(addToCart: Self.taps(scheduler, [50])),
            menu: scheduler.createHotObservable([.next(100, Self.menu)]).asObservable(),
            cart: cart, startAt: .named("bianca"))
        let bag = DisposeBag()
        let current = record(viewModel.currentPage, on: scheduler, in: bag)
        let error = record(viewModel.error, on: scheduler, in: bag)
        scheduler.advance(to: 1000)
        #expect(current.events.map { $0.value.element??.name } == [nil, "Bianca"])
        #expect(error.events == [.next(0, nil), .next(50, nil)])
        #expect(cart.items.isEmpty)
    }

    @Test func aWriteThatFailsIsAMessageAndTheNextAddClearsIt() throws {
        let scheduler = TestScheduler.milliseconds()
        let store = try Store(configuration: memoryStore())
        let cart = CartRepository(store: store)
        let taps = PublishSubject<Void>()
        let viewModel = SelectorViewModel(
            input: SelectorViewModel.Input(addToCart: taps.asObservable()),
            menu: .just(Self.menu), cart: cart, startAt: nil)
        let bag = DisposeBag()
        let error = record(viewModel.error, on: scheduler, in: bag)
        // Inside another write transaction the store refuses the cart's write.
        try store.write { _ in Headless.run { taps.onNext(()) } }
        Headless.run { taps.onNext(()) }
        #expect(error.events.compactMap(\.value.element) == [nil, "Could not add the pizza: write() called inside a write transaction", nil])
        #expect(cart.items.map(\.quantity) == [1])
    }
}
