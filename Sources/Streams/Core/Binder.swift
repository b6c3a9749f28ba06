/// An observer that applies each element to a UI object on the main scheduler.
///
/// A binder never errors back: binding an error is a programming error, reported through
/// ``Hooks/programmingErrorHandler`` (a failed assertion in debug builds), as RxSwift's
/// `Binder` does. Completion is ignored. The target is held weakly.
///
///     let binder = Binder(label) { label, text in label.text = text }
///     Observable.just("Margherita").bind(to: binder)
public struct Binder<Value>: ObserverType {
    /// The type of the values bound.
    public typealias Element = Value

    private let binding: (Event<Value>) -> Void

    /// Creates a binder that calls `binding`, isolated to the main actor, with the target and
    /// each element on ``MainScheduler/instance``: at once when an element arrives on the main
    /// actor with nothing queued before it, otherwise in the next drain of the main scheduler.
    ///
    /// `binding` may touch main-actor state (a view's properties) whether the binder is made
    /// on the main actor or not; no `MainActor.assumeIsolated` is needed around it. If a drain
    /// of the main scheduler runs on a thread that is not the main actor's (a program that
    /// drains from a background thread), the update is handed to the main dispatch queue
    /// instead of running there.
    ///
    /// - Parameters:
    ///   - target: The object to update; held weakly, elements after it is gone are dropped.
    ///   - binding: Applies one element to the target, on the main actor.
    public init<Target: AnyObject>(_ target: Target, binding: @escaping @MainActor (Target, Value) -> Void) {
        self.binding = { [weak target] event in
            switch event {
            case .next(let element):
                _ = MainScheduler.instance.schedule(element) { element in
                    guard let target else { return Disposables.create() }
                    // Elements and targets are not Sendable: the scheduler is serial and the
                    // value goes to one place, the main actor, and is not touched here again.
                    let handOver = UncheckedSendable((target, element, binding))
                    MainScheduler.performOnMainActor { handOver.value.2(handOver.value.0, handOver.value.1) }
                    return Disposables.create()
                }
            case .error(let error):
                Hooks.reportProgrammingError("Binding error: \(error)")
            case .completed:
                break
            }
        }
    }

    /// Creates a binder that calls `binding` with the target and each element on `scheduler`.
    ///
    /// `binding` is not isolated: it runs wherever `scheduler` runs work. For a target isolated
    /// to the main actor use ``init(_:binding:)``, which runs `binding` on the main actor.
    ///
    /// - Parameters:
    ///   - target: The object to update; held weakly, elements after it is gone are dropped.
    ///   - scheduler: Where updates run.
    ///   - binding: Applies one element to the target.
    @_disfavoredOverload
    public init<Target: AnyObject>(_ target: Target, scheduler: ImmediateSchedulerType = MainScheduler.instance, binding: @escaping (Target, Value) -> Void) {
        self.binding = { [weak target] event in
            switch event {
            case .next(let element):
                _ = scheduler.schedule(element) { element in
                    if let target { binding(target, element) }
                    return Disposables.create()
                }
            case .error(let error):
                Hooks.reportProgrammingError("Binding error: \(error)")
            case .completed:
                break
            }
        }
    }

    /// Applies `event`: elements reach the target on the scheduler, an error is reported.
    public func on(_ event: Event<Value>) {
        binding(event)
    }

    /// The binder as a type-erased observer.
    public func asObserver() -> AnyObserver<Value> {
        AnyObserver(eventHandler: on)
    }
}
