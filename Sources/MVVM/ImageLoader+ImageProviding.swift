import Foundation
import HeadlessUI
import Repository
import Streams

extension ImageLoader: ImageProviding where Decoded == Image {
    /// The decoded image for `url` if it is in the loader's memory cache.
    ///
    /// - Parameter url: The image's address.
    /// - Returns: The cached image, or `nil`.
    public func cachedImage(for url: URL) -> Image? {
        cached(for: url).map { Self.named($0, for: url) }
    }

    /// Loads the image for `url` through the loader (memory, disk, then network; one request
    /// for concurrent askers).
    ///
    /// - Parameter url: The image's address.
    /// - Returns: One image then completion, or the loader's error.
    public func loadImage(for url: URL) -> Observable<Image> {
        load(url).asObservable().map { Self.named($0, for: url) }
    }

    /// Names an unnamed image after its URL's file name, without extension.
    static func named(_ image: Image, for url: URL) -> Image {
        image.name.isEmpty ? image.named(url.deletingPathExtension().lastPathComponent) : image
    }
}

extension ImageLoader where Decoded == Image {
    /// A loader of PNG images. Images it provides are named after their URL's file name
    /// (without extension), so rendered screens read `[image margherita 64×64]`.
    ///
    ///     let images = ImageLoader.png(network: network)
    ///     imageView.load(url, from: images, placeholder: placeholder)
    ///
    /// - Parameters:
    ///   - network: Where images are downloaded from.
    ///   - memoryCostLimit: The largest total size in bytes of decoded images kept in memory.
    ///   - diskDirectory: Where downloaded bytes are kept between runs; `nil` for none.
    /// - Returns: The loader.
    public static func png(network: Network, memoryCostLimit: Int = 64 * 1024 * 1024, diskDirectory: URL? = nil) -> ImageLoader<Image> {
        ImageLoader(
            network: network,
            memoryCostLimit: memoryCostLimit,
            diskDirectory: diskDirectory,
            decode: { try Image(pngData: $0) },
            cost: { $0.pixels.count }
        )
    }
}
