extension ObservableType {
    /// Runs side effects for the events and the life cycle of each subscription, passing the
    /// events on unchanged.
    ///
    ///     --1--2--|
    ///     do(onNext: { print($0) })
    ///     --1--2--|
    ///
    /// (It prints 1 and 2 as they pass.)
    ///
    /// The `on…` closures run before an event is passed on, the `after…` closures after it.
    /// An error thrown by any of them ends the sequence with that error; an error thrown by
    /// `afterError` or `afterCompleted` is dropped, since the sequence has already ended.
    ///
    /// - Parameters:
    ///   - onNext: Runs for each element, before it is sent.
    ///   - afterNext: Runs for each element, after it is sent.
    ///   - onError: Runs for the error, before it is sent.
    ///   - afterError: Runs for the error, after it is sent.
    ///   - onCompleted: Runs before completion is sent.
    ///   - afterCompleted: Runs after completion is sent.
    ///   - onSubscribe: Runs before the source is subscribed.
    ///   - onSubscribed: Runs after the source is subscribed.
    ///   - onDispose: Runs when the subscription is disposed, for any reason.
    /// - Returns: The source's events, unchanged.
    public func `do`(
        onNext: ((Element) throws -> Void)? = nil,
        afterNext: ((Element) throws -> Void)? = nil,
        onError: ((Swift.Error) throws -> Void)? = nil,
        afterError: ((Swift.Error) throws -> Void)? = nil,
        onCompleted: (() throws -> Void)? = nil,
        afterCompleted: (() throws -> Void)? = nil,
        onSubscribe: (() -> Void)? = nil,
        onSubscribed: (() -> Void)? = nil,
        onDispose: (() -> Void)? = nil
    ) -> Observable<Element> {
        let handlers = DoHandlers(
            onNext: onNext, afterNext: afterNext,
            onError: onError, afterError: afterError,
            onCompleted: onCompleted, afterCompleted: afterCompleted,
            onSubscribe: onSubscribe, onSubscribed: onSubscribed, onDispose: onDispose
        )
        return Do(source: asObservable(), handlers: handlers)
    }
}

struct DoHandlers<Element> {
    let onNext: ((Element) throws -> Void)?
    let afterNext: ((Element) throws -> Void)?
    let onError: ((Swift.Error) throws -> Void)?
    let afterError: ((Swift.Error) throws -> Void)?
    let onCompleted: (() throws -> Void)?
    let afterCompleted: (() throws -> Void)?
    let onSubscribe: (() -> Void)?
    let onSubscribed: (() -> Void)?
    let onDispose: (() -> Void)?

    func before(_ event: Event<Element>) throws {
        switch event {
        case .next(let element): try onNext?(element)
        case .error(let error): try onError?(error)
        case .completed: try onCompleted?()
        }
    }

    func after(_ event: Event<Element>) throws {
        switch event {
        case .next(let element): try afterNext?(element)
        case .error(let error): try afterError?(error)
        case .completed: try afterCompleted?()
        }
    }
}

final class Do<Element>: Producer<Element>, @unchecked Sendable {
    private let source: Observable<Element>
    private let handlers: DoHandlers<Element>

    init(source: Observable<Element>, handlers: DoHandlers<Element>) {
        self.source = source
        self.handlers = handlers
    }

    override func connect<Observer: ObserverType>(_ observer: Observer, handle: SinkDisposer?) -> Disposable where Observer.Element == Element {
        handlers.onSubscribe?()
        let sink = DoSink(handlers: handlers, observer: observer, handle: handle)
        let subscription = source.subscribeUpstream(sink)
        handlers.onSubscribed?()
        guard let onDispose = handlers.onDispose else {
            sink.setUpstream(subscription)
            return sink
        }
        sink.setUpstream(Disposables.create {
            subscription.dispose()
            onDispose()
        })
        return sink
    }
}

private final class DoSink<Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable {
    typealias Element = Observer.Element
    private let handlers: DoHandlers<Element>

    init(handlers: DoHandlers<Element>, observer: Observer, handle: SinkDisposer?) {
        self.handlers = handlers
        super.init(observer: observer, handle: handle)
    }

    func on(_ event: Event<Element>) {
        do {
            try handlers.before(event)
        } catch {
            forwardOn(.error(error))
            dispose()
            return
        }
        forwardOn(event)
        do {
            try handlers.after(event)
        } catch {
            // After a terminal event nothing more may be sent, so that error is dropped.
            if !event.isStopEvent { forwardOn(.error(error)) }
            dispose()
            return
        }
        if event.isStopEvent { dispose() }
    }
}
