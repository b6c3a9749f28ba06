extension Observable {
    /// Creates a sequence from a subscribe function.
    ///
    ///     let numbers = Observable<Int>.create { observer in
    ///         observer.onNext(1)
    ///         observer.onCompleted()
    ///         return Disposables.create()
    ///     }
    ///     // --1|
    ///
    /// The observer passed to `subscribe` enforces the grammar: events after a terminal event,
    /// or after disposal, are dropped.
    ///
    /// - Parameter subscribe: Called for each subscription; returns the clean-up.
    /// - Returns: The sequence.
    public static func create(_ subscribe: @escaping (AnyObserver<Element>) -> Disposable) -> Observable<Element> {
        AnonymousObservable(subscribe)
    }
}

final class AnonymousObservable<Element>: Producer<Element>, @unchecked Sendable {
    typealias SubscribeHandler = (AnyObserver<Element>) -> Disposable
    let subscribeHandler: SubscribeHandler

    init(_ subscribeHandler: @escaping SubscribeHandler) {
        self.subscribeHandler = subscribeHandler
    }

    override func connect<Observer: ObserverType>(_ observer: Observer, handle: SinkDisposer?) -> Disposable where Observer.Element == Element {
        let sink = AnonymousObservableSink(observer: observer, handle: handle)
        let subscription = sink.run(self)
        sink.setUpstream(subscription)
        return sink
    }
}

final class AnonymousObservableSink<Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable {
    typealias Element = Observer.Element
    private let stopped = AtomicFlag()

    func on(_ event: Event<Element>) {
        switch event {
        case .next:
            if stopped.isSet { return }
            forwardOn(event)
        case .error, .completed:
            if stopped.setOnce() {
                forwardOn(event)
                dispose()
            }
        }
    }

    func run(_ parent: AnonymousObservable<Element>) -> Disposable {
        parent.subscribeHandler(AnyObserver(self))
    }
}
