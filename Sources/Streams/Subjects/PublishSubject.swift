/// Multicasts each event to the observers subscribed at that moment.
///
/// A new subscriber receives only later events; after the subject ends, a new subscriber
/// receives the terminal event at once.
///
///     subject: --1--2--3--|
///     A:       --1--2--3--|   subscribes at frame 0
///     B:             -3--|   subscribes at frame 6
public final class PublishSubject<Element>: Observable<Element>, SubjectType, ObserverType, Cancelable, @unchecked Sendable {
    /// The observer type of this subject.
    public typealias Observer = PublishSubject<Element>

    /// RxSwift's name for ``Observer``: the subject itself.
    public typealias SubjectObserverType = PublishSubject<Element>

    private let core = SubjectCore<Element>()

    deinit { core.detach() }

    /// Creates a subject.
    public override init() { super.init() }

    /// `true` while at least one observer is subscribed.
    public var hasObservers: Bool { core.hasObservers }

    /// `true` once ``dispose()`` has been called.
    public var isDisposed: Bool { core.withLock { core.isDisposed } }

    /// Sends `event` to every current observer; ignored after a terminal event.
    public func on(_ event: Event<Element>) {
        core.emit(event)
    }

    /// Sends `element` to every current observer; ignored after a terminal event.
    public func onNext(_ element: Element) {
        core.emitNext(element)
    }

    /// Subscribes `observer` to later events.
    public override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        core.subscribe(observer, hasReplay: false) { [] }
    }

    /// Returns `self`.
    public func asObserver() -> PublishSubject<Element> { self }

    /// Releases all observers; later subscriptions receive an error.
    public func dispose() { core.dispose() }
}
