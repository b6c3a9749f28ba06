/// A type that can be converted to an ``Observable``.
public protocol ObservableConvertibleType<Element> {
    /// The type of the elements of the sequence.
    associatedtype Element

    /// The observable sequence this value represents.
    func asObservable() -> Observable<Element>
}

/// A push-based sequence of elements that observers subscribe to.
///
/// All operators are defined on this protocol, so traits and subjects get them too.
public protocol ObservableType<Element>: ObservableConvertibleType {
    /// Subscribes `observer` to the events of this sequence.
    ///
    /// - Parameter observer: The observer that receives the events.
    /// - Returns: A disposable that stops delivery and frees the subscription's resources.
    func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element
}

extension ObservableType {
    /// The sequence as an ``Observable``; operators are applied to it.
    public func asObservable() -> Observable<Element> {
        Observable.create { observer in self.subscribe(observer) }
    }
}

/// The class every observable sequence derives from.
///
/// Create one with a factory such as ``Observable/create(_:)``, ``ObservableType/just(_:)`` or
/// ``ObservableType/of(_:scheduler:)``, or from a subject; shape it with operators.
public class Observable<Element>: ObservableType, @unchecked Sendable {
    init() {}

    /// Subscribes `observer` to the events of this sequence.
    ///
    /// - Parameter observer: The observer that receives the events.
    /// - Returns: A disposable that stops delivery and frees the subscription's resources.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        abstractMethod()
    }

    /// Returns `self`.
    public func asObservable() -> Observable<Element> { self }

    /// Subscribes `observer`, the sink of an operator downstream, from inside that operator's
    /// subscription, where the current thread's trampoline runs already. The sink keeps what
    /// this returns and disposes it when it is disposed. Operators whose sink is its own
    /// disposer (``Producer``) return that sink, with no handle of its own.
    func subscribeUpstream<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        subscribe(observer)
    }

    /// How a flattening operator can run this sequence as an inner sequence without subscribing
    /// to it (and how `combineLatest` and `zip` take a `just` or `empty` source);
    /// ``InnerShortcut/subscribe`` (subscribe to it) for all but the library's synchronous
    /// factories.
    var innerShortcut: InnerShortcut { .subscribe }

    /// Delivers the elements of a sequence whose ``innerShortcut`` is ``InnerShortcut/steps``
    /// where its subscription's steps would send them, without subscribing it; called inside
    /// `trampoline`, which the caller started (so nothing else ran before the first step).
    ///
    /// Before each step it looks at the trampoline: while no work is queued there, the step
    /// would run next, so it runs now; once work is queued, the step would run after it, so
    /// `rest` gets a sequence of the remaining elements (possibly none) to subscribe, whose
    /// first step the trampoline runs in its turn.
    ///
    /// - Parameters:
    ///   - trampoline: The current thread's trampoline, running the caller.
    ///   - next: Delivers one element; returns `false` to stop (the inner was disposed or
    ///     replaced): no further element is taken from the sequence.
    ///   - rest: Subscribes the remaining elements, as the same inner.
    /// - Returns: `true` when every element was delivered and the inner has completed.
    ///
    /// A sequence that is not ``InnerShortcut/steps`` (none is asked) hands itself to `rest`
    /// whole: subscribed, it sends what it would.
    func deliverSteps(in trampoline: TrampolineState, next: (Element) -> Bool, rest: (Observable<Element>) -> Void) -> Bool {
        rest(self)
        return false
    }
}

extension ObservableType {
    /// Subscribes a closure that receives every event.
    ///
    /// - Parameter on: Called for each event.
    /// - Returns: The subscription.
    @inlinable
    public func subscribe(_ on: @escaping (Event<Element>) -> Void) -> Disposable {
        let observer = ClosureObserver<Element>(
            onNext: nil, onError: nil, onCompleted: nil, onDisposed: nil, callStack: [], handlesElements: true
        ) { observer, event in
            switch event {
            case .next:
                if observer.isStopped { return }
                on(event)
            case .error, .completed:
                if observer.stop() { on(event) }
            }
        }
        return subscribe(observer)
    }

