import Observation
import Streams

/// An `Action` as main-actor observable state, for a SwiftUI button: the button's
/// action calls ``run(_:)``; ``isExecuting``, ``isEnabled`` and ``error`` are what it shows
/// (a spinner, `.disabled(!order.isEnabled)`, an alert).
///
///     let order = ObservedAction(viewModel.order)
///     Button("Order") { order.run(pizza) }.disabled(!order.isEnabled)   // SwiftUI
///
///     run(p):       --r-----------
///     isExecuting:  f-t-----f-----
///     isEnabled:    t-f-----t-----
///     error:        n-------e-----      (n: nil; e: the work failed)
///
/// The action keeps its rules (one execution at a time; running a disabled action is
/// `ActionError.notEnabled` on ``error`` and does no work). Each property changes on
/// the main actor, whatever thread the work ends on, and only when its value changes.
///
/// (Observation is written out here rather than by `@Observable`: the macro spells each
/// property's key path where it is read and written, and the key path of a generic class is
/// built anew at run time every time — over a third of an element's time, profiled. The key
/// paths are made once, per state.)
@MainActor
public final class ObservedAction<Input, Element>: Observation.Observable {
    /// Whether an execution is running.
    public private(set) var isExecuting: Bool {
        get {
            registrar.access(self, keyPath: paths.isExecuting)
            return stored.isExecuting
        }
        set {
            registrar.withMutation(of: self, keyPath: paths.isExecuting) { stored.isExecuting = newValue }
        }
    }
    /// Whether the action can run now (its `enabledIf` holds and it is not executing).
    public private(set) var isEnabled: Bool {
        get {
            registrar.access(self, keyPath: paths.isEnabled)
            return stored.isEnabled
        }
        set {
            registrar.withMutation(of: self, keyPath: paths.isEnabled) { stored.isEnabled = newValue }
        }
    }
    /// Why the last execution failed (or the last attempt to run while disabled), until the
    /// next execution starts or ``dismissError()``.
    public private(set) var error: ActionError? {
        get {
            registrar.access(self, keyPath: paths.error)
            return stored.error
        }
        set {
            registrar.withMutation(of: self, keyPath: paths.error) { stored.error = newValue }
        }
    }

    /// The action run.
    public let action: Action<Input, Element>

    private var stored: (isExecuting: Bool, isEnabled: Bool, error: ActionError?) = (false, true, nil)
    private let paths = (
        isExecuting: \ObservedAction<Input, Element>.isExecuting,
        isEnabled: \ObservedAction<Input, Element>.isEnabled,
        error: \ObservedAction<Input, Element>.error
    )
    private let registrar = ObservationRegistrar()
    private let bag = DisposeBag()

    /// Creates the state of an action.
    ///
    /// - Parameter action: The view model's action.
    public init(_ action: Action<Input, Element>) {
        self.action = action
        action.isExecuting.subscribe(MainActorUpdate(self) { state, event in
            guard case .next(let executing) = event else { return }
            if executing, state.error != nil { state.error = nil }
            if state.isExecuting != executing { state.isExecuting = executing }
        }).disposed(by: bag)
        action.isEnabled.subscribe(MainActorUpdate(self) { state, event in
            guard case .next(let enabled) = event else { return }
            if state.isEnabled != enabled { state.isEnabled = enabled }
        }).disposed(by: bag)
        action.errors.subscribe(MainActorUpdate(self) { state, event in
            if case .next(let error) = event { state.error = error }
        }).disposed(by: bag)
    }

    /// Runs the action for `input` (what a button's action closure calls); its elements go to
    /// the action's `elements`, a failure to ``error``.
    ///
    /// - Parameter input: The action's input.
    public func run(_ input: Input) {
        action.execute(input)
    }

    /// Forgets ``error`` (an alert was dismissed).
    public func dismissError() {
        if error != nil { error = nil }
    }
}

extension ObservedAction where Input == Void {
    /// Runs the action (for an action whose input is `Void`).
    public func run() {
        run(())
    }
}
