import Streams

/// A spinner showing that work is in progress.
open class ActivityIndicator: View {
    /// Whether the spinner turns.
    public private(set) var isAnimating = false
    /// Whether the spinner is hidden while stopped (UIKit's default is `true`).
    public var hidesWhenStopped = true

    /// Creates a stopped spinner.
    public override init() { super.init() }

    /// Starts the spinner.
    public func startAnimating() { isAnimating = true }
    /// Stops the spinner.
    public func stopAnimating() { isAnimating = false }

    /// `ActivityIndicator (animating)`; nothing when stopped and hidden when stopped.
    open override var renderDescription: String {
        "\(typeName) (\(isAnimating ? "animating" : "stopped"))\(accessibilitySuffix)"
    }

    override func renderLines(into lines: inout [String], depth: Int) {
        if !isAnimating && hidesWhenStopped { return }
        super.renderLines(into: &lines, depth: depth)
    }
}

extension Reactive where Base: ActivityIndicator {
    /// Binds whether the spinner turns.
    public var isAnimating: Binder<Bool> {
        Binder(base) { indicator, animating in
            if animating { indicator.startAnimating() } else { indicator.stopAnimating() }
        }
    }
}
