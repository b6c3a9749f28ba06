import Foundation
import HeadlessUI
import Repository
import Streams
import TestSupport
import Testing
@testable import Tracks

@MainActor @Suite(.resourceCheck) struct TrackCellTests {
    let row = TrackRow(title: "Paper Orchard — Juniper Vale", detail: "A hazy folk ballad.", artworkURL: TracksFixtures.artworkURL(1))

    @Test func showsTheTextAndThePlaceholderUntilTheArtworkArrives() {
        let images = ControlledImages()
        let cell = TrackCell(reuseIdentifier: TrackCell.reuseIdentifier)
        Headless.run { cell.configure(with: row, images: images) }
        #expect(cell.artworkState == .loading)
        #expect(cell.render() == """
        TrackCell [reusable]
          ImageView [image placeholder 60×60]
          Label "Paper Orchard — Juniper Vale"
          Label "A hazy folk ballad."
        """)
        Headless.run { images.answer(TracksFixtures.artworkURL(1)) }
        #expect(cell.artworkState == .loaded)
        #expect(cell.artworkView.image == TracksFixtures.artworkImage(1))
    }

    @Test func aCachedImageShowsAtOnce() {
        let scheduler = VirtualTimeScheduler(initialClock: 0, converter: IntegerVirtualTimeConverter(resolution: 0.001))
        let artwork = ArtworkProvider(network: TracksFixtures.network(scheduler: scheduler, latency: .immediate))
        let load = artwork.loadImage(for: TracksFixtures.artworkURL(1)).subscribe()
        Headless.run { scheduler.start() }
        load.dispose()
        let cell = TrackCell(reuseIdentifier: TrackCell.reuseIdentifier)
        Headless.run { cell.configure(with: row, images: artwork) }
        #expect(cell.artworkState == .loaded)
        #expect(cell.artworkView.image == TracksFixtures.artworkImage(1))
    }

    @Test func aRowWithoutArtworkShowsThePlaceholderAndNoError() {
        let images = ControlledImages()
        let cell = TrackCell(reuseIdentifier: TrackCell.reuseIdentifier)
        Headless.run { cell.configure(with: TrackRow(title: "Untitled", detail: "", artworkURL: nil), images: images) }
        #expect(cell.artworkState == .none)
        #expect(cell.artworkView.image == TrackCell.placeholder)
        #expect(images.requested.isEmpty)
    }

    @Test func aFailureShowsTheErrorLineUntilTheCellIsReused() {
        let images = ControlledImages()
        let cell = TrackCell(reuseIdentifier: TrackCell.reuseIdentifier)
        Headless.run { cell.configure(with: row, images: images) }
        Headless.run { images.answer(TracksFixtures.artworkURL(1), error: NetworkError.badStatus(code: 404, body: Data())) }
        #expect(cell.artworkState == .failed(reason: "HTTP 404"))
        #expect(cell.errorLabel.text == "⚠ artwork unavailable (HTTP 404)")
        #expect(cell.artworkView.image == TrackCell.placeholder)
        Headless.run { cell.prepareForReuse() }
        #expect(cell.errorLabel.isHidden)
        #expect(cell.artworkState != .failed(reason: "HTTP 404"))
    }

    @Test func aFailureQueuedBeforeReuseIsDropped() {
        let images = ControlledImages()
        let cell = TrackCell(reuseIdentifier: TrackCell.reuseIdentifier)
        Headless.run { cell.configure(with: row, images: images) }
        let other = TrackRow(title: "Other", detail: "", artworkURL: TracksFixtures.artworkURL(5))
        Headless.run {
            images.answer(TracksFixtures.artworkURL(1), error: NetworkError.timedOut)   // queued for the main scheduler
            cell.prepareForReuse()
            cell.configure(with: other, images: images)
        }
        #expect(cell.errorLabel.isHidden)
        #expect(cell.artworkState == .loading)
        images.finish()
    }

    @Test func failuresReadAsShortReasons() {
        let url = TracksFixtures.artworkURL(0)
        #expect(describeArtworkFailure(NetworkError.badStatus(code: 500, body: Data())) == "HTTP 500")
        #expect(describeArtworkFailure(NetworkError.timedOut) == "timed out")
        #expect(describeArtworkFailure(NetworkError.unreachable(underlying: URLError(.cannotConnectToHost))) == "unreachable")
        #expect(describeArtworkFailure(ImageLoaderError.couldNotDecode(url: url, underlying: ImageError.notAnImage)) == "not an image")
    }
}
