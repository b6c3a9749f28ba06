import Foundation
import Streams

/// Starts image loads for rows about to be shown, so their cells find the images cached.
///
/// Set it as a table's or collection view's `prefetchDataSource`; each announced row's URL is
/// loaded through the provider (which caches what it loads) and the load is cancelled when
/// the row leaves the prefetch window or becomes visible.
///
///     let prefetcher = ImagePrefetcher(provider: images) { indexPath in pizzas[indexPath.row].imageURL }
///     tableView.prefetchDataSource = prefetcher
///     tableView.prefetchDistance = 5
@MainActor
public final class ImagePrefetcher: TableViewDataSourcePrefetching, CollectionViewDataSourcePrefetching {
    private let provider: ImageProviding
    private let url: (IndexPath) -> URL?
    /// Read by `deinit`, which is not isolated; otherwise touched on the main actor only.
    nonisolated(unsafe) private var loads: [IndexPath: Disposable] = [:]

    /// Creates a prefetcher.
    ///
    /// - Parameters:
    ///   - provider: Loads and caches images.
    ///   - url: The image URL of a row, if it has one.
    public init(provider: ImageProviding, url: @escaping (IndexPath) -> URL?) {
        self.provider = provider
        self.url = url
    }

    deinit { loads.values.forEach { $0.dispose() } }

    /// The rows being prefetched.
    public var prefetchingIndexPaths: [IndexPath] { loads.keys.sorted() }

    /// Starts loads for rows whose images are not cached.
    public func tableView(_ tableView: TableView, prefetchRowsAt indexPaths: [IndexPath]) { start(indexPaths) }
    /// Cancels loads.
    public func tableView(_ tableView: TableView, cancelPrefetchingForRowsAt indexPaths: [IndexPath]) { cancel(indexPaths) }
    /// Starts loads for items whose images are not cached.
    public func collectionView(_ collectionView: CollectionView, prefetchItemsAt indexPaths: [IndexPath]) { start(indexPaths) }
    /// Cancels loads.
    public func collectionView(_ collectionView: CollectionView, cancelPrefetchingForItemsAt indexPaths: [IndexPath]) { cancel(indexPaths) }

    private func start(_ indexPaths: [IndexPath]) {
        for indexPath in indexPaths where loads[indexPath] == nil {
            guard let url = url(indexPath), provider.cachedImage(for: url) == nil else { continue }
            let subscription = SingleAssignmentDisposable()
            loads[indexPath] = subscription
            subscription.setDisposable(provider.loadImage(for: url).subscribe(onError: { _ in }))
        }
    }

    private func cancel(_ indexPaths: [IndexPath]) {
        for indexPath in indexPaths {
            loads.removeValue(forKey: indexPath)?.dispose()
        }
    }
}
