extension ObservableType {
    /// Continues with the sequence `handler` returns when the source fails.
    ///
    ///     source:  --1--2--#
    ///     handler:         --8--|
    ///     catch { _ in handler }
    ///              --1--2----8--|
    ///
    /// An error thrown by `handler` ends the sequence with that error.
    ///
    /// - Parameter handler: Makes the replacement sequence from the source's error.
    /// - Returns: The source's elements, then, after an error, the replacement's.
    public func `catch`(_ handler: @escaping (Swift.Error) throws -> Observable<Element>) -> Observable<Element> {
        Catch(source: asObservable(), handler: handler)
    }

    /// Ends with `element` and completion instead of the source's error.
    ///
    ///     --1--2--#
    ///     catchAndReturn(0)
    ///     --1--2--(0|)
    ///
    /// - Parameter element: The last element sent when the source fails.
    /// - Returns: The source's elements, then `element` if it fails.
    public func catchAndReturn(_ element: Element) -> Observable<Element> {
        Catch(source: asObservable()) { _ in Observable.just(element) }
    }
}

final class Catch<Element>: Producer<Element>, @unchecked Sendable {
    typealias Handler = (Swift.Error) throws -> Observable<Element>

    private let source: Observable<Element>
    private let handler: Handler

    init(source: Observable<Element>, handler: @escaping Handler) {
        self.source = source
        self.handler = handler
    }

    override func connect<Observer: ObserverType>(_ observer: Observer, handle: SinkDisposer?) -> Disposable where Observer.Element == Element {
        let sink = CatchSink(handler: handler, observer: observer, handle: handle)
        let subscription = sink.run(source)
        sink.setUpstream(subscription)
        return sink
    }
}

private final class CatchSink<Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable {
    typealias Element = Observer.Element

    private let handler: (Swift.Error) throws -> Observable<Element>
    private let subscription = SerialDisposable()

    init(handler: @escaping (Swift.Error) throws -> Observable<Element>, observer: Observer, handle: SinkDisposer?) {
        self.handler = handler
        super.init(observer: observer, handle: handle)
    }

    func run(_ source: Observable<Element>) -> Disposable {
        let sourceSubscription = SingleAssignmentDisposable()
        subscription.disposable = sourceSubscription
        sourceSubscription.setDisposable(source.subscribe(self))
        return subscription
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next:
            forwardOn(event)
        case .completed:
            forwardOn(event)
            dispose()
        case .error(let error):
            let replacement: Observable<Element>
            do {
                replacement = try handler(error)
            } catch {
                forwardOn(.error(error))
                dispose()
                return
            }
            let replacementSubscription = SingleAssignmentDisposable()
            subscription.disposable = replacementSubscription
            replacementSubscription.setDisposable(replacement.subscribe(forwarder()))
        }
    }
}

extension ObservableType {
    /// Subscribes the sequences one after another, moving on to the next one each time one
    /// fails: the result ends with the first completion, or with the last error when every
    /// sequence failed (and completes at once when there is none).
    ///
    ///     a: --1--#
    ///     b:      --2--#
    ///     c:           --3--|
    ///     catch(sequence: [a, b, c])
    ///        --1----2----3--|
    ///
    /// The next sequence is subscribed through ``CurrentThreadScheduler``, so any number of
    /// sequences that fail synchronously never nest on the stack.
    ///
    /// - Parameter sequence: The sequences to try, in order; read lazily, one at a time.
    /// - Returns: The elements of each sequence tried.
    public static func `catch`<Sequence: Swift.Sequence>(sequence: Sequence) -> Observable<Element> where Sequence.Element == Observable<Element> {
        CatchSequence(sequence: sequence)
    }
}

final class CatchSequence<Sequence: Swift.Sequence, Element>: Producer<Element>, @unchecked Sendable where Sequence.Element == Observable<Element> {
    private let sequence: Sequence

    init(sequence: Sequence) {
        self.sequence = sequence
    }

    override func connect<Observer: ObserverType>(_ observer: Observer, handle: SinkDisposer?) -> Disposable where Observer.Element == Element {
        let sink = CatchSequenceSink(sources: SourceQueue(sequence), observer: observer, handle: handle)
        let subscription = sink.run()
        sink.setUpstream(subscription)
        return sink
    }
}

private final class CatchSequenceSink<Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable {
    typealias Element = Observer.Element

    /// Read only from `subscribeNext`, which runs for one source at a time: after the
    /// subscription and after each failure. A source that failed is let go of when the next
    /// one is taken.
    private var sources: SourceQueue<Element>
    private let current = SerialDisposable()

    init(sources: SourceQueue<Element>, observer: Observer, handle: SinkDisposer?) {
        self.sources = sources
        super.init(observer: observer, handle: handle)
    }

    func run() -> Disposable {
        scheduleNext(lastError: nil)
        return current
    }

    private func scheduleNext(lastError: Swift.Error?) {
        _ = CurrentThreadScheduler.instance.schedule(()) { _ in
            self.subscribeNext(lastError: lastError)
            return Disposables.create()
        }
    }

    private func subscribeNext(lastError: Swift.Error?) {
        if isDisposed { return }
        guard let source = sources.next() else {
            forwardOn(lastError.map { .error($0) } ?? .completed)
            dispose()
            return
        }
        let subscription = SingleAssignmentDisposable()
        current.disposable = subscription
        subscription.setDisposable(source.subscribe(self))
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next:
            forwardOn(event)
        case .completed:
            forwardOn(event)
            dispose()
        case .error(let error):
            scheduleNext(lastError: error)
        }
    }
}
