/// A ``ReplaySubject`` that can only send elements: it never errors and never completes
/// (RxRelay 6's `ReplayRelay`).
///
///     let recent = ReplayRelay<String>.create(bufferSize: 2)
///     recent.accept("a"); recent.accept("b"); recent.accept("c")
///     recent.subscribe(onNext: { print($0) })   // prints b, c, then each later element
public final class ReplayRelay<Element>: ObservableType, @unchecked Sendable {
    private let subject: ReplaySubject<Element>

    private init(subject: ReplaySubject<Element>) {
        self.subject = subject
    }

    /// Creates a relay that replays its last `bufferSize` elements to each new subscriber.
    ///
    /// - Parameter bufferSize: How many of the latest elements are kept and replayed.
    /// - Returns: The relay.
    public static func create(bufferSize: Int) -> ReplayRelay<Element> {
        ReplayRelay(subject: ReplaySubject.create(bufferSize: bufferSize))
    }

    /// Creates a relay that replays every element it has ever accepted to each new subscriber
    /// (RxRelay's spelling, without the `ed`). Its memory grows with every element.
    ///
    /// - Returns: The relay.
    public static func createUnbound() -> ReplayRelay<Element> {
        ReplayRelay(subject: ReplaySubject.createUnbounded())
    }

    /// Sends `event` to the current subscribers and keeps it for later ones.
    public func accept(_ event: Element) { subject.onNext(event) }

    /// Subscribes `observer`: it receives the kept elements at once, then later ones.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        subject.subscribe(observer)
    }

    /// The relay as an observable sequence.
    public func asObservable() -> Observable<Element> { subject.asObservable() }

    /// The relay as an ``Infallible``: the kept elements, then every later one.
    ///
    /// - Returns: The infallible sequence; it never completes.
    public func asInfallible() -> Infallible<Element> {
        asInfallible(onErrorFallbackTo: .empty())
    }
}
