import Foundation
import HeadlessUI
import ObjectStore
import Repository
import Streams
import StreamsTesting
import TestSupport
import Testing
@testable import Tracks

/// Records what a view model's outputs drive, on the main scheduler.
@MainActor
final class ViewModelRecorder {
    var states: [ListLoadState] = []
    var rows: [[TrackRow]] = []
    var headers: [String] = []
    let bag = DisposeBag()

    init(_ viewModel: TracksViewModel) {
        Headless.run {
            viewModel.state.drive(onNext: { [unowned self] in states.append($0) }).disposed(by: bag)
            viewModel.rows.drive(onNext: { [unowned self] in rows.append($0) }).disposed(by: bag)
            viewModel.header.drive(onNext: { [unowned self] in headers.append($0) }).disposed(by: bag)
        }
    }
}

@MainActor @Suite(.resourceCheck) struct TracksViewModelTests {
    let scheduler = TestScheduler(initialClock: 0, resolution: 0.001, simulateProcessingDelay: false)
    /// The table neared its end.
    let nextPage = PublishSubject<Void>()
    /// Retry was tapped.
    let retry = PublishSubject<Void>()

    func advance(to time: Int) {
        Headless.run { scheduler.advanceTo(time) }
    }

    func send(_ subject: PublishSubject<Void>) {
        Headless.run { subject.onNext(()) }
    }

    /// A view model over `network`, pages of 50.
    func makeViewModel(_ network: FixtureNetwork, term: String = "midnight") -> TracksViewModel {
        TracksViewModel(
            input: (loadNextPage: nextPage.asObservable(), retry: retry.asObservable()),
            dependency: .init(api: TracksAPI(network: OffsetPagedSearch(network), baseURL: TracksFixtures.baseURL, limit: 50),
                              term: term, scheduler: scheduler))
    }

    static let rows = TracksFixtures.tracks.map(TrackRow.init(track:))

    @Test func loadingThenTheFirstPage() {
        let network = TracksFixtures.network(scheduler: scheduler, latency: .varied)
        let recorder = ViewModelRecorder(makeViewModel(network))
        #expect(recorder.states == [.loading])
        #expect(recorder.rows.isEmpty)
        #expect(recorder.headers == ["Searching “midnight”…"])

        advance(to: 249)
        #expect(recorder.states == [.loading])

        advance(to: 250)
        #expect(recorder.states == [.loading, .loaded])
        #expect(recorder.rows == [Array(Self.rows[0..<50])])
        #expect(recorder.rows.first?.first == TrackRow(title: "Midnight Lanterns — Juniper Vale", detail: "A slow-burning synth-pop ballad.", artworkURL: TracksFixtures.artworkURL(0)))
        #expect(recorder.headers.last == "50 results for “midnight”")
        // Three outputs, one search.
        #expect(network.requestCount(for: "/search") == 1)
    }

