import Foundation
import HeadlessUI
import MVVM
import MVVM
import Repository
import Streams
import StreamsTesting
import TestSupport
import Testing

@MainActor @Suite(.resourceCheck) struct ImageLoaderProvidingTests {
    private func makeLoader(scheduler: TestScheduler, routes: [String: FixtureNetwork.Route]) -> (FixtureNetwork, ImageLoader<Image>) {
        let network = FixtureNetwork(scheduler: scheduler, routes: routes)
        return (network, ImageLoader.png(network: network))
    }

    @Test func cellsShowImagesFromTheLoaderNamedAfterTheirURL() throws {
        let scheduler = TestScheduler(initialClock: 0)
        let red = Image(width: 4, height: 3, color: .init(r: 255, g: 0, b: 0))
        let (network, loader) = makeLoader(scheduler: scheduler, routes: [
            "/photos/pizza/margherita.png": .init(body: red.pngData(), delay: .seconds(5)),
        ])
        let url = URL(string: "http://fixture.local/photos/pizza/margherita.png")!
        let placeholder = Image(width: 1, height: 1, color: .init(r: 0, g: 0, b: 0), name: "placeholder")

        let first = ImageView()
        let second = ImageView()
        Headless.run {
            first.load(url, from: loader, placeholder: placeholder)
            second.load(url, from: loader, placeholder: placeholder)
        }
        #expect(first.image?.name == "placeholder")
        scheduler.start()
        Headless.drain()
        #expect(first.image?.name == "margherita")
        #expect(first.image?.width == 4)
        #expect(second.image?.pixel(x: 3, y: 2) == red.pixel(x: 3, y: 2))
        #expect(network.requestCount(for: "/photos/pizza/margherita.png") == 1)

        // A cached image appears synchronously, with no new request.
        let third = ImageView()
        Headless.run { third.load(url, from: loader, placeholder: placeholder) }
        #expect(third.image?.name == "margherita")
        #expect(loader.cachedImage(for: url)?.name == "margherita")
        #expect(network.requestCount(for: "/photos/pizza/margherita.png") == 1)
    }

    @Test func bytesThatAreNotAnImageLeaveThePlaceholder() {
        let scheduler = TestScheduler(initialClock: 0)
        let (_, loader) = makeLoader(scheduler: scheduler, routes: [
            "/broken.png": .init(body: Data("not a png".utf8)),
        ])
        let url = URL(string: "http://fixture.local/broken.png")!
        let placeholder = Image(width: 1, height: 1, color: .init(r: 0, g: 0, b: 0), name: "placeholder")
        let view = ImageView()
        var errors: [Error] = []
        let subscription = loader.loadImage(for: url).subscribe(onError: { errors.append($0) })
        Headless.run { view.load(url, from: loader, placeholder: placeholder) }
        scheduler.start()
        Headless.drain()
        #expect(view.image?.name == "placeholder")
        #expect(errors.count == 1)
        #expect(loader.cachedImage(for: url) == nil)
        subscription.dispose()
    }
}
