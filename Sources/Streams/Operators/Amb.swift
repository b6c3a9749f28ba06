extension ObservableType {
    /// Mirrors whichever of this sequence and `right` sends an event first (an element, an
    /// error or completion); the other subscription is disposed at that moment.
    ///
    ///     self:  ----1---2--|
    ///     right: --3---4------|
    ///     amb(right)
    ///            --3---4------|
    ///
    /// - Parameter right: The competing sequence.
    /// - Returns: The events of the sequence that reacted first.
    public func amb<Right: ObservableType>(_ right: Right) -> Observable<Element> where Right.Element == Element {
        Amb(sources: [asObservable(), right.asObservable()])
    }

    /// Mirrors whichever of the sequences sends an event first; every other subscription is
    /// disposed at that moment. An empty sequence of sources never sends anything.
    ///
    ///     a: ----1---2--|
    ///     b: --#
    ///     c: ---3-----|
    ///     amb([a, b, c])
    ///        --#
    ///
    /// - Parameter sequence: The competing sequences, subscribed in order.
    /// - Returns: The events of the sequence that reacted first.
    public static func amb<Sources: Sequence>(_ sequence: Sources) -> Observable<Element> where Sources.Element == Observable<Element> {
        Amb(sources: Array(sequence))
    }
}

final class Amb<Element>: Producer<Element>, @unchecked Sendable {
    private let sources: [Observable<Element>]

    init(sources: [Observable<Element>]) { self.sources = sources }

    override func connect<Observer: ObserverType>(_ observer: Observer, handle: SinkDisposer?) -> Disposable where Observer.Element == Element {
        let sink = AmbSink(count: sources.count, observer: observer, handle: handle)
        let subscription = sink.run(sources)
        sink.setUpstream(subscription)
        return sink
    }
}

private final class AmbSink<Observer: ObserverType>: SerializingSink<Observer>, @unchecked Sendable {
    private let subscriptions: [SingleAssignmentDisposable]
    private var winner: Int?

    init(count: Int, observer: Observer, handle: SinkDisposer?) {
        subscriptions = (0 ..< count).map { _ in SingleAssignmentDisposable() }
        super.init(observer: observer, handle: handle)
    }

    func run(_ sources: [Observable<Observer.Element>]) -> Disposable {
        // Like RxSwift, every source is subscribed even when an earlier one has already won
        // synchronously; a loser's subscription is then disposed at once.
        for (index, source) in sources.enumerated() {
            subscriptions[index].setDisposable(source.subscribe(AmbObserver(sink: self, index: index)))
        }
        return Disposables.create(subscriptions)
    }

    fileprivate func on(_ event: Event<Observer.Element>, from index: Int) {
        let (forward, won) = lock.withLock { () -> (Bool, Bool) in
            if let winner { return (winner == index, false) }
            winner = index
            return (true, true)
        }
        if won {
            for (other, subscription) in subscriptions.enumerated() where other != index {
                subscription.dispose()
            }
        }
        if forward { send(event) }
    }
}

private struct AmbObserver<Observer: ObserverType>: ObserverType {
    typealias Element = Observer.Element
    let sink: AmbSink<Observer>
    let index: Int

    func on(_ event: Event<Element>) { sink.on(event, from: index) }
}
