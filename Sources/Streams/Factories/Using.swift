extension ObservableType {
    /// A sequence that owns a resource for the life of each subscription.
    ///
    /// For each subscription `resourceFactory` makes a resource and `observableFactory` makes
    /// the sequence from it; the resource is disposed when the subscription ends, whether by
    /// completion, error or disposal.
    ///
    ///     source: --1--2--|
    ///     using({ resource }, observableFactory: { _ in source })
    ///             --1--2--|
    ///
    /// An error thrown by either factory is sent to the subscriber (a resource already made is
    /// still disposed).
    ///
    /// - Parameters:
    ///   - resourceFactory: Makes the resource.
    ///   - observableFactory: Makes the sequence that uses the resource.
    /// - Returns: The sequence made by `observableFactory`.
    public static func using<Resource: Disposable>(
        _ resourceFactory: @escaping () throws -> Resource,
        observableFactory: @escaping (Resource) throws -> Observable<Element>
    ) -> Observable<Element> {
        Using(resourceFactory: resourceFactory, observableFactory: observableFactory)
    }
}

final class Using<Element, Resource: Disposable>: Producer<Element>, @unchecked Sendable {
    private let resourceFactory: () throws -> Resource
    private let observableFactory: (Resource) throws -> Observable<Element>

    init(resourceFactory: @escaping () throws -> Resource, observableFactory: @escaping (Resource) throws -> Observable<Element>) {
        self.resourceFactory = resourceFactory
        self.observableFactory = observableFactory
    }

    override func connect<Observer: ObserverType>(_ observer: Observer, handle: SinkDisposer?) -> Disposable where Observer.Element == Element {
        let sink = ForwardingSink(observer: observer, handle: handle)
        var resource: Disposable = Disposables.create()
        do {
            let made = try resourceFactory()
            resource = made
            let source = try observableFactory(made)
            sink.setUpstream(Disposables.create(source.subscribe(sink), resource))
            return sink
        } catch {
            sink.on(.error(error))
            sink.setUpstream(resource)
            return sink
        }
    }
}

/// A sink that passes every event through and disposes itself after a terminal event.
final class ForwardingSink<Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable {
    typealias Element = Observer.Element

    func on(_ event: Event<Element>) {
        forwardOn(event)
        if event.isStopEvent { dispose() }
    }
}
