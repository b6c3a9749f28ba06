import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Streams
import Locking

/// Downloads and decodes images by URL, with a memory cache, a disk cache, and one request
/// for any number of concurrent askers of the same URL.
///
/// The loader is generic over the decoded type, so that each UI layer plugs in its own image
/// type:
///
///     let loader = ImageLoader<Image>(
///         network: network,
///         memoryCostLimit: 50 * 1024 * 1024,
///         diskDirectory: cachesURL.appendingPathComponent("images"),
///         decode: { try Image(data: $0) },
///         cost: { $0.byteCount })
///     loader.load(url).subscribe(onSuccess: { cell.imageView.image = $0 })
///
/// A lookup goes memory → disk → network. The memory cache keeps the most recently used
/// images up to `memoryCostLimit` (the sum of `cost` of the images kept). The disk cache
/// stores the downloaded bytes in `diskDirectory`, each file named by the SHA-256 of the URL,
/// so no part of a URL ever reaches the file system.
///
/// Askers of a URL that is already being fetched join that fetch: one request serves them
/// all. Disposing one asker leaves the others untouched. When the last asker of a fetch
/// leaves (a cell reused for another row), the download goes on and finishes into the caches,
/// and the next asker of that URL joins it: a table scrolled down, up and down again costs one
/// request per distinct image as long as the images fit in the memory cache. Pass
/// `finishesAbandonedDownloads: false` to cancel the request instead. Downloads still running
/// when the loader itself is deallocated are cancelled. The loader is safe to use from any
/// thread.
///
/// Threads: a memory hit is delivered synchronously; the disk is read on the thread of the
/// asker that starts a fetch; downloads are decoded, written to disk and delivered on the
/// network's delivery scheduler.
public final class ImageLoader<Decoded>: @unchecked Sendable {
    private final class Flight {
        var observers: [UInt64: (SingleEvent<Decoded>) -> Void] = [:]
        let subscription = SingleAssignmentDisposable()
    }

    private struct State {
        var memory: MemoryCache<URL, Decoded>
        var flights: [URL: Flight] = [:]
        var nextKey: UInt64 = 0
    }

    private enum Ask {
        case hit(Decoded)
        case joined(Flight, UInt64)
        case started(Flight, UInt64)
    }

    private let network: Network
    private let disk: DiskCache?
    private let decode: (Data) throws -> Decoded
    private let cost: (Decoded) -> Int
    private let state: Locked<State>
    /// Whether a download whose askers all left goes on into the caches (else it is cancelled).
    public let finishesAbandonedDownloads: Bool

    /// Creates a loader.
    ///
    /// - Parameters:
    ///   - network: Where images are downloaded from; results are delivered on its scheduler.
    ///   - memoryCostLimit: The largest total `cost` kept in memory; 64 MiB by default.
    ///   - diskDirectory: Where downloaded bytes are kept between runs; `nil` for no disk cache.
    ///   - decode: Turns downloaded bytes into an image; a thrown error fails the load with
    ///     ``ImageLoaderError/couldNotDecode(url:underlying:)``.
    ///   - cost: The memory cost of an image, usually its size in bytes.
    ///   - finishesAbandonedDownloads: When every asker of a download has left, let it finish
    ///     into the caches for the next asker (`true`, the default) or cancel it (`false`).
    public init(
        network: Network,
        memoryCostLimit: Int = 64 * 1024 * 1024,
        diskDirectory: URL? = nil,
        decode: @escaping (Data) throws -> Decoded,
        cost: @escaping (Decoded) -> Int,
        finishesAbandonedDownloads: Bool = true
    ) {
        self.finishesAbandonedDownloads = finishesAbandonedDownloads
        self.network = network
        self.disk = diskDirectory.map(DiskCache.init(directory:))
        self.decode = decode
        self.cost = cost
        self.state = Locked(State(memory: MemoryCache(costLimit: memoryCostLimit)))
    }

    deinit {
        let flights = state.withLock { state -> [Flight] in
            defer { state.flights = [:] }
            return Array(state.flights.values)
        }
        for flight in flights { flight.subscription.dispose() }
    }

