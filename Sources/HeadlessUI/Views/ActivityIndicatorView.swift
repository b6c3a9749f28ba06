import Streams

/// A spinner showing that work is in progress (UIKit's `UIActivityIndicatorView`).
///
/// It is not called `ActivityIndicator`: that is the name of the class in RxSwift's example
/// app that counts running work as a `Driver<Bool>`, which many apps copy. A copy in the
/// app's own module would shadow an imported type of that name, but a copy in another module
/// of the app (a shared helpers module) imported beside HeadlessUI would make
/// `ActivityIndicator()` ambiguous; for the same reason there is no deprecated alias.
///
///     let spinner = ActivityIndicatorView()
///     activity.asDriver().drive(spinner.rx.isAnimating)
@MainActor
open class ActivityIndicatorView: View {
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

    /// `ActivityIndicatorView (animating)`; nothing when stopped and hidden when stopped.
    open override var renderDescription: String {
        "\(typeName) (\(isAnimating ? "animating" : "stopped"))\(accessibilitySuffix)"
    }

    override func renderLines(into lines: inout [String], depth: Int) {
        if !isAnimating && hidesWhenStopped { return }
        super.renderLines(into: &lines, depth: depth)
    }
}

@MainActor
extension Reactive where Base: ActivityIndicatorView {
    /// Binds whether the spinner turns.
    public var isAnimating: Binder<Bool> {
        Binder(base) { indicator, animating in
            if animating { indicator.startAnimating() } else { indicator.stopAnimating() }
        }
    }
}
