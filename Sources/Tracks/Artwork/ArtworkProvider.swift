import Foundation
import HeadlessUI
import MVVM
import Repository
import Streams
import Locking

/// The images of the Tracks table: PNG artwork through an ``ImageLoader`` (memory cache, one
/// request per URL for concurrent askers), which also remembers the URLs that failed.
///
///     let artwork = ArtworkProvider(network: network)
///     imageView.load(row.artworkURL, from: artwork, placeholder: TrackCell.placeholder)
///
/// A failed URL fails again at once, without a request, until ``forgetFailures()``: scrolling
/// back and forth over a broken artwork costs one request, not one per appearance (the
/// default of image libraries such as SDWebImage, which retry failed URLs only when asked).
/// Safe to use from any thread.
public final class ArtworkProvider: ImageProviding, @unchecked Sendable {
    /// The loader behind the provider.
    public let loader: ImageLoader<Image>

    private let lock = Lock()
    private var failures: [URL: Error] = [:]

    /// Creates a provider over `loader`.
    ///
    /// - Parameter loader: Loads and caches decoded images.
    public init(loader: ImageLoader<Image>) {
        self.loader = loader
    }

    /// Creates a provider of PNG artwork fetched through `network`.
    ///
    /// - Parameter network: Where artwork is downloaded from.
    public convenience init(network: Network) {
        self.init(loader: ImageLoader.png(network: network))
    }

    /// The image for `url` if the loader has it in memory.
    ///
    /// - Parameter url: The artwork's address.
    /// - Returns: The image, named after the URL's file, or `nil`.
    public func cachedImage(for url: URL) -> Image? {
        loader.cachedImage(for: url)
    }

    /// Loads the artwork at `url`; a URL that failed before fails again at once.
    ///
    ///     first time:         -----image|     or  -----x(error)
    ///     after a failure:    x(same error)        (no request)
    ///
    /// - Parameter url: The artwork's address.
    /// - Returns: The image then completion, or the loader's error.
    public func loadImage(for url: URL) -> Observable<Image> {
        if let failure = failure(for: url) { return Observable.error(failure) }
        return loader.loadImage(for: url).do(onError: { [weak self] error in
            guard let self else { return }
            self.lock.withLock { self.failures[url] = error }
        })
    }

    /// The error the last load of `url` failed with, if it did.
    ///
    /// - Parameter url: The artwork's address.
    /// - Returns: The error, or `nil`.
    public func failure(for url: URL) -> Error? {
        lock.withLock { failures[url] }
    }

    /// How many URLs are remembered as failed.
    public var failureCount: Int { lock.withLock { failures.count } }

    /// Forgets every failure, so the next load of those URLs asks the network again.
    public func forgetFailures() {
        lock.withLock { failures.removeAll() }
    }
}

/// A short human phrase for an artwork failure, as the cell's error line shows it.
///
/// - Parameter error: A ``NetworkError``, an ``ImageLoaderError`` or another error.
/// - Returns: E.g. `HTTP 404`, `not an image`, `timed out`.
func describeArtworkFailure(_ error: Error) -> String {
    switch error {
    case let error as NetworkError:
        switch error {
        case .badStatus(let code, _): return "HTTP \(code)"
        case .timedOut: return "timed out"
        case .unreachable: return "unreachable"
        case .connectionLost: return "connection lost"
        case .emptyBody: return "empty answer"
        case .tooLarge: return "too large"
        case .cancelled: return "cancelled"
        }
    case is ImageLoaderError:
        return "not an image"
    default:
        return "\(error)"
    }
}
