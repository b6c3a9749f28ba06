/// Holds a current value: a new subscriber receives it first, then every later event.
///
///     subject:    --1--2--|
///     subscriber:    12--|   subscribes at frame 3 and receives the current value, 1, at once
public final class BehaviorSubject<Element>: Observable<Element>, SubjectType, ObserverType, Cancelable, @unchecked Sendable {
    /// The observer type of this subject.
    public typealias Observer = BehaviorSubject<Element>

    /// RxSwift's name for ``Observer``: the subject itself.
    public typealias SubjectObserverType = BehaviorSubject<Element>

    private let core = SubjectCore<Element>()

    deinit { core.detach() }
    private var element: Element

    /// Creates a subject whose current value is `value`.
    public init(value: Element) {
        self.element = value
        super.init()
    }

    /// The current value.
    ///
    /// - Throws: The subject's error if it failed, or ``StreamsError/disposed(object:)``.
    public func value() throws -> Element {
        try core.withLock {
            if core.isDisposed { throw StreamsError.disposed(object: self) }
            if let error = core.stopEvent?.error { throw error }
            return element
        }
    }

    /// `true` while at least one observer is subscribed.
    public var hasObservers: Bool { core.hasObservers }

    /// `true` once ``dispose()`` has been called.
    public var isDisposed: Bool { core.withLock { core.isDisposed } }

    /// Sends `event`; a `.next` also becomes the current value.
    public func on(_ event: Event<Element>) {
        core.emit(event) {
            if case .next(let value) = event { element = value }
        }
    }

    /// Sends `element`, which also becomes the current value.
    public func onNext(_ element: Element) {
        core.emitNext(element) { self.element = element }
    }

    /// Subscribes `observer`: it receives the current value, then later events.
    public override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        core.subscribe(observer) { core.isStopped ? [] : [.next(element)] }
    }

    /// Returns `self`.
    public func asObserver() -> BehaviorSubject<Element> { self }

    /// Releases all observers; later subscriptions and `value()` fail.
    public func dispose() { core.dispose() }
}
