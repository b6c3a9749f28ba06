// Infallible's operators: each wraps the Observable operator of the same name, whose engine
// and tests it shares. A closure that may throw here does so only because RxSwift 6's signature
// lets it; a throw fails the sequence, which `subscribe` reports as a programming error.

extension InfallibleType {
    /// Transforms each element with `transform`.
    ///
    ///     --1--2--3--|   map { $0 * 2 }   --2--4--6--|
    ///
    /// - Parameter transform: Applied to each element.
    /// - Returns: The transformed sequence.
    public func map<Result>(_ transform: @escaping (Element) -> Result) -> Infallible<Result> {
        Infallible<Result>(asObservable().map(transform))
    }

    /// Transforms each element with `transform` and drops the `nil` results.
    ///
    ///     --1--a--3--|   compactMap { Int($0) }   --1-----3--|
    ///
    /// - Parameter transform: Applied to each element; `nil` drops it.
    /// - Returns: The transformed sequence.
    public func compactMap<Result>(_ transform: @escaping (Element) -> Result?) -> Infallible<Result> {
        Infallible<Result>(asObservable().compactMap(transform))
    }

    /// Keeps the elements for which `predicate` is true.
    ///
    ///     --1--2--3--4--|   filter { $0.isMultiple(of: 2) }   -----2-----4--|
    ///
    /// - Parameter predicate: Decides whether an element is kept.
    /// - Returns: The kept elements.
    public func filter(_ predicate: @escaping (Element) -> Bool) -> Infallible<Element> {
        Infallible<Element>(asObservable().filter(predicate))
    }

    /// Drops an element whose key, by `keySelector`, equals the previous element's key.
    ///
    ///     --a--A--b--|   distinctUntilChanged { $0.lowercased() }   --a-----b--|
    ///
    /// - Parameter keySelector: Computes the key to compare.
    /// - Returns: The sequence without consecutive repeats of a key.
    public func distinctUntilChanged<Key: Equatable>(_ keySelector: @escaping (Element) throws -> Key) -> Infallible<Element> {
        Infallible<Element>(asObservable().distinctUntilChanged(keySelector))
    }

    /// Drops an element that `comparer` says equals the previous one.
    ///
    ///     --1--3--2--4--|   distinctUntilChanged { $0 % 2 == $1 % 2 }   --1-----2-----|
    ///
    /// - Parameter comparer: Returns `true` when two consecutive elements count as the same.
    /// - Returns: The sequence without consecutive repeats.
    public func distinctUntilChanged(_ comparer: @escaping (Element, Element) throws -> Bool) -> Infallible<Element> {
        Infallible<Element>(asObservable().distinctUntilChanged(comparer))
    }

    /// Drops an element whose key equals, by `comparer`, the previous element's key.
    ///
    ///     --1--3--7--|   distinctUntilChanged({ $0 / 5 }, comparer: ==)   --1-----7--|
    ///
    /// - Parameters:
    ///   - keySelector: Computes the key to compare.
    ///   - comparer: Returns `true` when two keys count as the same.
    /// - Returns: The sequence without consecutive repeats of a key.
    public func distinctUntilChanged<Key>(_ keySelector: @escaping (Element) throws -> Key, comparer: @escaping (Key, Key) throws -> Bool) -> Infallible<Element> {
        Infallible<Element>(asObservable().distinctUntilChanged(keySelector, comparer: comparer))
    }

    /// Drops an element whose property at `keyPath` equals the previous element's.
    ///
    ///     --1--1--2--|   distinctUntilChanged(at: \.description)   --1-----2--|
    ///
    /// - Parameter keyPath: The property to compare.
    /// - Returns: The sequence without consecutive repeats of that property.
    public func distinctUntilChanged<Property: Equatable>(at keyPath: KeyPath<Element, Property>) -> Infallible<Element> {
        Infallible<Element>(asObservable().distinctUntilChanged(at: keyPath))
    }
}

