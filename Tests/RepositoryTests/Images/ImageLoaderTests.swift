import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import Repository
import Streams
import StreamsTesting
import Testing
import TestSupport
import Locking

/// A stand-in for a UI image type: the decoded text of the body.
struct FakeImage: Equatable {
    let text: String
}

enum FakeDecodeError: Error, Equatable { case notAnImage }

@Suite(.resourceCheck) struct ImageLoaderTests {
    let base = URL(string: "https://img.example.com")!

    /// A loader over `network`. These tests check the cancelling mode unless asked
    /// (`finishes: true`, the default mode, is covered by the loopback-server tests).
    func makeLoader(_ network: Network, costLimit: Int = 1_000, directory: URL? = nil, finishes: Bool = false) -> ImageLoader<FakeImage> {
        ImageLoader(
            network: network,
            memoryCostLimit: costLimit,
            diskDirectory: directory,
            decode: { data in
                let text = String(decoding: data, as: UTF8.self)
                guard !text.hasPrefix("garbage") else { throw FakeDecodeError.notAnImage }
                return FakeImage(text: text)
            },
            cost: { $0.text.utf8.count },
            finishesAbandonedDownloads: finishes
        )
    }

    func temporaryDirectory() throws -> URL {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("ImageLoaderTests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        return root
    }

    @Test func loadsThroughTheNetworkThenFromMemory() {
        let scheduler = TestScheduler(initialClock: 0)
        let network = FixtureNetwork(scheduler: scheduler, routes: ["/a.png": .data(Data("pixels-a".utf8), delay: .seconds(10))])
        let loader = makeLoader(network)
        let url = base.appendingPathComponent("a.png")
        let first = scheduler.createObserver(FakeImage.self)
        let second = scheduler.createObserver(FakeImage.self)
        scheduler.scheduleAt(100) { _ = loader.load(url).asObservable().subscribe(first) }
        scheduler.scheduleAt(300) { _ = loader.load(url).asObservable().subscribe(second) }
        scheduler.start()
        #expect(first.events == [.next(110, FakeImage(text: "pixels-a")), .completed(110)])
        #expect(second.events == [.next(300, FakeImage(text: "pixels-a")), .completed(300)])   // synchronous hit
        #expect(network.requestCount(for: "/a.png") == 1)
        #expect(loader.cached(for: url) == FakeImage(text: "pixels-a"))
        #expect(loader.memoryCost == 8)
    }

    @Test func concurrentAskersShareOneRequest() {
        let scheduler = TestScheduler(initialClock: 0)
        let network = FixtureNetwork(scheduler: scheduler, routes: ["/a.png": .data(Data("A".utf8), delay: .seconds(50))])
        let loader = makeLoader(network)
        let url = base.appendingPathComponent("a.png")
        let observers = (0..<3).map { _ in scheduler.createObserver(FakeImage.self) }
        for (index, observer) in observers.enumerated() {
            scheduler.scheduleAt(100 + index * 10) { _ = loader.load(url).asObservable().subscribe(observer) }
        }
        scheduler.scheduleAt(120) { #expect(loader.inFlightCount == 1) }
        scheduler.start()
        for observer in observers {
            #expect(observer.events == [.next(150, FakeImage(text: "A")), .completed(150)])
        }
        #expect(network.requestCount(for: "/a.png") == 1)
        #expect(loader.inFlightCount == 0)
    }

    @Test func cancellingOneAskerKeepsTheOthers() {
        let scheduler = TestScheduler(initialClock: 0)
        let network = FixtureNetwork(scheduler: scheduler, routes: ["/a.png": .data(Data("A".utf8), delay: .seconds(50))])
        let loader = makeLoader(network)
        let url = base.appendingPathComponent("a.png")
        let leaving = scheduler.createObserver(FakeImage.self)
        let staying = scheduler.createObserver(FakeImage.self)
        var subscription: Disposable?
        scheduler.scheduleAt(100) {
            subscription = loader.load(url).asObservable().subscribe(leaving)
            _ = loader.load(url).asObservable().subscribe(staying)
        }
        scheduler.scheduleAt(120) { subscription?.dispose() }
        scheduler.start()
        #expect(leaving.events.isEmpty)
        #expect(staying.events == [.next(150, FakeImage(text: "A")), .completed(150)])
        #expect(network.requestCount(for: "/a.png") == 1)
        #expect(network.cancelledRequestCount == 0)
    }

    @Test func cancellingEveryAskerCancelsTheRequest() {
        let scheduler = TestScheduler(initialClock: 0)
        let network = FixtureNetwork(scheduler: scheduler, routes: ["/a.png": .data(Data("A".utf8), delay: .seconds(50))])
        let loader = makeLoader(network)
        let url = base.appendingPathComponent("a.png")
        let first = scheduler.createObserver(FakeImage.self)
        let second = scheduler.createObserver(FakeImage.self)
        let later = scheduler.createObserver(FakeImage.self)
        var subscriptions: [Disposable] = []
        scheduler.scheduleAt(100) {
            subscriptions.append(loader.load(url).asObservable().subscribe(first))
            subscriptions.append(loader.load(url).asObservable().subscribe(second))
        }
        scheduler.scheduleAt(110) { subscriptions[0].dispose() }
        scheduler.scheduleAt(120) {
            #expect(network.cancelledRequestCount == 0)
            subscriptions[1].dispose()
            #expect(network.cancelledRequestCount == 1)
            #expect(loader.inFlightCount == 0)
        }
        scheduler.scheduleAt(200) { _ = loader.load(url).asObservable().subscribe(later) }
        scheduler.start()
        #expect(first.events.isEmpty)
        #expect(second.events.isEmpty)
        #expect(later.events == [.next(250, FakeImage(text: "A")), .completed(250)])
        #expect(network.requestCount(for: "/a.png") == 2)
    }

    @Test func failuresReachEveryAskerAndAreNotCached() {
        let scheduler = TestScheduler(initialClock: 0)
        let network = FixtureNetwork(scheduler: scheduler, routes: [
            "/gone.png": .status(404, delay: .seconds(5)),
            "/bad.png": .data(Data("garbage".utf8), delay: .seconds(5)),
        ])
        let loader = makeLoader(network)
        let gone = base.appendingPathComponent("gone.png")
        let bad = base.appendingPathComponent("bad.png")
        let goneA = scheduler.createObserver(FakeImage.self)
        let goneB = scheduler.createObserver(FakeImage.self)
        let badA = scheduler.createObserver(FakeImage.self)
        scheduler.scheduleAt(100) {
            _ = loader.load(gone).asObservable().subscribe(goneA)
            _ = loader.load(gone).asObservable().subscribe(goneB)
            _ = loader.load(bad).asObservable().subscribe(badA)
        }
        scheduler.start()
        #expect(goneA.events == [.error(105, NetworkError.badStatus(code: 404, body: Data()))])
        #expect(goneB.events == goneA.events)
        #expect(badA.events.count == 1)
        if case .couldNotDecode(let url, let underlying)? = badA.events.first?.value.error as? ImageLoaderError {
            #expect(url == bad)
            #expect(underlying as? FakeDecodeError == .notAnImage)
        } else {
            Issue.record("expected ImageLoaderError.couldNotDecode, got \(badA.events)")
        }
        #expect(loader.cached(for: gone) == nil)
        #expect(loader.cached(for: bad) == nil)
        #expect(loader.memoryCount == 0)
    }

    @Test func memoryCacheRespectsTheCostLimit() {
        let scheduler = TestScheduler(initialClock: 0)
        let network = FixtureNetwork(scheduler: scheduler, routes: [
            "/1": .json("1111"), "/2": .json("2222"), "/3": .json("3333"),
        ])
        let loader = makeLoader(network, costLimit: 10)
        let urls = ["1", "2", "3"].map { base.appendingPathComponent($0) }
        let sink = scheduler.createObserver(FakeImage.self)
        for (index, url) in urls.enumerated() {
            scheduler.scheduleAt(100 + index * 10) { _ = loader.load(url).asObservable().subscribe(sink) }
        }
        scheduler.start()
        #expect(sink.events.compactMap(\.value.element) == ["1111", "2222", "3333"].map(FakeImage.init(text:)))
        #expect(loader.memoryCount == 2)
        #expect(loader.memoryCost == 8)
        #expect(loader.cached(for: urls[0]) == nil)      // evicted, and there is no disk cache
        #expect(loader.cached(for: urls[2]) == FakeImage(text: "3333"))
    }

    @Test func diskCacheServesANewLoaderWithoutTheNetwork() throws {
        let root = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let directory = root.appendingPathComponent("images", isDirectory: true)
        let scheduler = TestScheduler(initialClock: 0)
        let network = FixtureNetwork(scheduler: scheduler, routes: ["/a.png": .data(Data("A".utf8))])
        let url = base.appendingPathComponent("a.png")
        let warm = makeLoader(network, directory: directory)
        let first = scheduler.createObserver(FakeImage.self)
        scheduler.scheduleAt(100) { _ = warm.load(url).asObservable().subscribe(first) }
        scheduler.start()
        #expect(first.events == [.next(101, FakeImage(text: "A")), .completed(101)])

        network.isOffline = true
        let cold = makeLoader(network, directory: directory)
        #expect(cold.cached(for: url) == FakeImage(text: "A"))
        let another = makeLoader(network, directory: directory)
        let second = scheduler.createObserver(FakeImage.self)
        scheduler.scheduleAt(200) { _ = another.load(url).asObservable().subscribe(second) }
        scheduler.start()
        #expect(second.events == [.next(200, FakeImage(text: "A")), .completed(200)])
        #expect(network.totalRequestCount == 1)

        another.removeAll()
        #expect(another.cached(for: url) == nil)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).isEmpty)
    }

    @Test func cacheFileNamesAreHashesWhateverTheURL() throws {
        let root = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: root) }
        let directory = root.appendingPathComponent("images", isDirectory: true)
        let scheduler = TestScheduler(initialClock: 0)
        let strings = [
            "https://img.example.com/../../../../etc/passwd",
            "https://img.example.com/a/%2E%2E/%2E%2E/escape.png",
            "https://img.example.com/..%2F..%2Fescape.png",
            "https://img.example.com/with%20space/%00nul.png?x=../y&z=/",
            "https://img.example.com/%C3%A9t%C3%A9/%F0%9F%8D%95.png#frag/../..",
            "file:///tmp/../../root/.ssh/id_rsa",
            "https://img.example.com/" + String(repeating: "long/", count: 200) + "a.png",
        ]
        let urls = strings.map { URL(string: $0)! }
        var routes: [String: FixtureNetwork.Route] = [:]
        for url in urls { routes[url.path] = .data(Data("image of \(url.absoluteString)".utf8)) }
        let network = FixtureNetwork(scheduler: scheduler, routes: routes)
        let loader = makeLoader(network, costLimit: 0, directory: directory)
        let sink = scheduler.createObserver(FakeImage.self)
        scheduler.scheduleAt(100) { for url in urls { _ = loader.load(url).asObservable().subscribe(sink) } }
        scheduler.start()
        #expect(sink.events.compactMap(\.value.element).count == urls.count)

        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        let expected = urls.map { SHA256.hex($0.absoluteString) }
        #expect(names == Set(expected).sorted())
        #expect(names.allSatisfy { $0.count == 64 && $0.allSatisfy { "0123456789abcdef".contains($0) } })
        #expect(try FileManager.default.contentsOfDirectory(atPath: root.path) == ["images"])
        for url in urls {
            #expect(loader.cached(for: url) == FakeImage(text: "image of \(url.absoluteString)"))
        }
    }