    /// Subscribes closures for elements, errors, completion and disposal.
    ///
    ///     let subscription = Observable.of(1, 2).subscribe(onNext: { print($0) })
    ///     // prints 1, 2
    ///
    /// - Parameters:
    ///   - onNext: Called for each element.
    ///   - onError: Called once if the sequence fails.
    ///   - onCompleted: Called once if the sequence completes.
    ///   - onDisposed: Called once when the subscription ends, for any reason.
    /// - Returns: The subscription.
    @inlinable
    public func subscribe(
        onNext: ((Element) -> Void)? = nil,
        onError: ((Swift.Error) -> Void)? = nil,
        onCompleted: (() -> Void)? = nil,
        onDisposed: (() -> Void)? = nil
    ) -> Disposable {
        let callStack = onError == nil ? Hooks.subscriptionCallStack() : []
        // The closures live in the observer, and the handler captures nothing: one allocation
        // for the observer and none for a closure context. Elements go straight to `onNext`
        // (no `Event` per element); the handler, compiled here for the caller's element type,
        // sees the rest.
        let observer = ClosureObserver<Element>(
            onNext: onNext, onError: onError, onCompleted: onCompleted,
            onDisposed: onDisposed.map { Disposables.create(with: $0) }, callStack: callStack
        ) { observer, event in
            switch event {
            case .next(let value):
                if observer.isStopped { return }
                observer.elementHandler?(value)
            case .error(let error):
                guard observer.stop() else { return }
                if let onError = observer.errorHandler {
                    onError(error)
                } else {
                    Hooks.defaultErrorHandler(observer.callStack, error)
                }
                observer.disposal?.dispose()
            case .completed:
                guard observer.stop() else { return }
                observer.completionHandler?()
                observer.disposal?.dispose()
            }
        }
        let subscription = subscribe(observer)
        guard let onDisposed = observer.disposal else {
            // With no `onDisposed` there is nothing to dispose beside the subscription. An
            // operator's handle lets go of the sink, and of this observer, when disposed, so it
            // is handed out as it is; any other subscription is wrapped, so that disposing what
            // the caller holds still lets go of it.
            // (Comparing types, not casting: a cast from an existential costs runtime lookups.)
            if type(of: subscription) == SinkDisposer.self { return subscription }
            return Disposables.create(subscription, Disposables.create())
        }
        return Disposables.create(subscription, onDisposed)
    }

    /// Subscribes closures, passing `object` to each (RxSwift 6's `subscribe(with:)`).
    ///
    /// `object` is held weakly: once it is gone, events are ignored.
    ///
    /// - Parameters:
    ///   - object: The object handed to each closure, held weakly.
    ///   - onNext: Called for each element.
    ///   - onError: Called if the sequence fails.
    ///   - onCompleted: Called if the sequence completes.
    ///   - onDisposed: Called when the subscription ends.
    /// - Returns: The subscription.
    public func subscribe<Object: AnyObject>(
        with object: Object,
        onNext: ((Object, Element) -> Void)? = nil,
        onError: ((Object, Swift.Error) -> Void)? = nil,
        onCompleted: ((Object) -> Void)? = nil,
        onDisposed: ((Object) -> Void)? = nil
    ) -> Disposable {
        subscribe(
            onNext: { [weak object] value in if let object { onNext?(object, value) } },
            onError: { [weak object] error in if let object { onError?(object, error) } },
            onCompleted: { [weak object] in if let object { onCompleted?(object) } },
            onDisposed: { [weak object] in if let object { onDisposed?(object) } }
        )
    }
}

func abstractMethod(file: StaticString = #file, line: UInt = #line) -> Never {
    fatalError("Abstract method", file: file, line: line)
}
