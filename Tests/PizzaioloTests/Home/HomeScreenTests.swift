import Foundation
import HeadlessUI
import Repository
import Streams
import Testing
import TestSupport
@testable import Pizzaiolo

/// The Home screen's story of a first launch with no network: the error view, Retry, the
/// filled list — read from the rendered screen and from the view model's `Driver`s, with the
/// embedded network switched offline, then online.
@MainActor @Suite(.resourceCheck) struct HomeScreenTests {
    /// The state a shared list replays now.
    static func current<Element>(_ states: Observable<LoadState<Element>>) -> LoadState<Element>? {
        var state: LoadState<Element>?
        states.subscribe(onNext: { state = $0 }).dispose()
        return state
    }

    @Test func aFirstLaunchOfflineShowsTheErrorViewAndRetryFillsTheScreen() throws {
        let backend = Backend.embedded()
        let (app, home, errorView) = try launchOffline(backend)

        // Offline, nothing stored: the error view with Retry, no spinner, no row, no banner.
        #expect(latest(home.viewModel.state).map(String.init(describing:)) == "failed(\(FixtureNetwork.offlineError))")
        #expect(latest(home.viewModel.background) == .failed(message: "No connection to the kitchen"))
        #expect(latest(home.viewModel.isLoading) == false)
        #expect(app.render() == """
            <Pizzaiolo>
            == Pizzaiolo ==
            View
              TableView 0 rows, offset 0
                NetworkErrorView
                  Label "No connection to the kitchen"
                  Button [Retry]
            """)
        #expect(Self.current(app.menu.pizzas.states)?.list == nil)

        // Online again, Retry: both lists load again, from the network.
        backend.isOffline = false
        let sent = backend.requestCount
        Headless.run { _ = errorView.retryButton.tap() }
        #expect(latest(home.viewModel.state) == .loading)
        #expect(latest(home.viewModel.isLoading) == true)
        backend.settle()

        #expect(latest(home.viewModel.state).map(String.init(describing:)) == "loaded(3, network)")
        #expect(latest(home.viewModel.background) == .loaded)
        #expect(latest(home.viewModel.cards)?.map(\.title) == ["Margherita", "Build your own", "Frutti di Mare"])
        let filled = app.render()
        #expect(!filled.contains("NetworkErrorView"))
        #expect(!filled.contains("Retry"))
        #expect(filled.contains("TableView 3 rows"))
        #expect(filled.contains("Label \"Margherita\""))
        #expect(home.table.backgroundView == nil)
        #expect(home.table.numberOfRows(inSection: 0) == 3)
        #expect(home.banner.isHidden)
        #expect(Self.current(app.menu.pizzas.states)?.list?.count == 9)   // the Selector opens filled
        #expect(backend.requestCount - sent == 6)                  // featured, categories, pizzas, 3 photos
    }

    @Test func aRetryWhileStillOfflineShowsTheErrorViewAgain() throws {
        let backend = Backend.embedded()
        let (app, home, errorView) = try launchOffline(backend)
        Headless.run { _ = errorView.retryButton.tap() }
        backend.settle()
        let second = try #require(home.table.backgroundView as? NetworkErrorView)
        #expect(second !== errorView)                                  // a new failure, a new error view
        #expect(latest(home.viewModel.background) == .failed(message: "No connection to the kitchen"))
        #expect(home.table.numberOfRows(inSection: 0) == 0)
        #expect(app.render().contains("NetworkErrorView"))
    }
}
