/// The trait of a sequence that sends exactly one element or an error.
public enum SingleTrait {}

/// A sequence that sends exactly one element (a success) or an error.
///
///     --1|    a success
///     --x     a failure
public typealias Single<Element> = PrimitiveSequence<SingleTrait, Element>

/// The outcome of a ``Single``: `.success(element)` or `.failure(error)`.
public typealias SingleEvent<Element> = Result<Element, Swift.Error>

extension PrimitiveSequenceType where Trait == SingleTrait {
    /// The observer a ``Single`` creator calls once, with the outcome.
    public typealias SingleObserver = (SingleEvent<Element>) -> Void

    /// Creates a ``Single`` from a subscribe function.
    ///
    ///     let answer = Single<Int>.create { single in
    ///         single(.success(42))
    ///         return Disposables.create()
    ///     }
    ///
    /// Only the first call of the observer counts; later calls are ignored.
    ///
    /// - Parameter subscribe: Called for each subscription; returns the clean-up.
    /// - Returns: The single.
    public static func create(subscribe: @escaping (@escaping SingleObserver) -> Disposable) -> Single<Element> {
        let source = Observable<Element>.create { observer in
            subscribe { event in
                switch event {
                case .success(let element):
                    observer.onNext(element)
                    observer.onCompleted()
                case .failure(let error):
                    observer.onError(error)
                }
            }
        }
        return Single(raw: source)
    }

    /// Subscribes a closure that receives the outcome.
    ///
    /// - Parameter observer: Called once, with `.success` or `.failure`.
    /// - Returns: The subscription.
    public func subscribe(_ observer: @escaping (SingleEvent<Element>) -> Void) -> Disposable {
        let stopped = AtomicFlag()
        return primitiveSequence.asObservable().subscribe(AnyObserver { event in
            switch event {
            case .next(let element):
                if stopped.setOnce() { observer(.success(element)) }
            case .error(let error):
                if stopped.setOnce() { observer(.failure(error)) }
            case .completed:
                // A well-formed single has already succeeded here.
                if stopped.setOnce() { observer(.failure(StreamsError.noElements)) }
            }
        })
    }

    /// Subscribes closures for the success, the failure and the end of the subscription.
    ///
    ///     Single.just(1).subscribe(onSuccess: { print($0) })   // prints 1
    ///
    /// - Parameters:
    ///   - onSuccess: Called with the element.
    ///   - onFailure: Called with the error; without it the error goes to
    ///     ``Hooks/defaultErrorHandler``.
    ///   - onDisposed: Called once when the subscription ends, for any reason.
    /// - Returns: The subscription.
    public func subscribe(
        onSuccess: ((Element) -> Void)? = nil,
        onFailure: ((Swift.Error) -> Void)? = nil,
        onDisposed: (() -> Void)? = nil
    ) -> Disposable {
        let disposed: Disposable = onDisposed.map { Disposables.create(with: $0) } ?? Disposables.create()
        let callStack = onFailure == nil ? Hooks.subscriptionCallStack() : []
        let subscription = subscribe { event in
            switch event {
            case .success(let element):
                onSuccess?(element)
            case .failure(let error):
                if let onFailure {
                    onFailure(error)
                } else {
                    Hooks.defaultErrorHandler(callStack, error)
                }
            }
            disposed.dispose()
        }
        return Disposables.create(subscription, disposed)
    }

    /// Subscribes closures that receive `object`, held weakly; events are ignored once it is gone.
    ///
    /// - Parameters:
    ///   - object: The object handed to each closure.
    ///   - onSuccess: Called with the object and the element.
    ///   - onFailure: Called with the object and the error.
    ///   - onDisposed: Called with the object when the subscription ends.
    /// - Returns: The subscription.
    public func subscribe<Object: AnyObject>(
        with object: Object,
        onSuccess: ((Object, Element) -> Void)? = nil,
        onFailure: ((Object, Swift.Error) -> Void)? = nil,
        onDisposed: ((Object) -> Void)? = nil
    ) -> Disposable {
        subscribe(
            onSuccess: { [weak object] element in if let object { onSuccess?(object, element) } },
            onFailure: { [weak object] error in if let object { onFailure?(object, error) } },
            onDisposed: { [weak object] in if let object { onDisposed?(object) } }
        )
    }

