import Streams

/// A progress bar.
@MainActor
open class ProgressView: View {
    /// The progress, from 0 to 1 (clamped).
    public var progress: Float = 0 {
        didSet { progress = min(max(progress, 0), 1) }
    }

    /// Creates an empty progress bar.
    public override init() { super.init() }

    /// `ProgressView 40%`.
    open override var renderDescription: String {
        "\(typeName) \(Int((progress * 100).rounded()))%\(accessibilitySuffix)"
    }
}

@MainActor
extension Reactive where Base: ProgressView {
    /// Binds the progress.
    public var progress: Binder<Float> { Binder(base) { $0.progress = $1 } }
}
