/// The trait of a sequence that sends at most one element, then completes, or an error.
public enum MaybeTrait {}

/// A sequence that sends one element, completes empty, or fails.
///
///     --1|    a success
///     --|     empty
///     --x     a failure
public typealias Maybe<Element> = PrimitiveSequence<MaybeTrait, Element>

/// The outcome of a ``Maybe``.
@frozen
public enum MaybeEvent<Element> {
    /// The one element (the maybe is then over).
    case success(Element)
    /// The maybe failed.
    case error(Swift.Error)
    /// The maybe completed without an element.
    case completed
}

extension MaybeEvent: Equatable where Element: Equatable {
    /// Outcomes are equal when they are the same case with equal elements; errors compare as
    /// ``Event``'s do (by `==` when `Equatable`, else by type and description).
    public static func == (lhs: MaybeEvent<Element>, rhs: MaybeEvent<Element>) -> Bool {
        switch (lhs, rhs) {
        case (.success(let a), .success(let b)): return a == b
        case (.completed, .completed): return true
        case (.error(let a), .error(let b)): return errorsAreEqual(a, b)
        default: return false
        }
    }
}

extension PrimitiveSequenceType where Trait == MaybeTrait {
    /// The observer a ``Maybe`` creator calls once, with the outcome.
    public typealias MaybeObserver = (MaybeEvent<Element>) -> Void

    /// Creates a ``Maybe`` from a subscribe function.
    ///
    ///     let first = Maybe<Int>.create { maybe in
    ///         maybe(.success(1))   // or maybe(.completed), or maybe(.error(e))
    ///         return Disposables.create()
    ///     }
    ///
    /// Only the first call of the observer counts.
    ///
    /// - Parameter subscribe: Called for each subscription; returns the clean-up.
    /// - Returns: The maybe.
    public static func create(subscribe: @escaping (@escaping MaybeObserver) -> Disposable) -> Maybe<Element> {
        let source = Observable<Element>.create { observer in
            subscribe { event in
                switch event {
                case .success(let element):
                    observer.onNext(element)
                    observer.onCompleted()
                case .error(let error):
                    observer.onError(error)
                case .completed:
                    observer.onCompleted()
                }
            }
        }
        return Maybe(raw: source)
    }

    /// Subscribes a closure that receives the outcome.
    ///
    /// - Parameter observer: Called once, with `.success`, `.error` or `.completed`.
    /// - Returns: The subscription.
    public func subscribe(_ observer: @escaping (MaybeEvent<Element>) -> Void) -> Disposable {
        let stopped = AtomicFlag()
        return primitiveSequence.asObservable().subscribe(AnyObserver { event in
            switch event {
            case .next(let element):
                if stopped.setOnce() { observer(.success(element)) }
            case .error(let error):
                if stopped.setOnce() { observer(.error(error)) }
            case .completed:
                if stopped.setOnce() { observer(.completed) }
            }
        })
    }