    /// The image for `url`: from memory at once, otherwise from disk or the network.
    ///
    ///     in memory:     (image|)         (synchronously, on subscription)
    ///     otherwise:     -----image|      (delivered on the network's scheduler)
    ///     failure:       -----x           (NetworkError or ImageLoaderError)
    ///
    /// Concurrent askers of one URL share one request; disposing one of them does not
    /// disturb the others. Disposing all of them lets the download finish into the caches
    /// (or cancels it, with `finishesAbandonedDownloads: false`).
    ///
    /// - Parameter url: The image's address.
    /// - Returns: A single that succeeds with the image or fails.
    public func load(_ url: URL) -> Single<Decoded> {
        Single.create { [self] observer in
            let ask = state.withLock { state -> Ask in
                if let image = state.memory.value(for: url) { return .hit(image) }
                let key = state.nextKey
                state.nextKey &+= 1
                if let flight = state.flights[url] {
                    flight.observers[key] = observer
                    return .joined(flight, key)
                }
                let flight = Flight()
                flight.observers[key] = observer
                state.flights[url] = flight
                return .started(flight, key)
            }
            switch ask {
            case .hit(let image):
                observer(.success(image))
                return Disposables.create()
            case .joined(let flight, let key):
                return Disposables.create { self.leave(flight, key: key, url: url) }
            case .started(let flight, let key):
                start(flight, url: url)
                return Disposables.create { self.leave(flight, key: key, url: url) }
            }
        }
    }

    /// The image for `url` if it is in memory or on disk, without touching the network.
    ///
    /// A disk hit is decoded and kept in memory.
    ///
    /// - Parameter url: The image's address.
    /// - Returns: The image, or `nil`.
    public func cached(for url: URL) -> Decoded? {
        if let image = state.withLock({ $0.memory.value(for: url) }) { return image }
        guard let data = disk?.data(for: url), let image = try? decode(data) else { return nil }
        let imageCost = cost(image)
        state.withLock { $0.memory.insert(image, cost: imageCost, for: url) }
        return image
    }

    /// Empties the memory cache (the disk cache stays).
    public func removeAllFromMemory() {
        state.withLock { $0.memory.removeAll() }
    }

    /// Empties the memory and the disk cache.
    public func removeAll() {
        removeAllFromMemory()
        disk?.removeAll()
    }

    /// The number of images in memory.
    public var memoryCount: Int { state.withLock { $0.memory.count } }

    /// The total cost of the images in memory.
    public var memoryCost: Int { state.withLock { $0.memory.totalCost } }

    /// The number of URLs being fetched right now.
    public var inFlightCount: Int { state.withLock { $0.flights.count } }

    // MARK: - Machinery

    private func start(_ flight: Flight, url: URL) {
        if let data = disk?.data(for: url), let image = try? decode(data) {
            finish(flight, url: url, result: .success((image, cost(image))))
            return
        }
        // Weak: a loader that is gone (its screen closed) cancels its downloads in `deinit`.
        let subscription = network.fetch(url: url).subscribe(
            onSuccess: { [weak self] data in self?.received(data, flight: flight, url: url) },
            onFailure: { [weak self] error in self?.finish(flight, url: url, result: .failure(error)) }
        )
        flight.subscription.setDisposable(subscription)
    }

    private func received(_ data: Data, flight: Flight, url: URL) {
        let image: Decoded
        do {
            image = try decode(data)
        } catch {
            finish(flight, url: url, result: .failure(ImageLoaderError.couldNotDecode(url: url, underlying: error)))
            return
        }
        disk?.store(data, for: url)
        finish(flight, url: url, result: .success((image, cost(image))))
    }

    private func finish(_ flight: Flight, url: URL, result: Result<(Decoded, Int), Error>) {
        let observers = state.withLock { state -> [(key: UInt64, value: (SingleEvent<Decoded>) -> Void)] in
            if state.flights[url] === flight { state.flights[url] = nil }
            if case .success(let (image, imageCost)) = result {
                state.memory.insert(image, cost: imageCost, for: url)
            }
            let observers = flight.observers.sorted { $0.key < $1.key }
            flight.observers = [:]
            return observers
        }
        let outcome = result.map { $0.0 }
        for (_, observer) in observers { observer(outcome) }
    }

    private func leave(_ flight: Flight, key: UInt64, url: URL) {
        let finishes = finishesAbandonedDownloads
        let cancel = state.withLock { state -> Bool in
            guard flight.observers.removeValue(forKey: key) != nil, flight.observers.isEmpty, !finishes else { return false }
            if state.flights[url] === flight { state.flights[url] = nil }
            return true
        }
        if cancel { flight.subscription.dispose() }
    }
}

/// Why an ``ImageLoader`` produced no image (network failures arrive as ``NetworkError``).
public enum ImageLoaderError: Error, Sendable, CustomStringConvertible {
    /// The downloaded bytes of `url` could not be decoded; `underlying` is the decoder's error.
    case couldNotDecode(url: URL, underlying: Error)

    /// A short description naming the URL.
    public var description: String {
        switch self {
        case .couldNotDecode(let url, let underlying): return "ImageLoaderError.couldNotDecode(\(url.absoluteString), \(underlying))"
        }
    }
}
