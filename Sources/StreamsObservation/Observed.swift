import Observation
import Streams

/// One output of a view model as main-actor observable state: a `Driver`'s latest
/// element, read by a SwiftUI `body` (or any `withObservationTracking` reader) like a property
/// of an `@Observable` model.
///
///     let totals = Observed(viewModel.totals, initial: "")
///     Text(totals.value)                      // SwiftUI: the body runs again for each element
///
///     driver:  --a-----b--c--
///     value:   i-a-----b--c--                 (i: the initial value, until the first element)
///
/// A reader that reads ``value`` is invalidated once for each element of the driver, on the main
/// actor, and never for another `Observed`'s elements: keep one per output (in an `@Observable`
/// model as `let` properties) and each view reads only what it shows. The subscription ends
/// when the state is released; nothing reaches a reader afterwards.
///
/// (Observation is written out here rather than by `@Observable`: the macro spells each
/// property's key path where it is read and written, and the key path of a generic class is
/// built anew at run time every time — over a third of an element's time, profiled. The key
/// paths are made once, per state.)
@MainActor
public final class Observed<Value>: Observation.Observable {
    /// The latest element of the source, or the initial value before the first one.
    public private(set) var value: Value {
        get {
            registrar.access(self, keyPath: valuePath)
            return storedValue
        }
        set {
            registrar.withMutation(of: self, keyPath: valuePath) { storedValue = newValue }
        }
    }

    private var storedValue: Value
    private let valuePath = \Observed<Value>.value
    private let registrar = ObservationRegistrar()
    // Holds the subscription; released (and so disposed) with the state.
    private let bag = DisposeBag()

    /// Creates the state of a driver's output.
    ///
    /// A driver that replays (most do: a `Driver` shares with a replay of one) sets ``value``
    /// at once, so `initial` is shown only until a source that has sent nothing does.
    ///
    /// - Parameters:
    ///   - driver: The view model's output.
    ///   - initial: The value before the first element.
    public init(_ driver: Driver<Value>, initial: Value) {
        storedValue = initial
        follow(driver.asObservable())
    }

    /// Creates the state of a signal's output: `initial`, then each element the signal sends
    /// after this state exists (a signal does not replay).
    ///
    /// - Parameters:
    ///   - signal: The view model's output.
    ///   - initial: The value before the first element.
    public init(_ signal: Signal<Value>, initial: Value) {
        storedValue = initial
        follow(signal.asObservable())
    }

    private func follow(_ source: RxObservable<Value>) {
        // Holds the state weakly and sets it on the main actor: at once when the element
        // arrives there, as a driver's do; through the main queue otherwise.
        source.subscribe(MainActorUpdate(self) { state, event in
            if case .next(let element) = event { state.value = element }
        }).disposed(by: bag)
    }
}

extension SharedSequenceConvertibleType where SharingStrategy == DriverSharingStrategy {
    /// The driver as main-actor observable state (see ``Observed``).
    ///
    ///     --a--b--   observed(initial: i).value   i-a--b--
    ///
    /// - Parameter initial: The value before the first element.
    /// - Returns: The state; keep it as long as a view reads it.
    @MainActor
    public func observed(initial: Element) -> Observed<Element> {
        Observed(asDriver(), initial: initial)
    }
}

extension SharedSequenceConvertibleType where SharingStrategy == SignalSharingStrategy {
    /// The signal as main-actor observable state (see ``Observed``): the latest element it
    /// sent since the state was made.
    ///
    ///     --a--b--   observed(initial: i).value   i-a--b--
    ///
    /// - Parameter initial: The value before the first element.
    /// - Returns: The state; keep it as long as a view reads it.
    @MainActor
    public func observed(initial: Element) -> Observed<Element> {
        Observed(asSignal(), initial: initial)
    }
}