    @Test func hundredAskersFromSeveralThreadsMakeOneRequest() {
        let network = FixtureNetwork(scheduler: MainScheduler.instance, routes: ["/a.png": .data(Data("A".utf8))])
        let loader = makeLoader(network)
        let url = base.appendingPathComponent("a.png")
        let recorders = (0..<100).map { _ in EventRecorder<FakeImage>() }
        let subscriptions = Locked<[Disposable]>([])
        DispatchQueue.concurrentPerform(iterations: 100) { index in
            let subscription = loader.load(url).asObservable().subscribe(recorders[index])
            subscriptions.withLock { $0.append(subscription) }
        }
        #expect(network.requestCount(for: "/a.png") == 1)
        let done = MainScheduler.run(until: { recorders.allSatisfy { $0.events.last?.isStopEvent ?? false } }, timeout: 30)
        #expect(done)
        #expect(recorders.allSatisfy { $0.events == [.next(FakeImage(text: "A")), .completed] })
        #expect(network.requestCount(for: "/a.png") == 1)
        subscriptions.withLock { $0.forEach { $0.dispose() } }
    }

    @Test func askersLeavingFromSeveralThreadsDoNotDisturbTheOthers() {
        let network = FixtureNetwork(scheduler: MainScheduler.instance, routes: ["/a.png": .data(Data("A".utf8))])
        let loader = makeLoader(network)
        let url = base.appendingPathComponent("a.png")
        let recorders = (0..<100).map { _ in EventRecorder<FakeImage>() }
        let subscriptions = Locked<[Int: Disposable]>([:])
        // The first asker stays for the whole test, so the fetch it started must serve everyone.
        subscriptions.withLock { $0[0] = loader.load(url).asObservable().subscribe(recorders[0]) }
        DispatchQueue.concurrentPerform(iterations: 99) { iteration in
            let index = iteration + 1
            let subscription = loader.load(url).asObservable().subscribe(recorders[index])
            if index % 2 == 1 {
                subscription.dispose()
            } else {
                subscriptions.withLock { $0[index] = subscription }
            }
        }
        let stayers = recorders.indices.filter { $0 % 2 == 0 }
        let done = MainScheduler.run(until: { stayers.allSatisfy { recorders[$0].events.last?.isStopEvent ?? false } }, timeout: 30)
        #expect(done)
        for (index, recorder) in recorders.enumerated() {
            if index % 2 == 0 {
                #expect(recorder.events == [.next(FakeImage(text: "A")), .completed])
            } else {
                #expect(recorder.events.isEmpty)
            }
        }
        #expect(network.requestCount(for: "/a.png") == 1)
        #expect(network.cancelledRequestCount == 0)
        subscriptions.withLock { $0.values.forEach { $0.dispose() } }
    }


