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
@MainActor @Suite(.resourceCheck) struct HomeViewModelTests {
    struct Offline: Error {}
    static let base = URL(string: "http://pizzaiolo.local")!
    static func card(_ id: Int, _ title: String, price: Int? = 899) -> FeaturedCard {
        FeaturedCard(Featured(id: id, title: title, subtitle: "", priceWas: nil, price: price, photo: "", position: id), baseURL: base)
    }
    static let cards = [card(1, "Margherita"), card(2, "Build your own", price: nil)]
    static let fresher = [card(1, "Margherita", price: 799), card(2, "Build your own", price: nil)]

    @Test func storedCardsThenAStaleBannerThenAReloadWithFreshCards() throws {
        let bench = try ViewModelBench()
        let featured = bench.scheduler.createHotObservable([
            .next(100, .loading),
            .next(110, .loaded(Self.cards, origin: .local)),
            .next(200, .stale(Self.cards, error: Offline())),
            .next(300, .loading),                                   // the reload
            .next(310, .loaded(Self.cards, origin: .local)),
            .next(320, .loaded(Self.fresher, origin: .network)),
        ] as [Recorded<Event<LoadState<FeaturedCard>>>])
        let viewModel = HomeViewModel(featured: featured.asObservable())
        let cards = bench.record(viewModel.cards)
        let isLoading = bench.record(viewModel.isLoading)
        let banner = bench.record(viewModel.banner)
        let background = bench.record(viewModel.background)
        bench.run()

        // Once per load: the reload shows its stored list again, then the fresh one.
        #expect(cards.events == [.next(110, Self.cards), .next(310, Self.cards), .next(320, Self.fresher)])
        #expect(isLoading.events == [.next(100, true), .next(110, false)])
        #expect(banner.events == [.next(100, nil), .next(200, "Offline: showing the menu from your last visit"), .next(300, nil)])
        #expect(background.events.map(\.time) == [100, 110, 200, 300, 310, 320])    // one per state
        #expect(background.events.allSatisfy { $0.value.element == .loaded })
        #expect(featured.subscriptions.count == 1)               // four outputs, one subscription
    }

    @Test func aFailedFirstLoadShowsTheErrorViewUntilTheReloadFillsTheList() throws {
        let bench = try ViewModelBench()
        let featured = bench.scheduler.createHotObservable([
            .next(100, .loading),
            .next(101, .failed(Offline())),
            .next(200, .loading),
            .next(210, .loaded(Self.cards, origin: .network)),
        ] as [Recorded<Event<LoadState<FeaturedCard>>>])
        let viewModel = HomeViewModel(featured: featured.asObservable())
        let state = bench.record(viewModel.state)
        let cards = bench.record(viewModel.cards)
        let isLoading = bench.record(viewModel.isLoading)
        let background = bench.record(viewModel.background)
        bench.run()

        #expect(state.events.map { "\($0.time) \($0.value.element.map(String.init(describing:)) ?? "")" }
                == ["100 loading", "101 failed(Offline())", "200 loading", "210 loaded(2, network)"])
        #expect(background.events == [.next(100, .loaded), .next(101, .failed(message: "No connection to the kitchen")),
                                     .next(200, .loaded), .next(210, .loaded)])
        #expect(isLoading.events == [.next(100, true), .next(101, false), .next(200, true), .next(210, false)])
        #expect(cards.events == [.next(210, Self.cards)])
    }

    @Test func nothingIsAskedUntilAnOutputIsDriven() throws {
        let bench = try ViewModelBench()
        let featured = bench.scheduler.createColdObservable([.next(10, LoadState<FeaturedCard>.loading)])
        _ = HomeViewModel(featured: featured.asObservable())
        bench.run(to: 100)
        #expect(featured.subscriptions.isEmpty)
    }
}