    @Test func nextPagesAppendUntilTheEnd() {
        let network = TracksFixtures.network(scheduler: scheduler, latency: .varied)
        let recorder = ViewModelRecorder(makeViewModel(network))
        advance(to: 250)
        send(nextPage)
        #expect(recorder.headers.last == "50 results for “midnight”, loading more…")
        send(nextPage)                                   // one page at a time
        advance(to: 500)
        #expect(recorder.rows.last == Array(Self.rows[0..<100]))
        #expect(recorder.headers.last == "100 results for “midnight”")
        for time in [750, 1_000, 1_250] {
            send(nextPage)
            advance(to: time)
        }
        // The fourth page was full, so a fifth was asked for: it was empty, the end.
        #expect(recorder.rows.last == Self.rows)
        #expect(recorder.rows.map(\.count) == [50, 100, 150, 200])
        send(nextPage)
        advance(to: 2_000)
        #expect(network.requests.map { $0.url?.query ?? "" } == [
            "term=midnight&limit=50", "term=midnight&limit=50&offset=50", "term=midnight&limit=50&offset=100",
            "term=midnight&limit=50&offset=150", "term=midnight&limit=50&offset=200",
        ])
        #expect(network.requestCount(for: "/search") == 5)
        #expect(recorder.states == [.loading, .loaded])
    }

    @Test func aFailedNextPageKeepsTheRowsAndIsRetried() {
        let network = TracksFixtures.network(scheduler: scheduler, latency: .varied)
        let recorder = ViewModelRecorder(makeViewModel(network))
        advance(to: 250)
        network.setRoute(.status(500, body: "down", delay: .milliseconds(100)), for: "/search")
        send(nextPage)
        advance(to: 350)
        #expect(recorder.rows.map(\.count) == [50])
        #expect(recorder.states == [.loading, .loaded])
        #expect(recorder.headers.last == "50 results for “midnight”; more failed: The search failed (HTTP 500).")
        network.setRoute(.data(TracksFixtures.searchJSON, delay: .milliseconds(100)), for: "/search")
        send(nextPage)
        advance(to: 450)
        #expect(recorder.rows.map(\.count) == [50, 100])
        #expect(recorder.headers.last == "100 results for “midnight”")
    }

    @Test func failureThenRetryThenLoaded() {
        let network = TracksFixtures.network(scheduler: scheduler, latency: .varied)
        network.setRoute(.status(500, body: "down", delay: .milliseconds(100)), for: "/search")
        let recorder = ViewModelRecorder(makeViewModel(network))

        advance(to: 100)
        #expect(recorder.states == [.loading, .failed(message: "The search failed (HTTP 500).")])
        #expect(recorder.headers.last == "The search failed (HTTP 500).")
        #expect(recorder.rows.isEmpty)

        network.setRoute(.data(TracksFixtures.searchJSON, delay: .milliseconds(100)), for: "/search")
        send(retry)
        #expect(recorder.states.last == .loading)
        advance(to: 200)
        #expect(recorder.states == [.loading, .failed(message: "The search failed (HTTP 500)."), .loading, .loaded])
        #expect(recorder.rows.map(\.count) == [50])
        #expect(network.requestCount(for: "/search") == 2)
    }

    @Test func aMalformedAnswerFailsWithAClearMessage() {
        let network = FixtureNetwork(scheduler: scheduler, routes: [
            "/search": .json(#"{"results": [{"artistName": "A"}, {"trackName": "B"}]}"#),
        ])
        let recorder = ViewModelRecorder(makeViewModel(network, term: "x"))
        advance(to: 1)
        #expect(recorder.states == [.loading, .failed(message: #"Could not read the results: result 1: "artistName" is missing."#)])
    }

    @Test func anUnreachableServerSaysSo() {
        let network = FixtureNetwork(scheduler: scheduler)
        network.isOffline = true
        let recorder = ViewModelRecorder(makeViewModel(network, term: "x"))
        advance(to: 1)
        #expect(recorder.states == [.loading, .failed(message: "Could not reach the server.")])
    }

    @Test func triggersWhileThePageLoadsSendNothing() {
        let network = TracksFixtures.network(scheduler: scheduler, latency: .varied)
        let recorder = ViewModelRecorder(makeViewModel(network))
        advance(to: 100)
        send(retry)
        send(nextPage)
        advance(to: 250)
        #expect(recorder.rows.map(\.count) == [50])
        #expect(recorder.states == [.loading, .loaded])
        #expect(network.requestCount(for: "/search") == 1)
        #expect(network.cancelledRequestCount == 0)
    }

    @Test func theStoredPagesShowAtOnceForANewScreen() throws {
        let network = TracksFixtures.network(scheduler: scheduler, latency: .varied)
        let store = Store()
        let dependency = TracksViewModel.Dependency(
            api: TracksAPI(network: OffsetPagedSearch(network), baseURL: TracksFixtures.baseURL, limit: 50),
            term: "midnight", store: store, scheduler: scheduler)
        do {
            let first = ViewModelRecorder(TracksViewModel(input: (nextPage.asObservable(), retry.asObservable()), dependency: dependency))
            advance(to: 250)
            send(nextPage)
            advance(to: 500)
            #expect(first.rows.last?.count == 100)
        }
        let second = ViewModelRecorder(TracksViewModel(input: (Observable.never(), Observable.never()), dependency: dependency))
        advance(to: 501)
        #expect(second.rows == [Array(Self.rows[0..<100])])
        #expect(second.states == [.loading, .loaded])
        advance(to: 751)                                  // page 1 again: nothing shorter shown
        #expect(second.rows == [Array(Self.rows[0..<100])])
        #expect(network.requestCount(for: "/search") == 3)
    }

    @Test func nothingIsRequestedUntilSubscribed() {
        let network = TracksFixtures.network(scheduler: scheduler, latency: .varied)
        _ = makeViewModel(network)
        advance(to: 1_000)
        #expect(network.totalRequestCount == 0)
    }
}
