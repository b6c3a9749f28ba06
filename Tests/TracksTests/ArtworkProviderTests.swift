import Foundation
import HeadlessUI
import Repository
import Streams
import StreamsTesting
import TestSupport
import Testing
@testable import Tracks

@MainActor @Suite(.resourceCheck) struct ArtworkProviderTests {
    let scheduler = TestScheduler(initialClock: 0, resolution: 0.001, simulateProcessingDelay: false)

    @Test func loadsDecodesAndCachesNamedAfterTheFile() {
        let network = TracksFixtures.network(scheduler: scheduler, latency: .varied)
        let artwork = ArtworkProvider(network: network)
        let url = TracksFixtures.artworkURL(3)
        #expect(artwork.cachedImage(for: url) == nil)
        let res = scheduler.start { artwork.loadImage(for: url).map(\.description) }
        let due = 200 + TracksFixtures.artworkLatencyMilliseconds(3)
        #expect(res.events == [.next(due, "[image 3 60×60]"), .completed(due)])
        #expect(artwork.cachedImage(for: url) == TracksFixtures.artworkImage(3))
        #expect(network.requestCount(for: url.path) == 1)
    }

    @Test func aFailedURLFailsAgainWithoutARequest() {
        let network = TracksFixtures.network(scheduler: scheduler, latency: .immediate)
        let artwork = ArtworkProvider(network: network)
        let url = TracksFixtures.artworkURL(2)
        let notFound = NetworkError.badStatus(code: 404, body: Data("no artwork here".utf8))
        let first = scheduler.start { artwork.loadImage(for: url) }
        #expect(first.events == [.error(200, notFound)])
        #expect(artwork.failureCount == 1)

        let again = scheduler.createObserver(Image.self)
        let subscription = artwork.loadImage(for: url).subscribe(again)
        #expect(again.events == [.error(1_000, notFound)])       // at once, on subscription
        #expect(network.requestCount(for: url.path) == 1)
        subscription.dispose()

        artwork.forgetFailures()
        let retried = artwork.loadImage(for: url).subscribe(onError: { _ in })
        #expect(network.requestCount(for: url.path) == 2)
        retried.dispose()
        Headless.run { scheduler.start() }
    }

    @Test func concurrentAskersShareOneRequest() {
        let network = TracksFixtures.network(scheduler: scheduler, latency: .varied)
        let artwork = ArtworkProvider(network: network)
        let url = TracksFixtures.artworkURL(8)
        let a = scheduler.createObserver(Image.self), b = scheduler.createObserver(Image.self)
        let first = artwork.loadImage(for: url).subscribe(a)
        let second = artwork.loadImage(for: url).subscribe(b)
        scheduler.start()
        #expect(a.events.count == 2 && b.events.count == 2)
        #expect(network.requestCount(for: url.path) == 1)
        first.dispose()
        second.dispose()
    }

    @Test func unreadableBytesFailAsNotAnImage() {
        let network = TracksFixtures.network(scheduler: scheduler, latency: .immediate)
        let artwork = ArtworkProvider(network: network)
        let url = TracksFixtures.artworkURL(51)
        let res = scheduler.start { artwork.loadImage(for: url) }
        #expect(res.events.count == 1)
        let error = res.events.first?.value.error
        #expect(error.map(describeArtworkFailure) == "not an image")
    }
}
