/// Whether the element that ends `take(until:behavior:)` or `take(while:behavior:)` is sent.
public enum TakeBehavior: Sendable {
    /// The deciding element is sent before completion.
    case inclusive
    /// The deciding element is dropped; only completion is sent.
    case exclusive
}

extension ObservableType {
    /// Sends the first `count` elements, then completes.
    ///
    ///     --1--2--3--4--|
    ///     take(2)
    ///     --1--(2|)
    ///
    /// With `count` 0 the result completes at once without subscribing to the source.
    ///
    /// - Precondition: `count` is not negative.
    /// - Parameter count: How many elements to send.
    /// - Returns: The first `count` elements.
    public func take(_ count: Int) -> Observable<Element> {
        precondition(count >= 0, "count can't be negative")
        if count == 0 { return Observable.empty() }
        return TakeCount(source: asObservable(), count: count)
    }

    /// Sends only the last `count` elements, when the source completes.
    ///
    ///     --1--2--3--4--|
    ///     takeLast(2)
    ///     --------------(34|)
    ///
    /// - Precondition: `count` is not negative.
    /// - Parameter count: How many elements at the end to keep.
    /// - Returns: The last `count` elements, sent together at completion.
    public func takeLast(_ count: Int) -> Observable<Element> {
        precondition(count >= 0, "count can't be negative")
        return TakeLast(source: asObservable(), count: count)
    }

    /// Sends the source's elements until `other` sends an element, then completes.
    ///
    ///     source: --1--2--3--4--|
    ///     other:  --------0
    ///     take(until: other)
    ///             --1--2--|
    ///
    /// An error from `other` ends the result with that error; `other` completing without an
    /// element changes nothing.
    ///
    /// - Parameter other: The sequence whose first element ends the result.
    /// - Returns: The source's elements sent before `other`'s first element.
    public func take<Source: ObservableType>(until other: Source) -> Observable<Element> {
        TakeUntil(source: asObservable(), other: other.asObservable())
    }

    /// Sends elements until one satisfies `predicate`, then completes.
    ///
    ///     --1--2--3--4--|
    ///     take(until: { $0 == 3 })
    ///     --1--2--|
    ///
    ///     --1--2--3--4--|
    ///     take(until: { $0 == 3 }, behavior: .inclusive)
    ///     --1--2--(3|)
    ///
    /// A thrown error ends the sequence with that error.
    ///
    /// - Parameters:
    ///   - predicate: Returns `true` for the element that ends the sequence.
    ///   - behavior: Whether that element is sent (`.inclusive`) or not (`.exclusive`, the
    ///     default).
    /// - Returns: The elements before the one that satisfies `predicate`.
    public func take(until predicate: @escaping (Element) throws -> Bool, behavior: TakeBehavior = .exclusive) -> Observable<Element> {
        TakeUntilPredicate(source: asObservable(), behavior: behavior, predicate: predicate)
    }

    /// Sends elements while they satisfy `predicate`, and completes at the first that does not.
    ///
    ///     --1--2--3--4--|
    ///     take(while: { $0 < 3 })
    ///     --1--2--|
    ///
    ///     --1--2--3--4--|
    ///     take(while: { $0 < 3 }, behavior: .inclusive)
    ///     --1--2--(3|)
    ///
    /// A thrown error ends the sequence with that error.
    ///
    /// - Parameters:
    ///   - predicate: Returns `true` for the elements to keep.
    ///   - behavior: Whether the first failing element is sent (`.inclusive`) or not
    ///     (`.exclusive`, the default).
    /// - Returns: The leading elements that satisfy `predicate`.
    public func take(while predicate: @escaping (Element) throws -> Bool, behavior: TakeBehavior = .exclusive) -> Observable<Element> {
        TakeUntilPredicate(source: asObservable(), behavior: behavior) { try !predicate($0) }
    }
}

// MARK: - take(_:)

final class TakeCount<Element>: Producer<Element>, @unchecked Sendable {
    private let source: Observable<Element>
    private let count: Int

    init(source: Observable<Element>, count: Int) {
        self.source = source
        self.count = count
    }

    override func connect<Observer: ObserverType>(_ observer: Observer, handle: SinkDisposer?) -> Disposable where Observer.Element == Element {
        let sink = TakeCountSink(count: count, observer: observer, handle: handle)
        sink.setUpstream(source.subscribeUpstream(sink))
        return sink
    }
}

private final class TakeCountSink<Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable {
    typealias Element = Observer.Element
    private var remaining: Int

    init(count: Int, observer: Observer, handle: SinkDisposer?) {
        self.remaining = count
        super.init(observer: observer, handle: handle)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next:
            guard remaining > 0 else { return }
            remaining -= 1
            forwardOn(event)
            if remaining == 0 {
                forwardOn(.completed)
                dispose()
            }
        case .error, .completed:
            forwardOn(event)
            dispose()
        }
    }
}

