extension ObservableType {
    /// Drops the first `count` elements and sends the rest.
    ///
    ///     --1--2--3--4--|
    ///     skip(2)
    ///     --------3--4--|
    ///
    /// - Precondition: `count` is not negative.
    /// - Parameter count: How many leading elements to drop.
    /// - Returns: The elements after the first `count`.
    public func skip(_ count: Int) -> Observable<Element> {
        precondition(count >= 0, "count can't be negative")
        return SkipCount(source: asObservable(), count: count)
    }

    /// Drops elements while they satisfy `predicate`, then sends every element from the first
    /// that does not.
    ///
    ///     --1--2--3--1--|
    ///     skip(while: { $0 < 3 })
    ///     --------3--1--|
    ///
    /// A thrown error ends the sequence with that error.
    ///
    /// - Parameter predicate: Returns `true` for the leading elements to drop.
    /// - Returns: The elements from the first that fails `predicate` on.
    public func skip(while predicate: @escaping (Element) throws -> Bool) -> Observable<Element> {
        SkipWhile(source: asObservable(), predicate: predicate)
    }

    /// Drops the source's elements until `other` sends an element, then sends the rest.
    ///
    ///     source: --1--2--3--4--|
    ///     other:  -------0
    ///     skip(until: other)
    ///             --------3--4--|
    ///
    /// An error from `other` ends the result with that error. As in RxSwift, if the source
    /// completes before `other` sends an element, the result ends without sending completion.
    ///
    /// - Parameter other: The sequence whose first element opens the gate.
    /// - Returns: The source's elements sent after `other`'s first element.
    public func skip<Source: ObservableType>(until other: Source) -> Observable<Element> {
        SkipUntil(source: asObservable(), other: other.asObservable())
    }
}

// MARK: - skip(_:)

final class SkipCount<Element>: Producer<Element>, @unchecked Sendable {
    private let source: Observable<Element>
    private let count: Int

    init(source: Observable<Element>, count: Int) {
        self.source = source
        self.count = count
    }

    override func connect<Observer: ObserverType>(_ observer: Observer, handle: SinkDisposer?) -> Disposable where Observer.Element == Element {
        let sink = SkipCountSink(count: count, observer: observer, handle: handle)
        sink.setUpstream(source.subscribeUpstream(sink))
        return sink
    }
}

private final class SkipCountSink<Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable {
    typealias Element = Observer.Element
    private var remaining: Int

    init(count: Int, observer: Observer, handle: SinkDisposer?) {
        self.remaining = count
        super.init(observer: observer, handle: handle)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next:
            if remaining > 0 {
                remaining -= 1
            } else {
                forwardOn(event)
            }
        case .error, .completed:
            forwardOn(event)
            dispose()
        }
    }
}

// MARK: - skip(while:)

final class SkipWhile<Element>: Producer<Element>, @unchecked Sendable {
    typealias Predicate = (Element) throws -> Bool

    private let source: Observable<Element>
    private let predicate: Predicate

    init(source: Observable<Element>, predicate: @escaping Predicate) {
        self.source = source
        self.predicate = predicate
    }

    override func connect<Observer: ObserverType>(_ observer: Observer, handle: SinkDisposer?) -> Disposable where Observer.Element == Element {
        let sink = SkipWhileSink(predicate: predicate, observer: observer, handle: handle)
        sink.setUpstream(source.subscribeUpstream(sink))
        return sink
    }
}

private final class SkipWhileSink<Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable {
    typealias Element = Observer.Element
    private let predicate: (Element) throws -> Bool
    private var skipping = true

    init(predicate: @escaping (Element) throws -> Bool, observer: Observer, handle: SinkDisposer?) {
        self.predicate = predicate
        super.init(observer: observer, handle: handle)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            if skipping {
                do {
                    skipping = try predicate(element)
                } catch {
                    forwardOn(.error(error))
                    dispose()
                    return
                }
                if skipping { return }
            }
            forwardOn(event)
        case .error, .completed:
            forwardOn(event)
            dispose()
        }
    }
}

// MARK: - skip(until:)

final class SkipUntil<Element, Other>: Producer<Element>, @unchecked Sendable {
    let source: Observable<Element>
    let other: Observable<Other>

    init(source: Observable<Element>, other: Observable<Other>) {
        self.source = source
        self.other = other
    }

    override func connect<Observer: ObserverType>(_ observer: Observer, handle: SinkDisposer?) -> Disposable where Observer.Element == Element {
        let sink = SkipUntilSink<Other, Observer>(observer: observer, handle: handle)
        let subscription = sink.run(source: source, other: other)
        sink.setUpstream(subscription)
        return sink
    }
}

private final class SkipUntilSink<Other, Observer: ObserverType>: SerializingSink<Observer>, ObserverType, @unchecked Sendable {
    typealias Element = Observer.Element
    private let otherSubscription = SingleAssignmentDisposable()
    /// Set once `other` has sent an element.
    private let forwarding = AtomicFlag()

    func run(source: Observable<Element>, other: Observable<Other>) -> Disposable {
        let sourceSubscription = source.subscribe(self)
        otherSubscription.setDisposable(other.subscribe(SkipUntilOtherObserver(parent: self)))
        return Disposables.create(sourceSubscription, otherSubscription)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next:
            if forwarding.isSet { send(event) }
        case .error:
            send(event)
        case .completed:
            if forwarding.isSet {
                send(event)
            } else {
                dispose()
            }
        }
    }

    fileprivate func otherOn(_ event: Event<Other>) {
        switch event {
        case .next:
            _ = forwarding.setOnce()
            otherSubscription.dispose()
        case .error(let error):
            send(.error(error))
        case .completed:
            otherSubscription.dispose()
        }
    }
}

private struct SkipUntilOtherObserver<Other, Observer: ObserverType>: ObserverType {
    let parent: SkipUntilSink<Other, Observer>
    func on(_ event: Event<Other>) { parent.otherOn(event) }
}
