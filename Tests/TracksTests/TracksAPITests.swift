import Foundation
import Repository
import Streams
import StreamsTesting
import TestSupport
import Testing
@testable import Tracks

@MainActor @Suite(.resourceCheck) struct TracksAPITests {
    @Test func searchesWithTheTermAndLimit() {
        let api = TracksAPI(network: FixtureNetwork(scheduler: TestScheduler(initialClock: 0)), baseURL: URL(string: "http://127.0.0.1:8080")!, limit: 50)
        #expect(api.searchURL(term: "night & day").absoluteString == "http://127.0.0.1:8080/search?term=night%20%26%20day&limit=50")
        #expect(api.searchURL(term: "x", offset: 100).absoluteString == "http://127.0.0.1:8080/search?term=x&limit=50&offset=100")
    }

    @Test func thePagedFixtureAnswersTheAskedSlice() {
        func page(offset: Int) -> [Track]? {
            let scheduler = TestScheduler(initialClock: 0, resolution: 0.001)
            let network = TracksFixtures.network(scheduler: scheduler, latency: .immediate)
            let api = TracksAPI(network: OffsetPagedSearch(network), baseURL: TracksFixtures.baseURL, limit: 30)
            return scheduler.start { api.search(term: "midnight", offset: offset).asObservable() }.events.first?.value.element
        }
        #expect(page(offset: 0) == Array(TracksFixtures.tracks[0..<30]))
        #expect(page(offset: 180) == Array(TracksFixtures.tracks[180..<200]))
        #expect(page(offset: 400) == [])
    }

    @Test func fetchesAndDecodesOnce() {
        let scheduler = TestScheduler(initialClock: 0, resolution: 0.001)
        let network = TracksFixtures.network(scheduler: scheduler, latency: .varied)
        let api = TracksAPI(network: network, baseURL: TracksFixtures.baseURL)
        let res = scheduler.start { api.search(term: "midnight").asObservable().map(\.count) }
        #expect(res.events == [.next(450, 200), .completed(450)])
        #expect(network.requestCount(for: "/search") == 1)
        #expect(network.requests.first?.url?.query == "term=midnight&limit=50")
    }

    @Test func aMalformedAnswerFailsWithTheDecodingError() {
        let scheduler = TestScheduler(initialClock: 0)
        let network = FixtureNetwork(scheduler: scheduler, routes: [
            "/search": .json(#"{"results": [{"trackName": "No artist"}]}"#, delay: .seconds(5)),
        ])
        let api = TracksAPI(network: network, baseURL: TracksFixtures.baseURL)
        let res = scheduler.start { api.search(term: "x").asObservable() }
        #expect(res.events == [.error(205, TrackDecodingError.missingField(index: 0, field: "artistName"))])
    }

    @Test func aServerErrorFailsWithTheNetworkError() {
        let scheduler = TestScheduler(initialClock: 0)
        let network = FixtureNetwork(scheduler: scheduler, routes: ["/search": .status(503, body: "busy")])
        let api = TracksAPI(network: network, baseURL: TracksFixtures.baseURL)
        let res = scheduler.start { api.search(term: "x").asObservable() }
        #expect(res.events == [.error(201, NetworkError.badStatus(code: 503, body: Data("busy".utf8)))])
    }
}
