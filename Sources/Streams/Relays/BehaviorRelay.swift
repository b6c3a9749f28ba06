/// A ``BehaviorSubject`` that can only send elements: it never errors and never completes.
///
///     let relay = BehaviorRelay(value: 1)
///     relay.accept(2)
///     relay.value  // 2
public final class BehaviorRelay<Element>: ObservableType, @unchecked Sendable {
    private let subject: BehaviorSubject<Element>

    /// Creates a relay whose current value is `value`.
    public init(value: Element) {
        subject = BehaviorSubject(value: value)
    }

    /// The current value.
    public var value: Element {
        // A relay's subject never errors and is never disposed, so this cannot throw.
        try! subject.value()
    }

    /// Sets the current value and sends it to subscribers.
    public func accept(_ event: Element) { subject.onNext(event) }

    /// Subscribes `observer`: it receives the current value, then later ones.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        subject.subscribe(observer)
    }

    /// The relay as an observable sequence.
    public func asObservable() -> Observable<Element> { subject.asObservable() }
}
