import Foundation
import HeadlessUI
import Streams
import TestSupport
import Testing

@MainActor @Suite(.resourceCheck) struct ImageViewSameURLTests {
    let url = FakeImageProvider.url(7)

    @Test func settingTheURLBeingLoadedAgainDoesNothing() {
        let provider = FakeImageProvider()
        let view = ImageView()
        view.load(url, from: provider, placeholder: placeholder)
        view.load(url, from: provider, placeholder: placeholder)
        #expect(provider.requested == [url])
        #expect(provider.cancelled == [])
        provider.respond(to: url)
        _ = Headless.drain()
        #expect(view.image == FakeImageProvider.image(for: url))
    }

    @Test func settingTheURLShownAgainDoesNothing() {
        let provider = FakeImageProvider()
        let view = ImageView()
        view.load(url, from: provider, placeholder: placeholder)
        provider.respond(to: url)
        _ = Headless.drain()
        view.load(url, from: provider, placeholder: placeholder)
        #expect(provider.requested == [url])
        #expect(view.image == FakeImageProvider.image(for: url))
    }

    @Test func anotherURLOrACancelledLoadStartsAgain() {
        let provider = FakeImageProvider()
        let view = ImageView()
        let other = FakeImageProvider.url(8)
        view.load(url, from: provider, placeholder: placeholder)
        view.load(other, from: provider, placeholder: placeholder)
        #expect(provider.cancelled == [url])
        view.cancelImageLoad()
        view.load(other, from: provider, placeholder: placeholder)
        #expect(provider.requested == [url, other, other])
        view.cancelImageLoad()
    }

    @Test func aFailedLoadIsTriedAgainWhenAskedAgain() {
        let provider = FakeImageProvider()
        let view = ImageView()
        view.load(url, from: provider, placeholder: placeholder)
        provider.respond(to: url, failing: true)
        _ = Headless.drain()
        view.load(url, from: provider, placeholder: placeholder)
        #expect(provider.requested == [url, url])
        view.cancelImageLoad()
    }
}
