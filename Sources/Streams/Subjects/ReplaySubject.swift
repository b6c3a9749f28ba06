/// Replays up to `bufferSize` past elements to each new subscriber, then sends later events.
///
/// After the subject ends, a new subscriber still receives the buffered elements, then the
/// terminal event.
///
///     subject:    --1--2--3--|   ReplaySubject.create(bufferSize: 2)
///     subscriber:            (23|)   subscribes at frame 11 and receives 2, 3 and the completion at once
public final class ReplaySubject<Element>: Observable<Element>, SubjectType, ObserverType, Cancelable, @unchecked Sendable {
    /// The observer type of this subject.
    public typealias Observer = ReplaySubject<Element>

    /// RxSwift's name for ``Observer``: the subject itself.
    public typealias SubjectObserverType = ReplaySubject<Element>

    private let core = SubjectCore<Element>()

    deinit { core.detach() }
    private let bufferSize: Int
    private var buffer: [Element] = []
    private var head = 0

    private init(bufferSize: Int) {
        self.bufferSize = bufferSize
        super.init()
    }

    /// A subject that replays the last `bufferSize` elements.
    ///
    /// - Parameter bufferSize: How many past elements new subscribers receive.
    public static func create(bufferSize: Int) -> ReplaySubject<Element> {
        precondition(bufferSize >= 0, "bufferSize must not be negative")
        return ReplaySubject(bufferSize: bufferSize)
    }

    /// A subject that replays every past element.
    public static func createUnbounded() -> ReplaySubject<Element> {
        ReplaySubject(bufferSize: .max)
    }

    /// `true` while at least one observer is subscribed.
    public var hasObservers: Bool { core.hasObservers }

    /// `true` once ``dispose()`` has been called.
    public var isDisposed: Bool { core.withLock { core.isDisposed } }

    /// Sends `event`; a `.next` is also buffered.
    public func on(_ event: Event<Element>) {
        core.emit(event) {
            guard case .next(let value) = event else { return }
            record(value)
        }
    }

    /// Sends `element`, which is also buffered.
    public func onNext(_ element: Element) {
        core.emitNext(element) { record(element) }
    }

    /// Buffers `value`; called under the subject's lock.
    private func record(_ value: Element) {
        guard bufferSize > 0 else { return }
        buffer.append(value)
        if buffer.count - head > bufferSize { head += 1 }
        if head > 64, head * 2 > buffer.count {
            buffer.removeFirst(head)
            head = 0
        }
    }

    /// Subscribes `observer`: it receives the buffered elements, then later events.
    public override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        core.subscribe(observer) { buffer[head...].map { .next($0) } }
    }

    /// Returns `self`.
    public func asObserver() -> ReplaySubject<Element> { self }

    /// Releases all observers and the buffer; later subscriptions receive an error.
    public func dispose() {
        core.dispose()
        core.withLock {
            buffer = []
            head = 0
        }
    }
}
