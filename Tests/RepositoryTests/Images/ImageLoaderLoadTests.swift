import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Repository
import Streams
import Testing
import TestSupport

/// Issue 9's image-pipeline load: many distinct URLs, each asked for by many cells from several
/// threads at once, must cost exactly one request per URL, and every asker must receive the
/// image of its own URL. The default run asks for 2,000 URLs × 100 askers (200,000 loads);
/// `REACTIVEMVVM_FULL_LOAD=1` runs the full 10,000 × 100 (a million loads).
@Suite(.resourceCheck) struct ImageLoaderLoadTests {
    static let urlCount = ProcessInfo.processInfo.environment["REACTIVEMVVM_FULL_LOAD"] == "1" ? 10_000 : 2_000
    static let askersPerURL = 100
    static let threads = 8

    /// A network that counts requests and holds every answer until `releaseAll()`, so that
    /// all the askers of a URL are waiting while its request is in flight.
    final class GatedNetwork: Network, @unchecked Sendable {
        private let lock = NSLock()
        private var pending: [(URL, Single<Data>.SingleObserver)] = []
        private var perURL: [URL: Int] = [:]

        func fetch(_ request: URLRequest) -> Single<Data> {
            let url = request.url!
            return Single.create { [self] observer in
                lock.withLock {
                    perURL[url, default: 0] += 1
                    pending.append((url, observer))
                }
                return Disposables.create()
            }
        }

        var requestCount: Int { lock.withLock { perURL.values.reduce(0, +) } }
        var mostRequestsForOneURL: Int { lock.withLock { perURL.values.max() ?? 0 } }

        /// Answers every pending request with its URL as the body, from several threads.
        func releaseAll() {
            let answers = UncheckedBox(lock.withLock { () -> [(URL, Single<Data>.SingleObserver)] in
                defer { pending.removeAll() }
                return pending
            })
            DispatchQueue.concurrentPerform(iterations: ImageLoaderLoadTests.threads) { part in
                for index in stride(from: part, to: answers.value.count, by: ImageLoaderLoadTests.threads) {
                    let (url, observer) = answers.value[index]
                    observer(.success(Data(url.absoluteString.utf8)))
                }
            }
        }
    }

    @Test func everyURLIsRequestedOnceWhateverTheNumberOfAskers() {
        let network = GatedNetwork()
        let loader = ImageLoader<String>(
            network: network,
            memoryCostLimit: .max,
            decode: { String(decoding: $0, as: UTF8.self) },
            cost: { $0.utf8.count })
        let urls = (0..<Self.urlCount).map { URL(string: "https://images.example.com/artwork/\($0).png?size=60")! }

        let delivered = ManagedCounter()
        let wrong = ManagedCounter()
        let bag = LockedDisposables()
        // Every thread asks for every URL `askersPerURL / threads` times, in its own order.
        let perThread = Self.askersPerURL / Self.threads
        let remainder = Self.askersPerURL % Self.threads
        DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
            var generator = SeededRandom(seed: UInt64(thread + 1))
            var order = Array(urls.indices)
            order.shuffle(using: &generator)
            let rounds = perThread + (thread < remainder ? 1 : 0)
            var subscriptions: [Disposable] = []
            subscriptions.reserveCapacity(order.count * rounds)
            for _ in 0..<rounds {
                for index in order {
                    let url = urls[index]
                    subscriptions.append(loader.load(url).subscribe(onSuccess: { image in
                        if image == url.absoluteString { delivered.increment() } else { wrong.increment() }
                    }))
                }
            }
            bag.append(subscriptions)
        }
        #expect(loader.inFlightCount == Self.urlCount)
        network.releaseAll()

        #expect(delivered.value == Self.urlCount * Self.askersPerURL)
        #expect(wrong.value == 0)
        #expect(network.requestCount == Self.urlCount)
        #expect(network.mostRequestsForOneURL == 1)
        #expect(loader.inFlightCount == 0)
        #expect(loader.memoryCount == Self.urlCount)

        // Asked again after the answers: all from memory, no new request.
        for url in urls.prefix(100) { _ = loader.load(url).subscribe(onSuccess: { _ in delivered.increment() }) }
        #expect(delivered.value == Self.urlCount * Self.askersPerURL + 100)
        #expect(network.requestCount == Self.urlCount)
        bag.disposeAll()
    }
}

/// Hands a value that is only read to other threads.
struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// A thread-safe counter.
final class ManagedCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func increment() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}

/// Subscriptions collected from several threads, disposed at the end.
final class LockedDisposables: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [Disposable] = []
    func append(_ more: [Disposable]) { lock.withLock { items.append(contentsOf: more) } }
    func disposeAll() { lock.withLock { items }.forEach { $0.dispose() } }
}

