import Observation
import Streams

/// A two-way input from a SwiftUI control, as main-actor observable state: what a
/// `TextField(text:)`, a `Toggle(isOn:)` or a `Picker(selection:)` binds (through
/// `Bindable(input).value`), read by the view model as the `Driver` or
/// `Signal` it takes today.
///
///     let search = ObservedInput("")
///     let viewModel = SearchViewModel(query: search.driver)      // the view model is unchanged
///     TextField("Search", text: Bindable(search).value)          // SwiftUI
///
///     value set:  "m"  "ma"  "ma"  "mar"
///     driver:    ""-"m"--"ma"--------"mar"-      (the current value first, no repeats)
///
/// The promises are a HeadlessUI text field's `rx.text`: ``driver`` sends the current value
/// then each change, on the main scheduler, never the same value twice in a row; setting
/// ``value`` to the value it has does nothing (no element, no invalidation of a reader). The
/// type is isolated to the main actor, so every change is made there.
///
/// (Observation is written out here rather than by `@Observable`: the macro spells each
/// property's key path where it is read and written, and the key path of a generic class is
/// built anew at run time every time — over a third of an element's time, profiled. The key
/// paths are made once, per state.)
@MainActor
public final class ObservedInput<Value: Equatable>: Observation.Observable {
    private var current: Value
    private let valuePath = \ObservedInput<Value>.value
    private let registrar = ObservationRegistrar()
    nonisolated private let values: BehaviorRelay<Value>
    nonisolated private let edits = PublishRelay<Value>()

    /// The control's value: set by the control (two-way binding) or by code.
    public var value: Value {
        get {
            registrar.access(self, keyPath: valuePath)
            return current
        }
        set {
            guard newValue != current else { return }
            registrar.withMutation(of: self, keyPath: valuePath) { current = newValue }
            values.accept(newValue)
            edits.accept(newValue)
        }
    }

    /// Creates an input.
    ///
    /// - Parameter initial: The control's first value (`""` for an empty text field).
    public init(_ initial: Value) {
        current = initial
        values = BehaviorRelay(value: initial)
    }

    /// The current value, then each change, on the main scheduler (a text field's `rx.text`).
    ///
    ///     ""-"m"--"ma"--
    public nonisolated var driver: Driver<Value> { values.asDriver() }

    /// Each change after subscription, without the current value (a control property's
    /// `changed`).
    ///
    ///     ---"m"--"ma"--
    public nonisolated var changes: Signal<Value> { edits.asSignal() }
}
