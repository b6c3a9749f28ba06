/// Sends only the last element, and only when the source completes.
///
///     subject:    --1--2--3--|
///     subscriber: -----------(3|)
///
/// An error is passed on without any element.
public final class AsyncSubject<Element>: Observable<Element>, SubjectType, ObserverType, @unchecked Sendable {
    /// The observer type of this subject.
    public typealias Observer = AsyncSubject<Element>

    /// RxSwift's name for ``Observer``: the subject itself.
    public typealias SubjectObserverType = AsyncSubject<Element>

    private let core = SubjectCore<Element>()

    deinit { core.detach() }
    private var lastElement: Element?

    /// Creates a subject.
    public override init() { super.init() }

    /// `true` while at least one observer is subscribed.
    public var hasObservers: Bool { core.hasObservers }

    /// Records `.next` as the last element; on completion sends it, then completes.
    public func on(_ event: Event<Element>) {
        switch event {
        case .next(let value):
            core.withLock {
                if !core.isStopped { lastElement = value }
            }
        case .error:
            core.emit(event) { lastElement = nil }
        case .completed:
            let last = core.withLock { core.isStopped ? nil : lastElement }
            if let last {
                core.emitFinal(.next(last), then: .completed)
            } else {
                core.emit(.completed)
            }
        }
    }

    /// Subscribes `observer`; after completion it receives the last element and completion.
    public override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        core.subscribe(observer) {
            if core.stopEvent?.isCompleted == true, let lastElement { return [.next(lastElement)] }
            return []
        }
    }

    /// Returns `self`.
    public func asObserver() -> AsyncSubject<Element> { self }
}
