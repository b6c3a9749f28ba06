extension SharedSequence {
    /// Runs the shared sequences of `sequence` one after the other.
    ///
    ///     a: --1--|
    ///     b:      -2--3|
    ///     concat([a, b])
    ///        --1---2--3|
    ///
    /// - Parameter sequence: The shared sequences, in order.
    /// - Returns: The concatenated shared sequence.
    public static func concat<Sources: Sequence>(_ sequence: Sources) -> SharedSequence<SharingStrategy, Element>
    where Sources.Element == SharedSequence<SharingStrategy, Element> {
        SharedSequence(Observable.concat(sequence.map { $0.asObservable() }))
    }

    /// Runs the shared sequences of `collection` one after the other.
    ///
    /// - Parameter collection: The shared sequences, in order.
    /// - Returns: The concatenated shared sequence.
    public static func concat<Sources: Collection>(_ collection: Sources) -> SharedSequence<SharingStrategy, Element>
    where Sources.Element == SharedSequence<SharingStrategy, Element> {
        SharedSequence(Observable.concat(collection.map { $0.asObservable() }))
    }


    /// Combines the elements of a collection of shared sequences pairwise with `resultSelector`.
    ///
    /// - Parameters:
    ///   - collection: The sources.
    ///   - resultSelector: Combines one element of each source, in the collection's order.
    /// - Returns: The zipped shared sequence.
    public static func zip<Sources: Collection>(
        _ collection: Sources,
        resultSelector: @escaping ([Sources.Element.Element]) -> Element
    ) -> SharedSequence<SharingStrategy, Element>
    where Sources.Element: SharedSequenceConvertibleType, Sources.Element.SharingStrategy == SharingStrategy {
        SharedSequence(Observable.zip(collection.map { $0.asObservable() }, resultSelector: resultSelector))
    }

    /// Combines the elements of a collection of shared sequences pairwise into arrays.
    ///
    /// - Parameter collection: The sources.
    /// - Returns: The shared sequence of arrays, in the collection's order.
    public static func zip<Sources: Collection, Value>(_ collection: Sources) -> SharedSequence<SharingStrategy, [Value]>
    where Element == [Value], Sources.Element: SharedSequenceConvertibleType, Sources.Element.SharingStrategy == SharingStrategy, Sources.Element.Element == Value {
        SharedSequence<SharingStrategy, [Value]>(Observable.zip(collection.map { $0.asObservable() }))
    }
}


extension SharedSequence where Element: RxAbstractInteger {
    /// Counts 0, 1, 2, … every `period`, on the sharing scheduler.
    ///
    ///     Driver<Int>.interval(.seconds(1))   // 0 after a second, 1 after two, …
    ///
    /// - Parameter period: The time between two elements.
    /// - Returns: The counting shared sequence.
    public static func interval(_ period: RxTimeInterval) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(Observable<Element>.interval(period, scheduler: SharingStrategy.scheduler))
    }

    /// Sends 0 after `dueTime`, then, with a `period`, 1, 2, … every `period`, on the sharing
    /// scheduler.
    ///
    ///     Driver<Int>.timer(.seconds(2), period: nil)   // 0 after two seconds, then completes
    ///
    /// - Parameters:
    ///   - dueTime: The wait before the first element.
    ///   - period: The time between later elements; `nil` for one element only.
    /// - Returns: The timer shared sequence.
    public static func timer(_ dueTime: RxTimeInterval, period: RxTimeInterval?) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(Observable<Element>.timer(dueTime, period: period, scheduler: SharingStrategy.scheduler))
    }
}

extension SharedSequenceConvertibleType where Element: SharedSequenceConvertibleType {
    /// Merges the inner shared sequences as they arrive; the result shares and delivers as the
    /// inner ones do (a `Driver` of `Signal`s merges into a `Signal`).
    ///
    ///     source: --a-b--------|
    ///     a:        1---3---5|
    ///     b:          -2---4|
    ///     merge()
    ///             --1--23--45--|
    ///
    /// - Returns: The merged shared sequence.
    public func merge() -> SharedSequence<Element.SharingStrategy, Element.Element> {
        SharedSequence<Element.SharingStrategy, Element.Element>(asObservable().map { $0.asObservable() }.merge())
    }

    /// Merges the inner shared sequences, at most `maxConcurrent` subscribed at a time (the
    /// others wait their turn, in order).
    ///
    /// - Parameter maxConcurrent: How many inner sequences run at once.
    /// - Returns: The merged shared sequence.
    public func merge(maxConcurrent: Int) -> SharedSequence<Element.SharingStrategy, Element.Element> {
        SharedSequence<Element.SharingStrategy, Element.Element>(asObservable().map { $0.asObservable() }.merge(maxConcurrent: maxConcurrent))
    }

    /// Follows the latest inner shared sequence, disposing the previous one; the result shares
    /// and delivers as the inner ones do.
    ///
    ///     source: --a-------b-----|
    ///     a:        1--2--3--4|
    ///     b:                5---6|
    ///     switchLatest()
    ///             --1--2--3-5---6-|
    ///
    /// - Returns: The shared sequence of the latest inner one's elements.
    public func switchLatest() -> SharedSequence<Element.SharingStrategy, Element.Element> {
        SharedSequence<Element.SharingStrategy, Element.Element>(asObservable().map { $0.asObservable() }.switchLatest())
    }
}

