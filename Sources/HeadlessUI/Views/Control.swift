import Streams

/// The kinds of events a ``Control`` sends, as UIKit's `UIControl.Event`.
public struct ControlEvents: OptionSet, Hashable, Sendable {
    /// The raw bits.
    public let rawValue: Int

    /// Creates a set from raw bits.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// A tap that ended inside the control.
    public static let touchUpInside = ControlEvents(rawValue: 1 << 0)
    /// The control's value changed (switches, sliders, text fields).
    public static let valueChanged = ControlEvents(rawValue: 1 << 1)
    /// Editing began in a text field.
    public static let editingDidBegin = ControlEvents(rawValue: 1 << 2)
    /// The text of a text field changed by editing.
    public static let editingChanged = ControlEvents(rawValue: 1 << 3)
    /// Editing ended in a text field.
    public static let editingDidEnd = ControlEvents(rawValue: 1 << 4)
    /// The return key ended editing.
    public static let editingDidEndOnExit = ControlEvents(rawValue: 1 << 5)
    /// Every editing event.
    public static let allEditingEvents: ControlEvents = [.editingDidBegin, .editingChanged, .editingDidEnd, .editingDidEndOnExit]
}

/// A view that sends events when the user acts on it: the base of buttons, switches and text
/// fields.
@MainActor
open class Control: View {
    /// Whether the control responds to the user; a disabled control ignores simulated input.
    public var isEnabled = true
    /// Whether the control is selected.
    public var isSelected = false

    let events = PublishSubject<ControlEvents>()

    /// Creates an enabled control.
    public override init() { super.init() }

    deinit { events.onCompleted() }

    /// Sends `events` to everything observing them (`rx.controlEvent`).
    ///
    /// - Parameter controlEvents: The events that happened.
    public func sendActions(for controlEvents: ControlEvents) {
        events.onNext(controlEvents)
    }

    /// Whether simulated user input reaches the control: enabled and interactive.
    public var acceptsInput: Bool { isEnabled && isInteractive }

    /// Why simulated input does not reach the control, or `nil` when it does: disabled, or a
    /// reason of ``View/inputRefusal`` (hidden, transparent, interaction disabled, here or above).
    open override var inputRefusal: String? {
        isEnabled ? super.inputRefusal : "\(refusalName) is disabled"
    }

    /// ` (disabled)` and ` (selected)` when they apply.
    public var stateSuffix: String {
        (isEnabled ? "" : " (disabled)") + (isSelected ? " (selected)" : "")
    }
}

@MainActor
extension Reactive where Base: Control {
    /// The control's events of the given kinds; completes when the control is deallocated.
    ///
    /// - Parameter controlEvents: The kinds to observe.
    /// - Returns: A ``ControlEvent`` of `Void`.
    public func controlEvent(_ controlEvents: ControlEvents) -> ControlEvent<Void> {
        ControlEvent(events: base.events.filter { !$0.isDisjoint(with: controlEvents) }.map { _ in () })
    }

    /// A ``ControlProperty`` reading a property on the given events and writing it through
    /// `setter`.
    ///
    /// - Parameters:
    ///   - editingEvents: The events after which the property is read again.
    ///   - getter: Reads the property.
    ///   - setter: Writes the property, on the main scheduler.
    /// - Returns: The property.
    public func controlProperty<T>(editingEvents: ControlEvents, getter: @escaping (Base) -> T, setter: @escaping (Base, T) -> Void) -> ControlProperty<T> {
        let base = self.base
        let events = base.events
        let values = Observable<T>.create { [weak base] observer in
            guard let control = base else {
                observer.onCompleted()
                return Disposables.create()
            }
            observer.onNext(getter(control))
            return events.filter { !$0.isDisjoint(with: editingEvents) }.subscribe { [weak base] event in
                switch event {
                case .next:
                    if let control = base { observer.onNext(getter(control)) }
                case .error(let error):
                    observer.onError(error)
                case .completed:
                    observer.onCompleted()
                }
            }
        }
        return ControlProperty(values: values, valueSink: Binder(base, binding: setter))
    }

    /// Binds whether the control is enabled.
    public var isEnabled: Binder<Bool> { Binder(base) { $0.isEnabled = $1 } }
    /// Binds whether the control is selected.
    public var isSelected: Binder<Bool> { Binder(base) { $0.isSelected = $1 } }
}
