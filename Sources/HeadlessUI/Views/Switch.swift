import Streams

/// An on/off switch; ``toggle()`` simulates the user.
@MainActor
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
    /// - Returns: `true` when the switch accepted the input; when `false`, ``Control/inputRefusal``
    ///   says why.
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

@MainActor
extension Reactive where Base: Switch {
    /// The state, two-way: the current state then each user change.
    public var isOn: ControlProperty<Bool> { value }

    /// The state, two-way (RxCocoa's `value`).
    public var value: ControlProperty<Bool> {
        controlProperty(editingEvents: .valueChanged, getter: { $0.isOn }, setter: { $0.isOn = $1 })
    }
}