extension SharedSequenceConvertibleType {
    /// Drops the first `count` elements.
    ///
    ///     -1-2-3-|   skip(2)   -----3-|
    ///
    /// - Parameter count: How many elements to drop.
    /// - Returns: The shared sequence without its first `count` elements.
    public func skip(_ count: Int) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(asObservable().skip(count))
    }

    /// Drops elements whose key equals the previous element's, compared with `comparer`.
    ///
    ///     -1-3-2-4-|   distinctUntilChanged({ $0 % 2 }, comparer: ==)   -1---2---|
    ///
    /// - Parameters:
    ///   - keySelector: The key of an element.
    ///   - comparer: `true` when two keys count as equal.
    /// - Returns: The shared sequence without consecutive duplicates.
    public func distinctUntilChanged<Key>(_ keySelector: @escaping (Element) -> Key, comparer: @escaping (Key, Key) -> Bool) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(asObservable().distinctUntilChanged(keySelector, comparer: comparer))
    }

    /// Prints every event and the subscription's start and end (see ``ObservableType/debug(_:trimOutput:file:line:function:)``).
    ///
    /// - Parameters:
    ///   - identifier: The label of the lines; by default the file, line and function of the call.
    ///   - trimOutput: Shorten long event descriptions.
    ///   - file: The caller's file.
    ///   - line: The caller's line.
    ///   - function: The caller's function.
    /// - Returns: The same shared sequence, printing its events.
    public func debug(
        _ identifier: String? = nil,
        trimOutput: Bool = false,
        file: String = #file,
        line: UInt = #line,
        function: String = #function
    ) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(asObservable().debug(identifier, trimOutput: trimOutput, file: file, line: line, function: function))
    }

    /// Pairs each element with `object`, held weakly; completes once `object` is gone.
    /// (RxCocoa 6 deprecates it for `Driver` in favour of `drive(with:onNext:…)`; it is here so
    /// that code using it compiles.)
    ///
    ///     --1--2--3--|   withUnretained(owner) { $1 * 2 }   --2--4--|   owner freed at frame 7
    ///
    /// - Parameters:
    ///   - object: The object to pair, held weakly.
    ///   - resultSelector: Combines the object and an element.
    /// - Returns: The shared sequence of results.
    public func withUnretained<Object: AnyObject, Out>(_ object: Object, resultSelector: @escaping (Object, Element) -> Out) -> SharedSequence<SharingStrategy, Out> {
        SharedSequence(asObservable().withUnretained(object, resultSelector: resultSelector))
    }

    /// Pairs each element with `object`, held weakly, as a tuple; completes once `object` is gone.
    ///
    /// - Parameter object: The object to pair, held weakly.
    /// - Returns: The shared sequence of `(object, element)`.
    public func withUnretained<Object: AnyObject>(_ object: Object) -> SharedSequence<SharingStrategy, (Object, Element)> {
        SharedSequence(asObservable().withUnretained(object))
    }
}

extension ObservableConvertibleType {
    /// The sequence as a shared sequence of `sharingStrategy` that sends `onErrorJustReturn`
    /// and completes instead of failing (what `asDriver(onErrorJustReturn:)` does for
    /// ``DriverSharingStrategy``).
    ///
    /// - Parameters:
    ///   - sharingStrategy: The strategy: ``DriverSharingStrategy``, ``SignalSharingStrategy`` or yours.
    ///   - onErrorJustReturn: The element sent in place of an error.
    /// - Returns: The shared sequence.
    public func asSharedSequence<S: SharingStrategyProtocol>(sharingStrategy: S.Type = S.self, onErrorJustReturn: Element) -> SharedSequence<S, Element> {
        let source = asObservable().observe(on: S.scheduler).catch { _ in .just(onErrorJustReturn) }
        return SharedSequence(source)
    }

    /// The sequence as a shared sequence of `sharingStrategy` that continues with
    /// `onErrorDriveWith` instead of failing.
    ///
    /// - Parameters:
    ///   - sharingStrategy: The strategy.
    ///   - onErrorDriveWith: The shared sequence to continue with after an error.
    /// - Returns: The shared sequence.
    public func asSharedSequence<S: SharingStrategyProtocol>(sharingStrategy: S.Type = S.self, onErrorDriveWith: SharedSequence<S, Element>) -> SharedSequence<S, Element> {
        let source = asObservable().observe(on: S.scheduler).catch { _ in onErrorDriveWith.asObservable() }
        return SharedSequence(source)
    }

    /// The sequence as a shared sequence of `sharingStrategy` that continues with the shared
    /// sequence `onErrorRecover` makes from an error.
    ///
    /// - Parameters:
    ///   - sharingStrategy: The strategy.
    ///   - onErrorRecover: Makes the shared sequence to continue with.
    /// - Returns: The shared sequence.
    public func asSharedSequence<S: SharingStrategyProtocol>(sharingStrategy: S.Type = S.self, onErrorRecover: @escaping (Swift.Error) -> SharedSequence<S, Element>) -> SharedSequence<S, Element> {
        let source = asObservable().observe(on: S.scheduler).catch { onErrorRecover($0).asObservable() }
        return SharedSequence(source)
    }
}