extension InfallibleType where Element: Equatable {
    /// Drops an element equal to the previous one.
    ///
    ///     --1--1--2--2--1--|   distinctUntilChanged()   --1-----2-----1--|
    ///
    /// - Returns: The sequence without consecutive repeats.
    public func distinctUntilChanged() -> Infallible<Element> {
        Infallible<Element>(asObservable().distinctUntilChanged())
    }
}

extension InfallibleType {
    /// Sends an element only once `dueTime` has passed without a newer one.
    ///
    ///     --1-2-----3--|   debounce(.seconds(3), scheduler: scheduler)   -------2-----(3|)
    ///
    /// - Parameters:
    ///   - dueTime: The quiet time an element waits for.
    ///   - scheduler: Runs the timers.
    /// - Returns: The debounced sequence.
    public func debounce(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> Infallible<Element> {
        Infallible<Element>(asObservable().debounce(dueTime, scheduler: scheduler))
    }

    /// Sends at most one element per `dueTime`: the first of a burst at once and, when `latest`
    /// is true, the last of it when the time is up.
    ///
    ///     --1-2-3-------|   throttle(.seconds(4), scheduler: scheduler)   --1---3-------|
    ///
    /// - Parameters:
    ///   - dueTime: The least time between two elements sent.
    ///   - latest: Whether the latest element of a burst is sent at the end of the window.
    ///   - scheduler: Runs the timers.
    /// - Returns: The throttled sequence.
    public func throttle(_ dueTime: RxTimeInterval, latest: Bool = true, scheduler: SchedulerType) -> Infallible<Element> {
        Infallible<Element>(asObservable().throttle(dueTime, latest: latest, scheduler: scheduler))
    }

    /// Sends each intermediate result of folding the elements into `seed` in place.
    ///
    ///     --1--2--3--|   scan(into: 0) { $0 += $1 }   --1--3--6--|
    ///
    /// - Parameters:
    ///   - seed: The starting value.
    ///   - accumulator: Folds an element into the value.
    /// - Returns: The running values.
    public func scan<Seed>(into seed: Seed, accumulator: @escaping (inout Seed, Element) -> Void) -> Infallible<Seed> {
        Infallible<Seed>(asObservable().scan(into: seed, accumulator: accumulator))
    }

    /// Sends each intermediate result of folding the elements, starting from `seed`.
    ///
    ///     --1--2--3--|   scan(0, accumulator: +)   --1--3--6--|
    ///
    /// - Parameters:
    ///   - seed: The starting value.
    ///   - accumulator: Combines the value so far with an element.
    /// - Returns: The running values.
    public func scan<Seed>(_ seed: Seed, accumulator: @escaping (Seed, Element) -> Seed) -> Infallible<Seed> {
        Infallible<Seed>(asObservable().scan(seed, accumulator: accumulator))
    }

    /// Sends `elements` first, then this sequence's.
    ///
    ///     --1--2--|   startWith(0)   0-1--2--|
    ///
    /// - Parameter elements: The elements sent on subscription.
    /// - Returns: The sequence with those elements in front.
    public func startWith(_ elements: Element...) -> Infallible<Element> {
        Infallible<Element>(StartWith(source: asObservable(), elements: elements))
    }

    /// Sends the first `count` elements, then completes.
    ///
    ///     --1--2--3--4--|   take(2)   --1--(2|)
    ///
    /// - Parameter count: How many elements to send.
    /// - Returns: The first elements.
    public func take(_ count: Int) -> Infallible<Element> {
        Infallible<Element>(asObservable().take(count))
    }

    /// Sends the elements that arrive within `duration` of the subscription, then completes.
    ///
    ///     --1--2--3--4--|   take(for: .seconds(7), scheduler: scheduler)   --1--2-|
    ///
    /// - Parameters:
    ///   - duration: How long to send elements for.
    ///   - scheduler: Runs the timer.
    /// - Returns: The elements of that window.
    public func take(for duration: RxTimeInterval, scheduler: SchedulerType) -> Infallible<Element> {
        Infallible<Element>(asObservable().take(for: duration, scheduler: scheduler))
    }

    /// Sends elements until `other` sends an element (or completes), then completes.
    ///
    ///     source: --1--2--3--|
    ///     other:  ------0
    ///     take(until: other)
    ///             --1--2|
    ///
    /// - Parameter other: The sequence that ends this one.
    /// - Returns: The elements before `other`'s first.
    public func take(until other: some InfallibleType) -> Infallible<Element> {
        Infallible<Element>(asObservable().take(until: other.asObservable()))
    }

    /// Sends elements until `other` sends an element, then completes.
    ///
    ///     source: --1--2--3--|
    ///     other:  ------0
    ///     take(until: other)
    ///             --1--2|
    ///
    /// - Parameter other: The sequence that ends this one.
    /// - Returns: The elements before `other`'s first.
    public func take(until other: some ObservableType) -> Infallible<Element> {
        Infallible<Element>(asObservable().take(until: other))
    }

    /// Sends elements until one satisfies `predicate`, then completes (sending that one too
    /// when `behavior` is `.inclusive`).
    ///
    ///     --1--2--3--4--|   take(until: { $0 == 3 })   --1--2--|
    ///
    /// - Parameters:
    ///   - predicate: Says which element ends the sequence.
    ///   - behavior: Whether that element is sent.
    /// - Returns: The elements before it.
    public func take(until predicate: @escaping (Element) throws -> Bool, behavior: TakeBehavior = .exclusive) -> Infallible<Element> {
        Infallible<Element>(asObservable().take(until: predicate, behavior: behavior))
    }

    /// Sends elements while they satisfy `predicate`, then completes (sending the first that
    /// does not when `behavior` is `.inclusive`).
    ///
    ///     --1--2--3--1--|   take(while: { $0 < 3 })   --1--2--|
    ///
    /// - Parameters:
    ///   - predicate: Says which elements are taken.
    ///   - behavior: Whether the first element that fails it is sent.
    /// - Returns: The leading elements that satisfy it.
    public func take(while predicate: @escaping (Element) throws -> Bool, behavior: TakeBehavior = .exclusive) -> Infallible<Element> {
        Infallible<Element>(asObservable().take(while: predicate, behavior: behavior))
    }

    /// Drops the first `count` elements.
    ///
    ///     --1--2--3--|   skip(2)   --------3--|
    ///
    /// - Parameter count: How many elements to drop.
    /// - Returns: The elements after them.
    public func skip(_ count: Int) -> Infallible<Element> {
        Infallible<Element>(asObservable().skip(count))
    }

    /// Drops elements while they satisfy `predicate`, then sends every later one.
    ///
    ///     --1--2--3--1--|   skip(while: { $0 < 3 })   --------3--1--|
    ///
    /// - Parameter predicate: Says which leading elements are dropped.
    /// - Returns: The elements from the first that fails it.
    public func skip(while predicate: @escaping (Element) throws -> Bool) -> Infallible<Element> {
        Infallible<Element>(asObservable().skip(while: predicate))
    }

    /// Drops elements until `other` sends one.
    ///
    ///     source: --1--2--3--|
    ///     other:  -----0
    ///     skip(until: other)
    ///             --------3--|
    ///
    /// - Parameter other: The sequence whose first element opens the gate.
    /// - Returns: The elements after that.
    public func skip(until other: some ObservableType) -> Infallible<Element> {
        Infallible<Element>(asObservable().skip(until: other))
    }

    /// Shares one subscription of this sequence among all subscribers, replaying the last
    /// `replay` elements to a new one.
    ///
    ///     source:   --1--2--3--|
    ///     share(replay: 1), a first observer at frame 0, this one at frame 6
    ///     observer:       2-3--|
    ///
    /// - Parameters:
    ///   - replay: How many elements a new subscriber receives at once.
    ///   - scope: Whether the replay buffer is kept after the shared subscription ends.
    /// - Returns: The shared sequence.
    public func share(replay: Int = 0, scope: SubjectLifetimeScope = .whileConnected) -> Infallible<Element> {
        Infallible<Element>(asObservable().share(replay: replay, scope: scope))
    }

    /// Combines each element with the latest element of `second`; elements that come before
    /// `second` has sent one are dropped.
    ///
    ///     self:   ---1-----2---3--|
    ///     second: -----5-----6------
    ///     withLatestFrom(second) { $0 + $1 }
    ///             ---------7---9--|
    ///
    /// - Parameters:
    ///   - second: The sequence whose latest element is used.
    ///   - resultSelector: Combines an element with `second`'s latest.
    /// - Returns: The combined elements.
    public func withLatestFrom<Source: InfallibleType, ResultType>(_ second: Source, resultSelector: @escaping (Element, Source.Element) throws -> ResultType) -> Infallible<ResultType> {
        Infallible<ResultType>(asObservable().withLatestFrom(second, resultSelector: resultSelector))
    }

    /// Sends the latest element of `second` each time this sequence sends one; elements that
    /// come before `second` has sent one are dropped.
    ///
    ///     self:   ---1-----2---3--|
    ///     second: -----5-----6------
    ///     withLatestFrom(second)
    ///             ---------5---6--|
    ///
    /// - Parameter second: The sequence whose latest element is sent.
    /// - Returns: `second`'s latest elements, at this sequence's pace.
    public func withLatestFrom<Source: InfallibleType>(_ second: Source) -> Infallible<Source.Element> {
        Infallible<Source.Element>(asObservable().withLatestFrom(second))
    }

    /// Prints every event and subscription with `identifier`, and passes the events on.
    ///
    ///     --1--|   debug("n")   --1--|   prints "n -> subscribed", "n -> Event next(1)", …
    ///
    /// - Parameters:
    ///   - identifier: The label of each line; the call site by default.
    ///   - trimOutput: Whether long event descriptions are shortened.
    ///   - file: The calling file (for the default identifier).
    ///   - line: The calling line (for the default identifier).
    ///   - function: The calling function (for the default identifier).
    /// - Returns: The same sequence.
    public func debug(_ identifier: String? = nil, trimOutput: Bool = false, file: String = #file, line: UInt = #line, function: String = #function) -> Infallible<Element> {
        Infallible<Element>(asObservable().debug(identifier, trimOutput: trimOutput, file: file, line: line, function: function))
    }
}

extension Infallible {
    /// Calls the given closures for the sequence's events and subscription, and passes the
    /// events on unchanged.
    ///
    ///     --1--2--|   do(onNext: { print($0) })   --1--2--|   prints 1, 2
    ///
    /// - Parameters:
    ///   - onNext: Called before an element is passed on.
    ///   - afterNext: Called after an element is passed on.
    ///   - onCompleted: Called before the completion is passed on.
    ///   - afterCompleted: Called after the completion is passed on.
    ///   - onSubscribe: Called before the source is subscribed.
    ///   - onSubscribed: Called after the source is subscribed.
    ///   - onDispose: Called when the subscription ends, for any reason.
    /// - Returns: The same sequence.
    public func `do`(
        onNext: ((Element) throws -> Void)? = nil,
        afterNext: ((Element) throws -> Void)? = nil,
        onCompleted: (() throws -> Void)? = nil,
        afterCompleted: (() throws -> Void)? = nil,
        onSubscribe: (() -> Void)? = nil,
        onSubscribed: (() -> Void)? = nil,
        onDispose: (() -> Void)? = nil
    ) -> Infallible<Element> {
        Infallible(asObservable().do(
            onNext: onNext, afterNext: afterNext, onCompleted: onCompleted, afterCompleted: afterCompleted,
            onSubscribe: onSubscribe, onSubscribed: onSubscribed, onDispose: onDispose
        ))
    }
}
