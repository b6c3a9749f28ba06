import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Repository
import Streams
import Testing
import TestSupport

/// A download whose askers all left (their cells were reused) is not wasted: it finishes into
/// the cache, or the next asker joins it. Against a real server on 127.0.0.1.
@Suite(.resourceCheck) struct ImageLoaderAbandonTests {
    func makeLoader(_ network: Network) -> ImageLoader<String> {
        ImageLoader(network: network, decode: { String(decoding: $0, as: UTF8.self) }, cost: { $0.utf8.count })
    }

    @Test func anAbandonedDownloadFinishesIntoTheCache() throws {
        let server = try TestHTTPServer(routes: ["/a.png": .respondWhenReleased(status: 200, body: Data("A".utf8))])
        defer { server.stop() }
        let loader = makeLoader(URLSessionNetwork(scheduler: ImmediateScheduler.instance))
        let url = server.url("/a.png")
        let recorder = EventRecorder<String>()
        loader.load(url).asObservable().subscribe(recorder).dispose()
        #expect(server.wait { $0.requestCount("/a.png") == 1 })
        #expect(loader.inFlightCount == 1)
        server.release("/a.png")
        #expect(MainScheduler.run(until: { loader.inFlightCount == 0 }, timeout: 60))
        #expect(loader.cached(for: url) == "A")
        #expect(recorder.events.isEmpty)
        #expect(server.requestCount("/a.png") == 1)
    }

    @Test func theNextAskerJoinsAnAbandonedDownload() throws {
        let server = try TestHTTPServer(routes: ["/b.png": .respondWhenReleased(status: 200, body: Data("B".utf8))])
        defer { server.stop() }
        let loader = makeLoader(URLSessionNetwork(scheduler: ImmediateScheduler.instance))
        let url = server.url("/b.png")
        loader.load(url).asObservable().subscribe(onNext: { _ in }).dispose()
        #expect(server.wait { $0.requestCount("/b.png") == 1 })
        let recorder = EventRecorder<String>()
        let subscription = loader.load(url).asObservable().subscribe(recorder)
        defer { subscription.dispose() }
        server.release("/b.png")
        #expect(recorder.waitForTermination(timeout: 60))
        #expect(recorder.elements == ["B"])
        #expect(server.requestCount("/b.png") == 1)
    }

    @Test func theCancellingModeStillCancels() throws {
        let server = try TestHTTPServer(routes: ["/c.png": .hang])
        defer { server.stop() }
        let loader = ImageLoader<String>(network: URLSessionNetwork(scheduler: ImmediateScheduler.instance),
                                         decode: { String(decoding: $0, as: UTF8.self) }, cost: { $0.utf8.count },
                                         finishesAbandonedDownloads: false)
        let subscription = loader.load(server.url("/c.png")).asObservable().subscribe(onNext: { _ in })
        #expect(server.wait { $0.requestCount("/c.png") == 1 })
        subscription.dispose()
        #expect(loader.inFlightCount == 0)
        #expect(server.wait { $0.closedByClient == ["/c.png"] })
    }
}
