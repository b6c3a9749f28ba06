import Foundation
import Streams

/// Where images for URLs come from: a memory cache read synchronously and a loader that
/// fetches and decodes off the main scheduler.
///
/// `Repository`'s image loader is adapted to this protocol; tests use a fake that answers
/// in a chosen order.
public protocol ImageProviding: AnyObject {
    /// The image for `url` if it is already in memory; called on the main scheduler, so it
    /// must be fast.
    ///
    /// - Parameter url: The image's address.
    /// - Returns: The cached image, or `nil`.
    func cachedImage(for url: URL) -> Image?

    /// Loads the image for `url`: one element then completion, or an error. The work runs
    /// off the main scheduler; disposing the subscription cancels it.
    ///
    /// - Parameter url: The image's address.
    /// - Returns: A cold sequence of the image.
    func loadImage(for url: URL) -> Observable<Image>
}

extension ImageView {
    /// Shows the image at `url`: at once if `provider` has it cached, otherwise `placeholder`
    /// until the load finishes.
    ///
    /// Asking again for the URL the view is already loading or showing does nothing: the load
    /// goes on, it is not restarted (a table reloaded while images load costs no new request).
    ///
    /// The rule for cells: a load started here is cancelled by the next call for another URL, by
    /// ``cancelImageLoad()`` (which ``ReusableCell/prepareForReuse()`` calls) and when the view
    /// is deallocated; a late result for a cancelled load is dropped, so an image never lands
    /// in a cell that has moved on to another row. A failed load leaves the placeholder.
    /// Results arrive on `MainScheduler.instance`.
    ///
    /// - Parameters:
    ///   - url: The image's address; `nil` shows the placeholder.
    ///   - provider: The cache and loader.
    ///   - placeholder: Shown until the image arrives (and if it fails).
    public func load(_ url: URL?, from provider: ImageProviding, placeholder: Image? = nil) {
        if let url, url == imageURL, loadPhase != .idle { return }
        cancelImageLoad()
        imageURL = url
        guard let url else {
            image = placeholder
            return
        }
        if let cached = provider.cachedImage(for: url) {
            image = cached
            loadPhase = .shown
            return
        }
        image = placeholder
        loadPhase = .loading
        let generation = loadGeneration
        let subscription = SingleAssignmentDisposable()
        loading.disposable = subscription
        let source = provider.loadImage(for: url)
        subscription.setDisposable(source.subscribe(
            onNext: { [weak self] loaded in
                _ = MainScheduler.instance.schedule(loaded) { loaded in
                    if let self, self.loadGeneration == generation, self.imageURL == url {
                        self.image = loaded
                        self.loadPhase = .shown
                    }
                    return Disposables.create()
                }
            },
            onError: { [weak self] _ in
                _ = MainScheduler.instance.schedule(()) { _ in
                    if let self, self.loadGeneration == generation { self.loadPhase = .idle }
                    return Disposables.create()
                }
            }
        ))
    }

    /// Cancels the load started by ``load(_:from:placeholder:)``, if any; its result, even
    /// one already queued for the main scheduler, is dropped.
    public func cancelImageLoad() {
        loadGeneration &+= 1
        loadPhase = .idle
        loading.disposable = Disposables.create()
    }
}
