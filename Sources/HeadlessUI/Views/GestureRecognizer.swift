import Streams

/// Recognises a gesture on the view it is attached to (UIKit's `UIGestureRecognizer`); its
/// `rx.event` sends the recognizer each time the gesture is recognised.
///
/// Attach one with ``View/addGestureRecognizer(_:)``; a test fires it with the subclass's
/// simulation method, such as ``TapGestureRecognizer/tap()``.
@MainActor
open class GestureRecognizer: ReactiveCompatible {
    /// Where a recognizer is in recognising its gesture (UIKit's `UIGestureRecognizer.State`).
    public enum State: Sendable, Equatable {
        /// Waiting for the gesture.
        case possible
        /// A continuous gesture started.
        case began
        /// A continuous gesture changed.
        case changed
        /// The gesture ended; for a discrete gesture, it was recognised.
        case ended
        /// The gesture was cancelled.
        case cancelled
        /// The gesture could not be recognised.
        case failed

        /// A discrete gesture was recognised: the same as ``ended``.
        public static var recognized: State { .ended }
    }

    /// The view the recognizer is attached to.
    public internal(set) weak var view: View?
    /// The recognizer's state; ``State/possible`` between gestures.
    public internal(set) var state: State = .possible
    /// Whether the recognizer reacts to gestures; a disabled one ignores simulated input.
    public var isEnabled = true

    let recognized = PublishSubject<Void>()

    /// Creates a recognizer, attached to no view.
    public init() {}

    deinit { recognized.onCompleted() }

    /// Recognises the gesture now, if the recognizer is enabled and its view is visible and
    /// interactive: the state becomes `state` while `rx.event` observers run, then
    /// ``State/possible`` again.
    ///
    /// - Parameter state: The state observers see.
    /// - Returns: `true` when the gesture was recognised.
    @discardableResult
    func recognize(as state: State) -> Bool {
        guard isEnabled, let view, view.isInteractive else { return false }
        self.state = state
        recognized.onNext(())
        self.state = .possible
        return true
    }
}

/// Recognises taps (UIKit's `UITapGestureRecognizer`).
///
///     let tap = TapGestureRecognizer()
///     view.addGestureRecognizer(tap)
///     tap.rx.event.subscribe(onNext: { _ in view.endEditing(true) })
///     tap.tap()                            // a test taps the view
@MainActor
open class TapGestureRecognizer: GestureRecognizer {
    /// How many taps make the gesture (only recorded; ``tap()`` is one whole gesture).
    public var numberOfTapsRequired = 1
    /// How many fingers make the gesture (only recorded).
    public var numberOfTouchesRequired = 1

    /// Creates a tap recognizer, attached to no view.
    public override init() { super.init() }

    /// Simulates the tap gesture on the view: `rx.event` sends the recognizer, with ``GestureRecognizer/state``
    /// ``GestureRecognizer/State/ended``.
    ///
    /// - Returns: `true` when the tap was recognised (the recognizer is enabled and attached
    ///   to a visible, interactive view).
    @discardableResult
    public func tap() -> Bool {
        recognize(as: .ended)
    }
}

extension View {
    /// Attaches `recognizer` to this view, detaching it from its previous view.
    ///
    /// - Parameter recognizer: The recognizer.
    public func addGestureRecognizer(_ recognizer: GestureRecognizer) {
        recognizer.view?.removeGestureRecognizer(recognizer)
        attachedGestureRecognizers.append(recognizer)
        recognizer.view = self
    }

    /// Detaches `recognizer` from this view.
    ///
    /// - Parameter recognizer: The recognizer.
    public func removeGestureRecognizer(_ recognizer: GestureRecognizer) {
        attachedGestureRecognizers.removeAll { $0 === recognizer }
        if recognizer.view === self { recognizer.view = nil }
    }

    /// The recognizers attached to this view; `nil` when there are none, as in UIKit.
    public var gestureRecognizers: [GestureRecognizer]? {
        attachedGestureRecognizers.isEmpty ? nil : attachedGestureRecognizers
    }
}

@MainActor
extension Reactive where Base: GestureRecognizer {
    /// The recognizer, each time it recognises its gesture (RxCocoa's `rx.event`); completes
    /// when the recognizer is freed.
    ///
    ///     tap.tap(), tap.tap():  --r--r--
    public var event: ControlEvent<Base> {
        let recognizer = base
        return ControlEvent(events: recognizer.recognized.map { [unowned recognizer] in recognizer })
    }
}