    /// A single that succeeds at once with `element`.
    ///
    ///     just(1): 1|
    ///
    /// - Parameter element: The element.
    /// - Returns: The single.
    public static func just(_ element: Element) -> Single<Element> {
        Single(raw: Observable.just(element))
    }

    /// A single that succeeds with `element` on `scheduler`.
    ///
    /// - Parameters:
    ///   - element: The element.
    ///   - scheduler: Where the element is delivered.
    /// - Returns: The single.
    public static func just(_ element: Element, scheduler: ImmediateSchedulerType) -> Single<Element> {
        Single(raw: Observable.just(element, scheduler: scheduler))
    }

    /// A single that fails at once with `error`.
    ///
    ///     error(e): x
    ///
    /// - Parameter error: The error.
    /// - Returns: The single.
    public static func error(_ error: Swift.Error) -> Single<Element> {
        Single(raw: Observable.error(error))
    }

    /// A single that never sends anything.
    ///
    ///     never(): ------
    ///
    /// - Returns: The single.
    public static func never() -> Single<Element> {
        Single(raw: Observable.never())
    }

    /// The single as a ``Maybe`` that always has an element.
    ///
    /// - Returns: The maybe.
    public func asMaybe() -> Maybe<Element> {
        Maybe(raw: primitiveSequence.asObservable())
    }

    /// A ``Completable`` that completes when this single succeeds (the element is dropped).
    ///
    ///     --(1|)   asCompletable()   --|
    ///
    /// - Returns: The completable.
    public func asCompletable() -> Completable {
        primitiveSequence.asObservable().ignoreElements().asCompletable()
    }
}

extension ObservableType {
    /// The sequence as a ``Single``: its one element, then success.
    ///
    ///     --1--|    asSingle()   -----(1|)
    ///     --|       asSingle()   --#      fails with StreamsError.noElements
    ///     --1--2-   asSingle()   -----#   fails with StreamsError.moreThanOneElement when 2 arrives
    ///
    /// - Returns: A single that fails with ``StreamsError/noElements`` when the sequence
    ///   completes empty, and with ``StreamsError/moreThanOneElement`` as soon as a second
    ///   element arrives.
    public func asSingle() -> Single<Element> {
        Single(raw: AsSingle(source: asObservable(), allowsEmpty: false))
    }

    /// The sequence as a ``Maybe``: its element if it has one, then completion.
    ///
    ///     --1--|    asMaybe()   -----(1|)
    ///     --|       asMaybe()   --|
    ///     --1--2-   asMaybe()   -----#   fails with StreamsError.moreThanOneElement
    ///
    /// - Returns: A maybe that fails with ``StreamsError/moreThanOneElement`` as soon as a
    ///   second element arrives.
    public func asMaybe() -> Maybe<Element> {
        Maybe(raw: AsSingle(source: asObservable(), allowsEmpty: true))
    }
}

/// The engine of `asSingle()` and `asMaybe()`: holds the element until completion.
final class AsSingle<Element>: Producer<Element>, @unchecked Sendable {
    private let source: Observable<Element>
    private let allowsEmpty: Bool

    init(source: Observable<Element>, allowsEmpty: Bool) {
        self.source = source
        self.allowsEmpty = allowsEmpty
    }

    override func connect<Observer: ObserverType>(_ observer: Observer, handle: SinkDisposer?) -> Disposable where Observer.Element == Element {
        let sink = AsSingleSink(allowsEmpty: allowsEmpty, observer: observer, handle: handle)
        sink.setUpstream(source.subscribe(sink))
        return sink
    }
}

private final class AsSingleSink<Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable {
    typealias Element = Observer.Element
    private let allowsEmpty: Bool
    private var element: Element?

    init(allowsEmpty: Bool, observer: Observer, handle: SinkDisposer?) {
        self.allowsEmpty = allowsEmpty
        super.init(observer: observer, handle: handle)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let value):
            if element != nil {
                element = nil
                forwardOn(.error(StreamsError.moreThanOneElement))
                dispose()
                return
            }
            element = value
        case .error:
            element = nil
            forwardOn(event)
            dispose()
        case .completed:
            if let element {
                self.element = nil
                forwardOn(.next(element))
                forwardOn(.completed)
            } else if allowsEmpty {
                forwardOn(.completed)
            } else {
                forwardOn(.error(StreamsError.noElements))
            }
            dispose()
        }
    }
}
