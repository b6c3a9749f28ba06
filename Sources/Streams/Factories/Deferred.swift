extension ObservableType {
    /// Calls `observableFactory` for each subscription and subscribes to the sequence it returns.
    ///
    /// A thrown error is sent to the subscriber.
    ///
    /// - Parameter observableFactory: Makes a fresh sequence per subscription.
    public static func deferred(_ observableFactory: @escaping () throws -> Observable<Element>) -> Observable<Element> {
        Deferred(factory: observableFactory)
    }
}

final class Deferred<Element>: Producer<Element>, @unchecked Sendable {
    let factory: () throws -> Observable<Element>

    init(factory: @escaping () throws -> Observable<Element>) { self.factory = factory }

    override func connect<Observer: ObserverType>(_ observer: Observer, handle: SinkDisposer?) -> Disposable where Observer.Element == Element {
        let sink = DeferredSink(observer: observer, handle: handle)
        do {
            let source = try factory()
            sink.setUpstream(source.subscribe(sink))
            return sink
        } catch {
            sink.forwardOn(.error(error))
            sink.dispose()
            return sink
        }
    }
}

final class DeferredSink<Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable {
    typealias Element = Observer.Element

    func on(_ event: Event<Element>) {
        forwardOn(event)
        if event.isStopEvent { dispose() }
    }
}
