import Foundation
import HeadlessUI
import Repository
import Streams
import StreamsTesting
import TestSupport
import Testing
@testable import Tracks

@MainActor @Suite(.resourceCheck) struct TracksFixturesTests {
    @Test func twoHundredInventedTracksWithDistinctArtwork() {
        #expect(TracksFixtures.tracks.count == 200)
        #expect(Set(TracksFixtures.tracks.compactMap(\.artworkUrl60)).count == 200)
        #expect(Set(TracksFixtures.tracks.compactMap(\.trackName)).count == TracksFixtures.tracks.filter { $0.trackName != nil }.count)
        #expect(TracksFixtures.missingArtwork.count == 13)
        #expect(TracksFixtures.missingArtwork.isDisjoint(with: TracksFixtures.unreadableArtwork))
        #expect(TracksFixtures.artworkImage(4) != TracksFixtures.artworkImage(5))
    }

    @Test func artworkPNGsDecodeToTheirRowsImage() throws {
        for index in [0, 1, 99, 199] {
            let decoded = try Image(pngData: TracksFixtures.artworkPNG(index), name: "\(index)")
            #expect(decoded == TracksFixtures.artworkImage(index))
        }
    }

    @Test func theFixtureNetworkAnswersEachRoute() {
        // A fresh clock for each request (subscribed at 200, as `start` does).
        func fetch(_ url: URL) -> TestableObserver<Int> {
            let scheduler = TestScheduler(initialClock: 0, resolution: 0.001, simulateProcessingDelay: false)
            let network = TracksFixtures.network(scheduler: scheduler, latency: .varied)
            return scheduler.start { network.fetch(url: url).asObservable().map(\.count) }
        }
        let search = fetch(URL(string: "https://tracks.example/search?term=anything")!)
        #expect(search.events == [.next(450, TracksFixtures.searchJSON.count), .completed(450)])
        let png = fetch(TracksFixtures.artworkURL(0))
        #expect(png.events.first?.time == 200 + 161)
        #expect(png.events.first?.value.element == TracksFixtures.artworkPNG(0).count)
        #expect(fetch(TracksFixtures.artworkURL(2)).events == [.error(200 + 195, NetworkError.badStatus(code: 404, body: Data("no artwork here".utf8)))])
    }

    @Test func latenciesAreOutOfRowOrder() {
        let latencies = (0..<3).map(TracksFixtures.artworkLatencyMilliseconds)
        #expect(latencies == [161, 298, 195])
        #expect((0..<200).map(TracksFixtures.artworkLatencyMilliseconds).allSatisfy { (60..<300).contains($0) })
    }
}
