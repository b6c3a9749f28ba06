/// The trait of a sequence that sends no element: it completes or fails.
public enum CompletableTrait {}

/// A sequence that only completes or fails: work done for its side effect.
///
///     --|    completed
///     --x    failed
public typealias Completable = PrimitiveSequence<CompletableTrait, Swift.Never>

/// The outcome of a ``Completable``.
@frozen
public enum CompletableEvent {
    /// The completable failed.
    case error(Swift.Error)
    /// The completable completed.
    case completed
}

extension CompletableEvent: Equatable {
    /// Outcomes are equal when both completed, or both failed with equal errors (compared as
    /// ``Event``'s are: by `==` when `Equatable`, else by type and description).
    public static func == (lhs: CompletableEvent, rhs: CompletableEvent) -> Bool {
        switch (lhs, rhs) {
        case (.completed, .completed): return true
        case (.error(let a), .error(let b)): return errorsAreEqual(a, b)
        default: return false
        }
    }
}

extension PrimitiveSequenceType where Trait == CompletableTrait, Element == Swift.Never {
    /// The observer a ``Completable`` creator calls once, with the outcome.
    public typealias CompletableObserver = (CompletableEvent) -> Void

    /// Creates a ``Completable`` from a subscribe function.
    ///
    ///     let save = Completable.create { completable in
    ///         completable(.completed)
    ///         return Disposables.create()
    ///     }
    ///
    /// - Parameter subscribe: Called for each subscription; returns the clean-up.
    /// - Returns: The completable.
    public static func create(subscribe: @escaping (@escaping CompletableObserver) -> Disposable) -> Completable {
        let source = Observable<Never>.create { observer in
            subscribe { event in
                switch event {
                case .error(let error): observer.onError(error)
                case .completed: observer.onCompleted()
                }
            }
        }
        return Completable(raw: source)
    }

    /// Subscribes a closure that receives the outcome.
    ///
    /// - Parameter observer: Called once, with `.completed` or `.error`.
    /// - Returns: The subscription.
    public func subscribe(_ observer: @escaping (CompletableEvent) -> Void) -> Disposable {
        let stopped = AtomicFlag()
        return primitiveSequence.asObservable().subscribe(AnyObserver { event in
            switch event {
            case .next:
                break
            case .error(let error):
                if stopped.setOnce() { observer(.error(error)) }
            case .completed:
                if stopped.setOnce() { observer(.completed) }
            }
        })
    }

    /// Subscribes closures for completion, the error and the end of the subscription.
    ///
    /// - Parameters:
    ///   - onCompleted: Called when the completable completes.
    ///   - onError: Called with the error; without it the error goes to
    ///     ``Hooks/defaultErrorHandler``.
    ///   - onDisposed: Called once when the subscription ends, for any reason.
    /// - Returns: The subscription.
    public func subscribe(
        onCompleted: (() -> Void)? = nil,
        onError: ((Swift.Error) -> Void)? = nil,
        onDisposed: (() -> Void)? = nil
    ) -> Disposable {
        let disposed: Disposable = onDisposed.map { Disposables.create(with: $0) } ?? Disposables.create()
        let callStack = onError == nil ? Hooks.subscriptionCallStack() : []
        let subscription = subscribe { event in
            switch event {
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
    ///   - onCompleted: Called with the object on completion.
    ///   - onError: Called with the object and the error.
    ///   - onDisposed: Called with the object when the subscription ends.
    /// - Returns: The subscription.
    public func subscribe<Object: AnyObject>(
        with object: Object,
        onCompleted: ((Object) -> Void)? = nil,
        onError: ((Object, Swift.Error) -> Void)? = nil,
        onDisposed: ((Object) -> Void)? = nil
    ) -> Disposable {
        subscribe(
            onCompleted: { [weak object] in if let object { onCompleted?(object) } },
            onError: { [weak object] error in if let object { onError?(object, error) } },
            onDisposed: { [weak object] in if let object { onDisposed?(object) } }
        )
    }

    /// A completable that completes at once.
    ///
    ///     empty(): |
    ///
    /// - Returns: The completable.
    public static func empty() -> Completable {
        Completable(raw: Observable.empty())
    }

    /// A completable that fails at once with `error`.
    ///
    ///     error(e): x
    ///
    /// - Parameter error: The error.
    /// - Returns: The completable.
    public static func error(_ error: Swift.Error) -> Completable {
        Completable(raw: Observable.error(error))
    }

    /// A completable that never ends.
    ///
    ///     never(): ------
    ///
    /// - Returns: The completable.
    public static func never() -> Completable {
        Completable(raw: Observable.never())
    }

    /// Returns `self`.
    public func asCompletable() -> Completable { primitiveSequence }

    /// Runs this completable, then `second`.
    ///
    ///     self:   --|
    ///     second:   --(1|)
    ///     andThen(second)
    ///             ----(1|)
    ///
    /// An error of this completable ends the result without subscribing to `second`.
    ///
    /// - Parameter second: The single to run after completion.
    /// - Returns: A single with `second`'s outcome.
    public func andThen<Element>(_ second: Single<Element>) -> Single<Element> {
        Single(raw: TraitOperators.concat(primitiveSequence.asObservable(), second.asObservable()))
    }

    /// Runs this completable, then `second`.
    ///
    ///     self:   --|
    ///     second:   --(1|)
    ///     andThen(second)
    ///             ----(1|)
    ///
    /// - Parameter second: The maybe to run after completion.
    /// - Returns: A maybe with `second`'s outcome.
    public func andThen<Element>(_ second: Maybe<Element>) -> Maybe<Element> {
        Maybe(raw: TraitOperators.concat(primitiveSequence.asObservable(), second.asObservable()))
    }

    /// Runs this completable, then `second`.
    ///
    ///     self:   --|
    ///     second:   --|
    ///     andThen(second)
    ///             ----|
    ///
    /// - Parameter second: The completable to run after completion.
    /// - Returns: A completable that completes when both have.
    public func andThen(_ second: Completable) -> Completable {
        Completable(raw: TraitOperators.concat(primitiveSequence.asObservable(), second.asObservable()))
    }

    /// Runs this completable, then `second`.
    ///
    ///     self:   --|
    ///     second:   --1-2|
    ///     andThen(second)
    ///             ----1-2|
    ///
    /// - Parameter second: The observable to run after completion.
    /// - Returns: An observable with `second`'s events.
    public func andThen<Element>(_ second: Observable<Element>) -> Observable<Element> {
        TraitOperators.concat(primitiveSequence.asObservable(), second.asObservable())
    }
}

extension ObservableType where Element == Never {
    /// The sequence, which has no elements, as a ``Completable`` (RxSwift's rule: only a
    /// sequence of `Never` converts; write `ignoreElements().asCompletable()` for any other).
    ///
    ///     ------|   asCompletable()   ------|
    ///
    /// - Returns: The completable.
    public func asCompletable() -> Completable {
        Completable(raw: asObservable())
    }
}
