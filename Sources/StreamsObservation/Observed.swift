import Dispatch
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
/// path is made once, per state, and names the stored value: Observation hashes the key path on
/// every read and write, and that of the computed ``value`` carries the generic arguments, which
/// cost more to hash. Elements reach the state through an observer of its own, which checks
/// once that it runs on the main actor and sets the value there directly.)
@MainActor
public final class Observed<Value>: Observation.Observable {
    /// The latest element of the source, or the initial value before the first one.
    public var value: Value {
        registrar.access(self, keyPath: valuePath)
        return storedValue
    }

    // Touched on the main actor only: by `value`, and by `receive(_:)`, whose caller has made
    // sure it runs there (nonisolated so that no closure of the element's path is isolated,
    // each of which Swift 6 checks again at run time).
    nonisolated(unsafe) private var storedValue: Value
    // What readers and writers of `value` name to Observation.
    nonisolated(unsafe) private let valuePath: KeyPath<Observed<Value>, Value> = \Observed<Value>.storedValue
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
        source.subscribe(ObservedUpdate(self)).disposed(by: bag)
    }

    /// Sets ``value`` to `element`, invalidating its readers. Only on the main actor: the caller
    /// (``ObservedUpdate``) has checked that it runs there.
    nonisolated func receive(_ element: Value) {
        registrar.withMutation(of: self, keyPath: valuePath) { storedValue = element }
    }
}

/// The observer behind an ``Observed``: sets the state to each element on the main actor, at
/// once when the element arrives there (every element of a `Driver` sent on the main thread),
/// otherwise through the main dispatch queue. The state is held weakly: elements after it is
/// gone are dropped.
///
/// It is `MainActorUpdate` written out for one state, to keep the element's path short: it
/// takes elements by `onNext`, so nothing wraps each one in an `Event` (unspecialised generic
/// code looks the type of each `Event<Value>` up at run time), and it asks once whether it runs
/// on the main actor, where `MainActor.assumeIsolated` around a main-actor closure makes three
/// more checks, each a call into the concurrency runtime.
struct ObservedUpdate<Value>: ObserverType {
    private weak var state: Observed<Value>?

    init(_ state: Observed<Value>) {
        self.state = state
    }

    func on(_ event: Event<Value>) {
        if case .next(let element) = event { onNext(element) }
    }

    func onNext(_ element: Value) {
        guard let state else { return }
        // `isOnMainActor` is true on the main thread and in work of the main dispatch queue:
        // where the main actor's jobs run (what `MainActor.assumeIsolated` would check).
        if MainScheduler.isOnMainActor {
            state.receive(element)
        } else {
            Self.hop(element, to: state)
        }
    }

    /// Hands `element` to the main dispatch queue, which sets the state if it still exists.
    /// Out of line: the packing it needs is looked up only for elements that take this path.
    @inline(never)
    private static func hop(_ element: Value, to state: Observed<Value>) {
        // The element goes to one place, the main actor, and is not touched here again.
        let handOver = UncheckedSendable(element)
        DispatchQueue.main.async { [weak state] in
            MainActor.assumeIsolated { state?.receive(handOver.value) }
        }
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