    @Test func allAskersFromSeveralThreadsLeavingCancelsTheOneRequest() {
        let network = FixtureNetwork(scheduler: MainScheduler.asyncInstance, routes: ["/a.png": .data(Data("A".utf8))])
        let loader = makeLoader(network)
        let url = base.appendingPathComponent("a.png")
        let recorders = (0..<100).map { _ in EventRecorder<FakeImage>() }
        let subscriptions = Locked<[Disposable]>([])
        DispatchQueue.concurrentPerform(iterations: 100) { index in
            let subscription = loader.load(url).asObservable().subscribe(recorders[index])
            subscriptions.withLock { $0.append(subscription) }
        }
        #expect(network.requestCount(for: "/a.png") == 1)
        let count = subscriptions.withLock { $0.count }
        DispatchQueue.concurrentPerform(iterations: count) { index in
            subscriptions.withLock { $0[index] }.dispose()
        }
        MainScheduler.drain()
        #expect(network.cancelledRequestCount == 1)
        #expect(loader.inFlightCount == 0)
        #expect(recorders.allSatisfy { $0.events.isEmpty })
    }

    @Test func concurrentAskersOverARealServerMakeOneRequest() throws {
        let server = try TestHTTPServer(routes: ["/img.png": .respondWhenReleased(status: 200, body: Data("real".utf8))])
        defer { server.stop() }
        let network = URLSessionNetwork(scheduler: ImmediateScheduler.instance)
        let loader = makeLoader(network)
        let url = server.url("/img.png")
        let recorders = (0..<20).map { _ in EventRecorder<FakeImage>() }
        let subscriptions = Locked<[Disposable]>([])
        defer { subscriptions.withLock { $0.forEach { $0.dispose() } } }
        DispatchQueue.concurrentPerform(iterations: recorders.count) { index in
            let subscription = loader.load(url).asObservable().subscribe(recorders[index])
            subscriptions.withLock { $0.append(subscription) }
        }
        #expect(server.wait { $0.requests == ["GET /img.png"] })
        server.release("/img.png")
        #expect(recorders.allSatisfy { $0.waitForTermination() })
        #expect(recorders.allSatisfy { $0.events == [.next(FakeImage(text: "real")), .completed] })
        #expect(loader.cached(for: url) == FakeImage(text: "real"))
        #expect(server.requests == ["GET /img.png"])
    }
}
