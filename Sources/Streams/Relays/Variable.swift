/// A mutable value whose changes can be observed: the view-model property of the design.
///
/// Reading ``value`` gives the current value; setting it sends the new value to observers.
/// Subscribing sends the current value first. A `Variable` never errors, and its sequence
/// completes when the `Variable` is deallocated.
///
///     let name = Variable("Margherita")
///     name.asObservable().subscribe(onNext: { print($0) })  // prints Margherita
///     name.value = "Marinara"                              // prints Marinara
///
/// `Variable` is the RxSwift 3/4 type the Pizzaiolo app was written with. ``BehaviorRelay``
/// is the same idea without completion on deallocation.
public final class Variable<Element>: ObservableType, @unchecked Sendable {
    private let subject: BehaviorSubject<Element>

    /// Creates a variable holding `value`.
    public init(_ value: Element) {
        subject = BehaviorSubject(value: value)
    }

    /// The current value; setting it sends the new value to every observer.
    public var value: Element {
        // The subject never errors and is never disposed while the variable lives.
        get { try! subject.value() }
        set { subject.onNext(newValue) }
    }

    /// Subscribes `observer`: the current value first, then every new value, then completion
    /// when the variable is deallocated.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        subject.subscribe(observer)
    }

    /// The variable's values as an observable sequence.
    public func asObservable() -> Observable<Element> { subject }

    deinit { subject.onCompleted() }
}
