import Locking
extension ObservableType {
    /// Sends the elements of this sequence, then, once it has completed, those of `second`.
    ///
    ///     self:   --1--2--|
    ///     second:         --3--|
    ///     concat(second)
    ///             --1--2----3--|
    ///
    /// `second` is subscribed only when this sequence completes; an error ends everything.
    ///
    /// - Parameter second: The sequence that follows.
    /// - Returns: The concatenated sequence.
    public func concat<Source: ObservableConvertibleType>(_ second: Source) -> Observable<Element> where Source.Element == Element {
        Concat(sources: [asObservable(), second.asObservable()])
    }

    /// Sends the elements of each sequence in turn, subscribing to the next one only when the
    /// previous one has completed.
    ///
    ///     a: --1--|
    ///     b:      -2--3|
    ///     concat(a, b)
    ///        --1---2--3|
    ///
    /// Sources that complete synchronously are chained in a loop, so any number of them can
    /// be concatenated without growing the stack.
    ///
    /// - Parameter sources: The sequences, in order.
    /// - Returns: The concatenated sequence.
    public static func concat(_ sources: Observable<Element>...) -> Observable<Element> {
        Concat(sources: sources)
    }

    /// Sends the elements of each sequence of an array in turn.
    ///
    ///     a: --1--|
    ///     b:      -2--3|
    ///     concat([a, b])
    ///        --1---2--3|
    ///
    /// - Parameter sources: The sequences, in order.
    /// - Returns: The concatenated sequence.
    public static func concat(_ sources: [Observable<Element>]) -> Observable<Element> {
        Concat(sources: sources)
    }

    /// Sends the elements of each sequence of a collection in turn.
    ///
    ///     a: --1--|
    ///     b:      -2--3|
    ///     concat(collection)
    ///        --1---2--3|
    ///
    /// - Parameter collection: The sequences, in order.
    /// - Returns: The concatenated sequence.
    public static func concat<Sources: Collection>(_ collection: Sources) -> Observable<Element> where Sources.Element == Observable<Element> {
        Concat(sources: Array(collection))
    }

    /// Sends the elements of each sequence of a `Sequence` in turn; the sequence is iterated
    /// lazily, one source at a time, once per subscription.
    ///
    ///     sequence: a = --1--|, b = -2--3|, …
    ///     concat(sequence)
    ///               --1---2--3|…
    ///
    /// - Parameter sequence: The sequences, in order.
    /// - Returns: The concatenated sequence.
    public static func concat<Sources: Sequence>(_ sequence: Sources) -> Observable<Element> where Sources.Element == Observable<Element> {
        Concat(sources: sequence)
    }
}

extension ObservableType where Element: ObservableConvertibleType {
    /// Flattens a sequence of sequences by concatenating the inner sequences: each one is
    /// subscribed when the previous one has completed; those that arrive meanwhile wait.
    ///
    ///     source: --a--b-------|
    ///     a:        1---2|
    ///     b:             -3-4|
    ///     concat()
    ///             --1---2-3-4--|
    ///
    /// - Returns: The elements of the inner sequences, one sequence after another.
    public func concat() -> Observable<Element.Element> {
        merge(maxConcurrent: 1)
    }
}

/// Subscribes to the sources of a `Sequence` one after another.
final class Concat<Sources: Sequence, Element>: Producer<Element>, @unchecked Sendable where Sources.Element == Observable<Element> {
    private let sources: Sources

    init(sources: Sources) { self.sources = sources }

    override func connect<Observer: ObserverType>(_ observer: Observer, handle: SinkDisposer?) -> Disposable where Observer.Element == Element {
        let sink = ConcatSink(sources: SourceQueue(sources), observer: observer, handle: handle)
        let subscription = sink.run()
        sink.setUpstream(subscription)
        return sink
    }
}

/// Moves from one source to the next in a loop rather than by recursion: a source that
/// completes while it is being subscribed only raises a flag, and the loop that subscribed it
/// moves on when `subscribe` returns (the role RxSwift's `TailRecursiveSink` plays).
///
/// A plain ``Sink`` is enough here: only one source is subscribed at a time and the next one
/// only after the previous one's completion, so the grammar of each source already keeps
/// deliveries apart even when sources run on different threads. The lock guards only the
/// hand-over of the loop.
///
/// A source is let go of when the next one is taken (``SourceQueue``) and its subscription is
/// disposed when it completes, so nothing of a finished source outlives it.
private final class ConcatSink<Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable {
    typealias Element = Observer.Element

    private let lock = Lock()
    /// Touched only by the thread that runs the loop (ownership passes under `lock`).
    private var sources: SourceQueue<Element>
    private var looping = false
    private var moveRequested = false
    private let current = SerialDisposable()

    init(sources: SourceQueue<Element>, observer: Observer, handle: SinkDisposer?) {
        self.sources = sources
        super.init(observer: observer, handle: handle)
    }

    func run() -> Disposable {
        moveNext()
        return current
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next:
            forwardOn(event)
        case .error:
            forwardOn(event)
            dispose()
        case .completed:
            moveNext()
        }
    }

    private func moveNext() {
        let start = lock.withLock { () -> Bool in
            if looping {
                moveRequested = true
                return false
            }
            looping = true
            return true
        }
        guard start else { return }
        while true {
            if isDisposed {
                lock.withLock { looping = false }
                return
            }
            guard let next = sources.next() else {
                lock.withLock { looping = false }
                forwardOn(.completed)
                dispose()
                return
            }
            let subscription = SingleAssignmentDisposable()
            current.disposable = subscription
            subscription.setDisposable(next.subscribe(self))
            let again = lock.withLock { () -> Bool in
                if moveRequested {
                    moveRequested = false
                    return true
                }
                looping = false
                return false
            }
            if !again { return }
        }
    }

    override func dispose() {
        super.dispose()
        current.dispose()
    }
}