// MARK: - takeLast(_:)

final class TakeLast<Element>: Producer<Element>, @unchecked Sendable {
    private let source: Observable<Element>
    private let count: Int

    init(source: Observable<Element>, count: Int) {
        self.source = source
        self.count = count
    }

    override func connect<Observer: ObserverType>(_ observer: Observer, handle: SinkDisposer?) -> Disposable where Observer.Element == Element {
        let sink = TakeLastSink(count: count, observer: observer, handle: handle)
        sink.setUpstream(source.subscribeUpstream(sink))
        return sink
    }
}

private final class TakeLastSink<Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable {
    typealias Element = Observer.Element
    private let count: Int
    /// A ring buffer of the last `count` elements; `head` is the oldest once it is full.
    private var buffer: [Element] = []
    private var head = 0

    init(count: Int, observer: Observer, handle: SinkDisposer?) {
        self.count = count
        super.init(observer: observer, handle: handle)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            guard count > 0 else { return }
            if buffer.count < count {
                buffer.append(element)
            } else {
                buffer[head] = element
                head = (head + 1) % count
            }
        case .error:
            forwardOn(event)
            dispose()
        case .completed:
            for offset in 0..<buffer.count {
                forwardOn(.next(buffer[(head + offset) % buffer.count]))
            }
            buffer = []
            forwardOn(.completed)
            dispose()
        }
    }
}

// MARK: - take(until: other)

final class TakeUntil<Element, Other>: Producer<Element>, @unchecked Sendable {
    let source: Observable<Element>
    let other: Observable<Other>

    init(source: Observable<Element>, other: Observable<Other>) {
        self.source = source
        self.other = other
    }

    override func connect<Observer: ObserverType>(_ observer: Observer, handle: SinkDisposer?) -> Disposable where Observer.Element == Element {
        let sink = TakeUntilSink<Other, Observer>(observer: observer, handle: handle)
        let subscription = sink.run(source: source, other: other)
        sink.setUpstream(subscription)
        return sink
    }
}

private final class TakeUntilSink<Other, Observer: ObserverType>: SerializingSink<Observer>, ObserverType, @unchecked Sendable {
    typealias Element = Observer.Element
    private let otherSubscription = SingleAssignmentDisposable()

    func run(source: Observable<Element>, other: Observable<Other>) -> Disposable {
        // The trigger is subscribed first, so a trigger that fires at once wins over the source.
        otherSubscription.setDisposable(other.subscribe(TakeUntilOtherObserver(parent: self)))
        let sourceSubscription = source.subscribe(self)
        return Disposables.create(sourceSubscription, otherSubscription)
    }

    func on(_ event: Event<Element>) {
        send(event)
    }

    fileprivate func otherOn(_ event: Event<Other>) {
        switch event {
        case .next:
            send(.completed)
        case .error(let error):
            send(.error(error))
        case .completed:
            otherSubscription.dispose()
        }
    }
}

private struct TakeUntilOtherObserver<Other, Observer: ObserverType>: ObserverType {
    let parent: TakeUntilSink<Other, Observer>
    func on(_ event: Event<Other>) { parent.otherOn(event) }
}

// MARK: - take(until: predicate) and take(while:)

final class TakeUntilPredicate<Element>: Producer<Element>, @unchecked Sendable {
    typealias Predicate = (Element) throws -> Bool

    private let source: Observable<Element>
    let behavior: TakeBehavior
    let predicate: Predicate

    init(source: Observable<Element>, behavior: TakeBehavior, predicate: @escaping Predicate) {
        self.source = source
        self.behavior = behavior
        self.predicate = predicate
    }

    override func connect<Observer: ObserverType>(_ observer: Observer, handle: SinkDisposer?) -> Disposable where Observer.Element == Element {
        let sink = TakeUntilPredicateSink(parent: self, observer: observer, handle: handle)
        sink.setUpstream(source.subscribeUpstream(sink))
        return sink
    }
}

private final class TakeUntilPredicateSink<Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable {
    typealias Element = Observer.Element
    private let parent: TakeUntilPredicate<Element>
    private var running = true

    init(parent: TakeUntilPredicate<Element>, observer: Observer, handle: SinkDisposer?) {
        self.parent = parent
        super.init(observer: observer, handle: handle)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            guard running else { return }
            do {
                if try parent.predicate(element) {
                    running = false
                    if parent.behavior == .inclusive { forwardOn(event) }
                    forwardOn(.completed)
                    dispose()
                } else {
                    forwardOn(event)
                }
            } catch {
                running = false
                forwardOn(.error(error))
                dispose()
            }
        case .error, .completed:
            forwardOn(event)
            dispose()
        }
    }
}