    /// Subscribes closures for the element, the error, empty completion and the end of the
    /// subscription.
    ///
    /// - Parameters:
    ///   - onSuccess: Called with the element.
    ///   - onError: Called with the error; without it the error goes to
    ///     ``Hooks/defaultErrorHandler``.
    ///   - onCompleted: Called when the maybe completes without an element.
    ///   - onDisposed: Called once when the subscription ends, for any reason.
    /// - Returns: The subscription.
    public func subscribe(
        onSuccess: ((Element) -> Void)? = nil,
        onError: ((Swift.Error) -> Void)? = nil,
        onCompleted: (() -> Void)? = nil,
        onDisposed: (() -> Void)? = nil
    ) -> Disposable {
        let disposed: Disposable = onDisposed.map { Disposables.create(with: $0) } ?? Disposables.create()
        let callStack = onError == nil ? Hooks.subscriptionCallStack() : []
        let subscription = subscribe { event in
            switch event {
            case .success(let element):
                onSuccess?(element)
            case .error(let error):
                if let onError {
                    onError(error)
                } else {
                    Hooks.defaultErrorHandler(callStack, error)
                }
            case .completed:
                onCompleted?()
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
    ///   - onError: Called with the object and the error.
    ///   - onCompleted: Called with the object on empty completion.
    ///   - onDisposed: Called with the object when the subscription ends.
    /// - Returns: The subscription.
    public func subscribe<Object: AnyObject>(
        with object: Object,
        onSuccess: ((Object, Element) -> Void)? = nil,
        onError: ((Object, Swift.Error) -> Void)? = nil,
        onCompleted: ((Object) -> Void)? = nil,
        onDisposed: ((Object) -> Void)? = nil
    ) -> Disposable {
        subscribe(
            onSuccess: { [weak object] element in if let object { onSuccess?(object, element) } },
            onError: { [weak object] error in if let object { onError?(object, error) } },
            onCompleted: { [weak object] in if let object { onCompleted?(object) } },
            onDisposed: { [weak object] in if let object { onDisposed?(object) } }
        )
    }

    /// A maybe that succeeds at once with `element`.
    ///
    ///     just(1): 1|
    ///
    /// - Parameter element: The element.
    /// - Returns: The maybe.
    public static func just(_ element: Element) -> Maybe<Element> {
        Maybe(raw: Observable.just(element))
    }

    /// A maybe that succeeds with `element` on `scheduler`.
    ///
    /// - Parameters:
    ///   - element: The element.
    ///   - scheduler: Where the element is delivered.
    /// - Returns: The maybe.
    public static func just(_ element: Element, scheduler: ImmediateSchedulerType) -> Maybe<Element> {
        Maybe(raw: Observable.just(element, scheduler: scheduler))
    }

    /// A maybe that completes at once without an element.
    ///
    ///     empty(): |
    ///
    /// - Returns: The maybe.
    public static func empty() -> Maybe<Element> {
        Maybe(raw: Observable.empty())
    }

    /// A maybe that fails at once with `error`.
    ///
    ///     error(e): x
    ///
    /// - Parameter error: The error.
    /// - Returns: The maybe.
    public static func error(_ error: Swift.Error) -> Maybe<Element> {
        Maybe(raw: Observable.error(error))
    }

    /// A maybe that never sends anything.
    ///
    ///     never(): ------
    ///
    /// - Returns: The maybe.
    public static func never() -> Maybe<Element> {
        Maybe(raw: Observable.never())
    }

    /// A ``Completable`` that completes when this maybe ends without error (the element is
    /// dropped).
    ///
    /// - Returns: The completable.
    public func asCompletable() -> Completable {
        primitiveSequence.asObservable().ignoreElements().asCompletable()
    }

    /// A ``Single`` with this maybe's element, or with `default` when it completes empty.
    ///
    ///     --|   ifEmpty(default: 0)   --(0|)
    ///
    /// - Parameter default: The element used when the maybe is empty.
    /// - Returns: The single.
    public func ifEmpty(default: Element) -> Single<Element> {
        ifEmpty(switchTo: .just(`default`))
    }

    /// A ``Single`` with this maybe's element, or `other`'s when this maybe completes empty.
    ///
    /// - Parameter other: The single to continue with when the maybe is empty.
    /// - Returns: The single.
    public func ifEmpty(switchTo other: Single<Element>) -> Single<Element> {
        let source = primitiveSequence.asObservable()
        let fallback = other.asObservable()
        return Single(raw: Observable.create { observer in
            let serial = SerialDisposable()
            let first = SingleAssignmentDisposable()
            serial.disposable = first
            let sawElement = AtomicFlag()
            first.setDisposable(source.subscribe(AnyObserver { event in
                switch event {
                case .next:
                    _ = sawElement.setOnce()
                    observer.on(event)
                case .error:
                    observer.on(event)
                case .completed:
                    if sawElement.isSet {
                        observer.on(event)
                    } else {
                        serial.disposable = fallback.subscribe(observer)
                    }
                }
            }))
            return serial
        })
    }
}
