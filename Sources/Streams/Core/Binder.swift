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

    /// Creates a binder that calls `binding` with the target and each element on `scheduler`.
    ///
    /// - Parameters:
    ///   - target: The object to update; held weakly, elements after it is gone are dropped.
    ///   - scheduler: Where updates run; ``MainScheduler/instance`` by default.
    ///   - binding: Applies one element to the target.
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
