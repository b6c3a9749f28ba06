import Foundation
import HeadlessUI
import Repository
import Streams
import StreamsTesting
import Testing
import TestSupport
@testable import Pizzaiolo

/// `HomeViewModel`, a pure function of the cards' load states: each output for a timeline of
/// states, on a `TestScheduler`.
@Suite(.resourceCheck) struct HomeViewModelTests {
    struct Offline: Error {}
    static let base = URL(string: "http://pizzaiolo.local")!
    static func card(_ id: Int, _ title: String, price: Int? = 899) -> FeaturedCard {
        FeaturedCard(Featured(id: id, title: title, subtitle: "", priceWas: nil, price: price, photo: "", position: id), baseURL: base)
    }
    static let cards = [card(1, "Margherita"), card(2, "Build your own", price: nil)]
    static let fresher = [card(1, "Margherita", price: 799), card(2, "Build your own", price: nil)]

    @Test func storedCardsThenAStaleBannerThenAReloadWithFreshCards() {
        let scheduler = TestScheduler.milliseconds()
        let featured = scheduler.createHotObservable([
            .next(100, .loading),
            .next(110, .loaded(Self.cards, origin: .local)),
            .next(200, .stale(Self.cards, error: Offline())),
            .next(300, .loading),                                   // the reload
            .next(310, .loaded(Self.cards, origin: .local)),
            .next(320, .loaded(Self.fresher, origin: .network)),
        ] as [Recorded<Event<LoadState<FeaturedCard>>>])
        let viewModel = HomeViewModel(featured: featured.asObservable())
        let bag = DisposeBag()
        let cards = record(viewModel.cards, on: scheduler, in: bag)
        let isLoading = record(viewModel.isLoading, on: scheduler, in: bag)
        let banner = record(viewModel.banner, on: scheduler, in: bag)
        let loadState = record(viewModel.loadState, on: scheduler, in: bag)
        scheduler.advance(to: 1000)

        // Once per load: the reload shows its stored list again, then the fresh one.
        #expect(cards.events == [.next(110, Self.cards), .next(310, Self.cards), .next(320, Self.fresher)])
        #expect(isLoading.events == [.next(100, true), .next(110, false)])
        #expect(banner.events == [.next(100, nil), .next(200, "Offline: showing the menu from your last visit"), .next(300, nil)])
        #expect(loadState.events == [.next(100, .loaded)])
        #expect(featured.subscriptions.count == 1)               // four outputs, one subscription
    }

    @Test func aFailedFirstLoadShowsTheErrorViewUntilTheReloadFillsTheList() {
        let scheduler = TestScheduler.milliseconds()
        let featured = scheduler.createHotObservable([
            .next(100, .loading),
            .next(101, .failed(Offline())),
            .next(200, .loading),
            .next(210, .loaded(Self.cards, origin: .network)),
        ] as [Recorded<Event<LoadState<FeaturedCard>>>])
        let viewModel = HomeViewModel(featured: featured.asObservable())
        let bag = DisposeBag()
        let cards = record(viewModel.cards, on: scheduler, in: bag)
        let isLoading = record(viewModel.isLoading, on: scheduler, in: bag)
        let loadState = record(viewModel.loadState, on: scheduler, in: bag)
        scheduler.advance(to: 1000)

        #expect(loadState.events == [.next(100, .loaded), .next(101, .failed(message: "No connection to the kitchen")), .next(200, .loaded)])
        #expect(isLoading.events == [.next(100, true), .next(101, false), .next(200, true), .next(210, false)])
        #expect(cards.events == [.next(210, Self.cards)])
    }

    @Test func nothingIsAskedUntilAnOutputIsDriven() {
        let scheduler = TestScheduler.milliseconds()
        let featured = scheduler.createColdObservable([.next(10, LoadState<FeaturedCard>.loading)])
        _ = HomeViewModel(featured: featured.asObservable())
        scheduler.advance(to: 100)
        #expect(featured.subscriptions.isEmpty)
    }
}
