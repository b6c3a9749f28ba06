import Foundation
import HeadlessUI
import Repository
import Streams
import StreamsTesting
import TestSupport
import Testing
@testable import Tracks

/// Records what a view model's outputs drive, on the main scheduler.
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

@Suite(.resourceCheck) struct TracksViewModelTests {
    let scheduler = TestScheduler(initialClock: 0, resolution: 0.001, simulateProcessingDelay: false)

    func advance(to time: Int) {
        Headless.run { scheduler.advanceTo(time) }
    }

    @Test func loadingThenLoaded() {
        let network = TracksFixtures.network(scheduler: scheduler, latency: .varied)
        let viewModel = TracksViewModel(api: TracksAPI(network: network, baseURL: TracksFixtures.baseURL), term: "midnight")
        let recorder = ViewModelRecorder(viewModel)
        #expect(recorder.states == [.loading])
        #expect(recorder.rows.isEmpty)
        #expect(recorder.headers == ["Searching “midnight”…"])

        advance(to: 249)
        #expect(recorder.states == [.loading])

        advance(to: 250)
        #expect(recorder.states == [.loading, .loaded])
        #expect(recorder.rows.count == 1)
        #expect(recorder.rows.first == TracksFixtures.tracks.map(TrackRow.init(track:)))
        #expect(recorder.rows.first?.first == TrackRow(title: "Midnight Lanterns — Juniper Vale", detail: "A slow-burning synth-pop ballad.", artworkURL: TracksFixtures.artworkURL(0)))
        #expect(recorder.headers.last == "200 results for “midnight”")
        // Three outputs, one search.
        #expect(network.requestCount(for: "/search") == 1)
    }

    @Test func failureThenRetryThenLoaded() {
        let network = TracksFixtures.network(scheduler: scheduler, latency: .varied)
        network.setRoute(.status(500, body: "down", delay: .milliseconds(100)), for: "/search")
        let viewModel = TracksViewModel(api: TracksAPI(network: network, baseURL: TracksFixtures.baseURL), term: "midnight")
        let recorder = ViewModelRecorder(viewModel)

        advance(to: 100)
        #expect(recorder.states == [.loading, .failed(message: "The search failed (HTTP 500).")])
        #expect(recorder.headers.last == "The search failed (HTTP 500).")
        #expect(recorder.rows.isEmpty)

        network.setRoute(.data(TracksFixtures.searchJSON, delay: .milliseconds(100)), for: "/search")
        Headless.run { viewModel.retry.onNext(()) }
        #expect(recorder.states.last == .loading)
        advance(to: 200)
        #expect(recorder.states == [.loading, .failed(message: "The search failed (HTTP 500)."), .loading, .loaded])
        #expect(recorder.rows.map(\.count) == [200])
        #expect(network.requestCount(for: "/search") == 2)
    }

    @Test func aMalformedAnswerFailsWithAClearMessage() {
        let network = FixtureNetwork(scheduler: scheduler, routes: [
            "/search": .json(#"{"results": [{"artistName": "A"}, {"trackName": "B"}]}"#),
        ])
        let viewModel = TracksViewModel(api: TracksAPI(network: network, baseURL: TracksFixtures.baseURL), term: "x")
        let recorder = ViewModelRecorder(viewModel)
        advance(to: 1)
        #expect(recorder.states == [.loading, .failed(message: #"Could not read the results: result 1: "artistName" is missing."#)])
    }

    @Test func anUnreachableServerSaysSo() {
        let network = FixtureNetwork(scheduler: scheduler)
        network.isOffline = true
        let viewModel = TracksViewModel(api: TracksAPI(network: network, baseURL: TracksFixtures.baseURL), term: "x")
        let recorder = ViewModelRecorder(viewModel)
        advance(to: 1)
        #expect(recorder.states == [.loading, .failed(message: "Could not reach the server.")])
    }

    @Test func aRetryDuringASearchCancelsIt() {
        let network = TracksFixtures.network(scheduler: scheduler, latency: .varied)
        let viewModel = TracksViewModel(api: TracksAPI(network: network, baseURL: TracksFixtures.baseURL), term: "midnight")
        let recorder = ViewModelRecorder(viewModel)
        advance(to: 100)
        Headless.run { viewModel.retry.onNext(()) }
        advance(to: 349)
        #expect(recorder.rows.isEmpty)
        advance(to: 350)
        #expect(recorder.rows.map(\.count) == [200])
        #expect(recorder.states == [.loading, .loading, .loaded])
        #expect(network.requestCount(for: "/search") == 2)
        #expect(network.cancelledRequestCount == 1)
    }

    @Test func nothingIsRequestedUntilSubscribed() {
        let network = TracksFixtures.network(scheduler: scheduler, latency: .varied)
        _ = TracksViewModel(api: TracksAPI(network: network, baseURL: TracksFixtures.baseURL), term: "midnight")
        advance(to: 1_000)
        #expect(network.totalRequestCount == 0)
    }
}
