import Foundation
import Streams

/// Shows an ``Image``; renders as the image's description, e.g. `ImageView [image pepperoni 64×64]`.
///
/// For images loaded from a URL (cells), see ``load(_:from:placeholder:)``.
@MainActor
open class ImageView: View {
    /// The image shown, or `nil`.
    public var image: Image?

    /// The URL whose image this view is waiting for or showing, when loaded with
    /// ``load(_:from:placeholder:)``.
    public internal(set) var imageURL: URL?

    let loading = SerialDisposable()
    var loadGeneration = 0
    /// Where the load of ``imageURL`` stands, so that asking for the same URL again while it
    /// loads or once it is shown does nothing.
    var loadPhase = ImageLoadPhase.idle

    /// Creates an image view.
    ///
    /// - Parameter image: The initial image.
    public init(image: Image? = nil) {
        self.image = image
        super.init()
    }

    deinit { loading.dispose() }

    /// `ImageView [image name W×H]`, or `ImageView (empty)`.
    open override var renderDescription: String {
        "\(typeName) \(image.map { "\($0)" } ?? "(empty)")\(accessibilitySuffix)"
    }
}

@MainActor
extension Reactive where Base: ImageView {
    /// Binds the image.
    public var image: Binder<Image?> { Binder(base) { $0.image = $1 } }
}

/// Where an ``ImageView``'s load of its ``ImageView/imageURL`` stands.
enum ImageLoadPhase {
    /// No load: nothing asked, the load was cancelled, or it failed.
    case idle
    /// The image is being loaded.
    case loading
    /// The image of ``ImageView/imageURL`` is shown.
    case shown
}
