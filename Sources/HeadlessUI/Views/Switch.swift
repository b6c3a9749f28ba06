import Streams

/// An on/off switch; ``toggle()`` simulates the user.
open class Switch: Control {
    /// Whether the switch is on.
    public var isOn: Bool

    /// Creates a switch.
    ///
    /// - Parameter isOn: The initial state.
    public init(isOn: Bool = false) {
        self.isOn = isOn
        super.init()
    }

    /// Sets the state in code (no event, as UIKit).
    ///
    /// - Parameters:
    ///   - on: The new state.
    ///   - animated: Ignored.
    public func setOn(_ on: Bool, animated: Bool = false) { isOn = on }

    /// Simulates the user flipping the switch: `.valueChanged`.
    ///
    /// - Returns: `true` when the switch accepted the input.
    @discardableResult
    public func toggle() -> Bool {
        guard acceptsInput else { return false }
        isOn.toggle()
        sendActions(for: .valueChanged)
        return true
    }

    /// `Switch on` / `Switch off`.
    open override var renderDescription: String {
        "\(typeName) \(isOn ? "on" : "off")\(stateSuffix)\(accessibilitySuffix)"
    }
}

extension Reactive where Base: Switch {
    /// The state, two-way: the current state then each user change.
    public var isOn: ControlProperty<Bool> { value }

    /// The state, two-way (RxCocoa's `value`).
    public var value: ControlProperty<Bool> {
        controlProperty(editingEvents: .valueChanged, getter: { $0.isOn }, setter: { $0.isOn = $1 })
    }
}

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

/// A progress bar.
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

extension Reactive where Base: ProgressView {
    /// Binds the progress.
    public var progress: Binder<Float> { Binder(base) { $0.progress = $1 } }
}
