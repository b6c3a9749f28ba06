import Foundation

extension PrimitiveSequence {
    /// Resubscribes after a failure of type `Failure` when the trigger that `notificationHandler`
    /// builds from the failures sends an element; the trigger's error or completion ends the
    /// sequence with that error or that completion (as ``ObservableType/retry(when:)-((Observable<Failure>)->TriggerObservable)``).
    ///
    ///     --#   retry(when: { errors in errors.take(1) })   ----|
    ///
    /// (A `Maybe` that fails twice: the first failure triggers one resubscription, the second
    /// finds the trigger completed, so the maybe completes empty. A `Single`'s trigger should
    /// end with an error rather than complete, since a single cannot complete empty.)
    ///
    /// - Parameter notificationHandler: Turns the failures into the trigger sequence.
    /// - Returns: The sequence that retries.
    public func retry<TriggerObservable: ObservableType, Failure: Swift.Error>(
        when notificationHandler: @escaping (Observable<Failure>) -> TriggerObservable
    ) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.retry(when: notificationHandler))
    }

    /// Resubscribes after any failure when the trigger that `notificationHandler` builds from
    /// the failures sends an element.
    ///
    ///     --#   retry(when: { errors in errors.take(1) })   ----|
    ///
    /// - Parameter notificationHandler: Turns the failures into the trigger sequence.
    /// - Returns: The sequence that retries.
    public func retry<TriggerObservable: ObservableType>(
        when notificationHandler: @escaping (Observable<Swift.Error>) -> TriggerObservable
    ) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.retry(when: notificationHandler))
    }

    /// Prints every event and the subscription's start and end, as ``ObservableType/debug(_:trimOutput:file:line:function:)``.
    ///
    /// - Parameters:
    ///   - identifier: The label of the lines; by default the file, line and function of the call.
    ///   - trimOutput: Shorten long event descriptions.
    ///   - file: The caller's file.
    ///   - line: The caller's line.
    ///   - function: The caller's function.
    /// - Returns: The same sequence, printing its events.
    public func debug(
        _ identifier: String? = nil,
        trimOutput: Bool = false,
        file: String = #file,
        line: UInt = #line,
        function: String = #function
    ) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.debug(identifier, trimOutput: trimOutput, file: file, line: line, function: function))
    }

    /// A sequence that owns a resource for the life of each subscription: `resourceFactory`
    /// makes it, `primitiveSequenceFactory` makes the sequence from it, and the resource is
    /// disposed when the subscription ends.
    ///
    ///     source: --(1|)
    ///     using({ resource }, primitiveSequenceFactory: { _ in source })
    ///             --(1|)
    ///
    /// - Parameters:
    ///   - resourceFactory: Makes the resource.
    ///   - primitiveSequenceFactory: Makes the sequence that uses it.
    /// - Returns: The sequence.
    public static func using<Resource: Disposable>(
        _ resourceFactory: @escaping () throws -> Resource,
        primitiveSequenceFactory: @escaping (Resource) throws -> PrimitiveSequence<Trait, Element>
    ) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: Observable.using(resourceFactory, observableFactory: { try primitiveSequenceFactory($0).asObservable() }))
    }
}

extension PrimitiveSequenceType where Element: RxAbstractInteger {
    /// Succeeds with 0 after `dueTime` (a ``Single`` or a ``Maybe``).
    ///
    ///     Single<Int>.timer(.seconds(3), scheduler: scheduler)   // succeeds with 0 after 3 seconds
    ///
    /// - Parameters:
    ///   - dueTime: The wait.
    ///   - scheduler: The scheduler that runs the timer.
    /// - Returns: The timer.
    public static func timer(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: Observable<Element>.timer(dueTime, scheduler: scheduler))
    }
}

extension PrimitiveSequenceType where Trait == MaybeTrait {
    /// This maybe's element, or, when it completes empty, `other`'s outcome.
    ///
    ///     source: --|
    ///     other:    --(5|)
    ///     ifEmpty(switchTo: other)
    ///             ----(5|)
    ///
    /// - Parameter other: The maybe to continue with when this one is empty.
    /// - Returns: The maybe.
    public func ifEmpty(switchTo other: Maybe<Element>) -> Maybe<Element> {
        Maybe(raw: primitiveSequence.asObservable().ifEmpty(switchTo: other.asObservable()))
    }
}

extension PrimitiveSequenceType where Trait == CompletableTrait, Element == Swift.Never {
    /// Runs this completable, then `second` (RxSwift's other name for `andThen(_:)`).
    ///
    ///     self:   --|
    ///     second:   --|
    ///     concat(second)
    ///             ----|
    ///
    /// - Parameter second: The completable to run after this one.
    /// - Returns: A completable that completes when both have, in turn.
    public func concat(_ second: Completable) -> Completable {
        Completable(raw: primitiveSequence.asObservable().concat(second.asObservable()))
    }

    /// Runs the completables one after the other; the first failure ends the result.
    ///
    ///     a: --|
    ///     b:   ---|
    ///     concat(a, b)
    ///        -----|
    ///
    /// - Parameter sources: The completables, in order.
    /// - Returns: The completable.
    public static func concat(_ sources: Completable...) -> Completable {
        Completable(raw: Observable.concat(sources.map { $0.asObservable() }))
    }

    /// Runs the completables of a sequence one after the other.
    ///
    /// - Parameter sequence: The completables, in order.
    /// - Returns: The completable.
    public static func concat<Sequence: Swift.Sequence>(_ sequence: Sequence) -> Completable where Sequence.Element == Completable {
        Completable(raw: Observable.concat(sequence.map { $0.asObservable() }))
    }

    /// Runs the completables of a collection one after the other.
    ///
    /// - Parameter collection: The completables, in order.
    /// - Returns: The completable.
    public static func concat<Collection: Swift.Collection>(_ collection: Collection) -> Completable where Collection.Element == Completable {
        Completable(raw: Observable.concat(collection.map { $0.asObservable() }))
    }

    /// Runs the completables at once and completes when all have; the first failure ends it.
    ///
    ///     a: --|
    ///     b: ----|
    ///     zip(a, b)
    ///        ----|
    ///
    /// - Parameter sources: The completables.
    /// - Returns: The completable.
    public static func zip(_ sources: Completable...) -> Completable {
        zip(sources)
    }

    /// Runs the completables of an array at once and completes when all have.
    ///
    /// - Parameter sources: The completables.
    /// - Returns: The completable.
    public static func zip(_ sources: [Completable]) -> Completable {
        Completable(raw: Observable.merge(sources.map { $0.asObservable() }))
    }

    /// Runs the completables of a collection at once and completes when all have.
    ///
    /// - Parameter sources: The completables.
    /// - Returns: The completable.
    public static func zip<Collection: Swift.Collection>(_ sources: Collection) -> Completable where Collection.Element == Completable {
        Completable(raw: Observable.merge(sources.map { $0.asObservable() }))
    }
}
