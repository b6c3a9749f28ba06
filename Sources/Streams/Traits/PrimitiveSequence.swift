/// An observable sequence with a fixed shape, named by its `Trait`: ``Single``, ``Maybe`` or
/// ``Completable``.
///
/// A primitive sequence wraps an ``Observable`` that the library guarantees to follow the
/// trait's grammar (one element for a `Single`, at most one for a `Maybe`, none for a
/// `Completable`). It is not an ``ObservableType``: call ``asObservable()`` to use the full set
/// of observable operators.
///
///     let answer: Single<Int> = .just(42)
///     answer.subscribe(onSuccess: { print($0) })   // prints 42
public struct PrimitiveSequence<Trait, Element> {
    let source: Observable<Element>

    init(raw: Observable<Element>) {
        self.source = raw
    }
}

extension PrimitiveSequence: @unchecked Sendable {}

/// A value that is a ``PrimitiveSequence``; used to write operators once for every trait.
public protocol PrimitiveSequenceType {
    /// The trait: ``SingleTrait``, ``MaybeTrait`` or ``CompletableTrait``.
    associatedtype Trait
    /// The type of the element.
    associatedtype Element

    /// The value as a ``PrimitiveSequence``.
    var primitiveSequence: PrimitiveSequence<Trait, Element> { get }
}

extension PrimitiveSequence: PrimitiveSequenceType {
    /// Returns `self`.
    public var primitiveSequence: PrimitiveSequence<Trait, Element> { self }
}

extension PrimitiveSequence: ObservableConvertibleType {
    /// The sequence as an ``Observable``, to use observable operators on it.
    ///
    /// - Returns: An observable that follows this trait's grammar.
    public func asObservable() -> Observable<Element> { source }
}

extension PrimitiveSequence {
    /// Calls `primitiveSequenceFactory` for each subscription and subscribes to the sequence it
    /// returns; a thrown error is sent to the subscriber.
    ///
    /// - Parameter primitiveSequenceFactory: Makes a fresh sequence per subscription.
    /// - Returns: The deferred sequence.
    public static func deferred(_ primitiveSequenceFactory: @escaping () throws -> PrimitiveSequence<Trait, Element>) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: Observable.deferred { try primitiveSequenceFactory().asObservable() })
    }

    /// Delivers the events of this sequence on `scheduler`.
    ///
    ///     --(1|)   observe(on: scheduler)   --(1|)   on the scheduler
    ///
    /// The success and the completion of the underlying sequence are two scheduled actions, as
    /// in RxSwift: on a `TestScheduler` (StreamsTesting) that simulates processing delay they arrive one tick
    /// apart.
    ///
    /// - Parameter scheduler: Where the observer is called.
    /// - Returns: The same sequence, observed on `scheduler`.
    public func observe(on scheduler: ImmediateSchedulerType) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: TraitOperators.observe(source, on: scheduler))
    }

    /// Subscribes to (and starts) this sequence on `scheduler`.
    ///
    /// - Parameter scheduler: Where the subscription is made.
    /// - Returns: The same sequence, subscribed on `scheduler`.
    public func subscribe(on scheduler: ImmediateSchedulerType) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: TraitOperators.subscribe(source, on: scheduler))
    }

    /// Continues with the sequence that `handler` makes from an error.
    ///
    ///     --#   catch { _ in .just(9) }   --(9|)
    ///
    /// - Parameter handler: Makes the sequence to continue with; a thrown error is sent on.
    /// - Returns: The sequence with errors handled.
    public func `catch`(_ handler: @escaping (Swift.Error) throws -> PrimitiveSequence<Trait, Element>) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: TraitOperators.catchError(source) { try handler($0).asObservable() })
    }

    /// Resubscribes after an error, forever: the first success (or, for a `Maybe` or
    /// `Completable`, completion) ends it.
    ///
    /// - Returns: The sequence that retries until it succeeds.
    public func retry() -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: TraitOperators.retry(source, maxAttempts: nil))
    }

    /// Subscribes up to `maxAttempts` times in all; the last attempt's error is sent on.
    ///
    ///     --#   retry(2)   ----#
    ///
    /// - Parameter maxAttempts: The number of subscriptions, the first one included.
    /// - Returns: The sequence that retries.
    public func retry(_ maxAttempts: Int) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: TraitOperators.retry(source, maxAttempts: maxAttempts))
    }
}
