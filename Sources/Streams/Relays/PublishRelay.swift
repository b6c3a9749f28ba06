/// A ``PublishSubject`` that can only send elements: it never errors and never completes.
public final class PublishRelay<Element>: ObservableType, @unchecked Sendable {
    private let subject = PublishSubject<Element>()

    /// Creates a relay.
    public init() {}

    /// Sends `event` to the current subscribers.
    public func accept(_ event: Element) { subject.onNext(event) }

    /// Subscribes `observer` to later elements.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        subject.subscribe(observer)
    }

    /// The relay as an observable sequence.
    public func asObservable() -> Observable<Element> { subject.asObservable() }
}
