/// A sequence for UI code, in RxCocoa's shape: it never fails, delivers on the sharing
/// scheduler (the main scheduler unless mocked) and shares one subscription among its
/// observers.
///
/// Use it through ``Driver`` (replays the latest element to new observers, like a state) and
/// ``Signal`` (replays nothing, like an event). Make one with `asDriver(onErrorJustReturn:)`,
/// `asSignal(onErrorJustReturn:)` and their siblings, or with ``just(_:)``, ``of(_:)``…
///
///     let title: Driver<String> = viewModel.name.asDriver(onErrorJustReturn: "")
///     title.drive(onNext: { label.text = $0 })
public struct SharedSequence<SharingStrategy: SharingStrategyProtocol, Element>: SharedSequenceConvertibleType, ObservableConvertibleType {
    let source: Observable<Element>

    /// Wraps `source`, sharing it with the strategy's policy. The caller guarantees that
    /// `source` never fails and delivers on the sharing scheduler.
    init(_ source: Observable<Element>) {
        self.source = SharingStrategy.share(source)
    }

    /// Wraps `source` as it is (it already never fails, delivers on the right scheduler and
    /// shares as needed).
    init(raw: Observable<Element>) {
        self.source = raw
    }

    /// The sequence as an ``Observable``.
    ///
    /// - Returns: The shared observable.
    public func asObservable() -> Observable<Element> { source }

    /// Returns `self`.
    public func asSharedSequence() -> SharedSequence<SharingStrategy, Element> { self }
}

extension SharedSequence: @unchecked Sendable {}

/// How a ``SharedSequence`` shares its subscription and where it delivers.
public protocol SharingStrategyProtocol {
    /// The scheduler elements are delivered on.
    static var scheduler: SchedulerType { get }

    /// Shares `source` among observers.
    ///
    /// - Parameter source: The sequence to share.
    /// - Returns: The shared sequence.
    static func share<Element>(_ source: Observable<Element>) -> Observable<Element>
}

/// A value that can be seen as a ``SharedSequence``.
public protocol SharedSequenceConvertibleType<Element>: ObservableConvertibleType {
    /// The sharing strategy: ``DriverSharingStrategy`` or ``SignalSharingStrategy``.
    associatedtype SharingStrategy: SharingStrategyProtocol

    /// The value as a ``SharedSequence``.
    func asSharedSequence() -> SharedSequence<SharingStrategy, Element>
}

extension SharedSequenceConvertibleType {
    /// The value as an ``Observable``: the observable of ``SharedSequenceConvertibleType/asSharedSequence()``. A type of yours
    /// that conforms by giving only `asSharedSequence()` (RxExample's `ActivityIndicator` does)
    /// gets it from here.
    ///
    ///     final class Loading: SharedSequenceConvertibleType {
    ///         func asSharedSequence() -> Driver<Bool> { relay.asDriver() }
    ///     }
    ///     loading.asObservable().subscribe(onNext: { print($0) })
    ///
    /// - Returns: The shared sequence's observable.
    public func asObservable() -> Observable<Element> {
        asSharedSequence().asObservable()
    }
}

/// Chooses the scheduler that drivers and signals deliver on.
///
/// By default it is ``MainScheduler/instance``. Tests swap it for a `TestScheduler` (or any
/// scheduler) around the code that *creates* the drivers:
///
///     SharingScheduler.mock(scheduler: testScheduler) {
///         let driver = subject.asDriver(onErrorJustReturn: 0)   // delivers on testScheduler
///         …
///     }
///
/// The mock is scoped, not global: it holds for the code inside `action` and for the tasks that
/// code starts with structured concurrency (`async let`, task groups, `Task { }`), and is
/// invisible to every other test, thread and task, so suites that run in parallel can each
/// mock their own scheduler. A driver or signal reads the scheduler when it is *built*: one
/// built inside the mock keeps delivering on the mock's scheduler wherever it is later
/// subscribed or driven; one built outside delivers on the main scheduler.
public enum SharingScheduler {
    /// The scheduler factory bound by the innermost ``mock(scheduler:action:)`` around the
    /// current code, if any.
    @TaskLocal private static var mocked: Factory?

    /// Makes the scheduler that drivers and signals created now deliver on.
    public static var make: () -> SchedulerType {
        mocked?.make ?? { MainScheduler.instance }
    }

    /// Runs `action` with drivers and signals created in it delivering on `scheduler`; outside
    /// `action` (and in other tasks and threads) nothing changes.
    ///
    /// - Parameters:
    ///   - scheduler: The scheduler to use meanwhile.
    ///   - action: The code that creates and runs the drivers.
    /// - Throws: What `action` throws.
    public static func mock(scheduler: SchedulerType, action: () throws -> Void) rethrows {
        try mock(makeScheduler: { scheduler }, action: action)
    }

    /// Runs `action` with drivers and signals created in it delivering on schedulers made by
    /// `makeScheduler`; outside `action` nothing changes.
    ///
    /// - Parameters:
    ///   - makeScheduler: Makes the scheduler to use meanwhile.
    ///   - action: The code that creates and runs the drivers.
    /// - Throws: What `action` throws.
    public static func mock(makeScheduler: @escaping () -> SchedulerType, action: () throws -> Void) rethrows {
        try $mocked.withValue(Factory(make: makeScheduler)) { try action() }
    }

    /// The asynchronous form of ``mock(scheduler:action:)``, for `async` tests.
    ///
    /// - Parameters:
    ///   - scheduler: The scheduler to use meanwhile.
    ///   - action: The code that creates and runs the drivers.
    /// - Throws: What `action` throws.
    public static func mock(scheduler: SchedulerType, action: () async throws -> Void) async rethrows {
        try await $mocked.withValue(Factory(make: { scheduler })) { try await action() }
    }

    /// A scheduler factory that can be bound to a task. Schedulers are shared across threads
    /// by design, so the factory is too.
    private struct Factory: @unchecked Sendable {
        let make: () -> SchedulerType
    }
}

extension SharedSequence {
    /// A shared sequence of one element, then completion, delivered on the sharing scheduler.
    ///
    ///     just(1): -1|
    ///
    /// - Parameter element: The element.
    /// - Returns: The shared sequence.
    public static func just(_ element: Element) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(raw: TraitOperators.subscribe(Observable.just(element), on: SharingStrategy.scheduler))
    }

    /// A shared sequence that completes, on the sharing scheduler, without an element.
    ///
    ///     empty(): -|
    ///
    /// - Returns: The shared sequence.
    public static func empty() -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(raw: TraitOperators.subscribe(Observable.empty(), on: SharingStrategy.scheduler))
    }

    /// A shared sequence that never sends anything.
    ///
    ///     never(): ------
    ///
    /// - Returns: The shared sequence.
    public static func never() -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(raw: Observable.never())
    }

    /// A shared sequence of the given elements, then completion, on the sharing scheduler.
    ///
    ///     of(1, 2, 3): -1-2-3|
    ///
    /// - Parameter elements: The elements.
    /// - Returns: The shared sequence.
    public static func of(_ elements: Element...) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(raw: Observable.from(elements, scheduler: SharingStrategy.scheduler))
    }

    /// A shared sequence of the elements of `array`, then completion, on the sharing scheduler.
    ///
    /// - Parameter array: The elements.
    /// - Returns: The shared sequence.
    public static func from(_ array: [Element]) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(raw: Observable.from(array, scheduler: SharingStrategy.scheduler))
    }

    /// A shared sequence of the elements of `sequence`, then completion, on the sharing
    /// scheduler.
    ///
    /// - Parameter sequence: The elements.
    /// - Returns: The shared sequence.
    public static func from<Source: Sequence>(_ sequence: Source) -> SharedSequence<SharingStrategy, Element> where Source.Element == Element {
        SharedSequence(raw: Observable.from(sequence, scheduler: SharingStrategy.scheduler))
    }

    /// One element if `optional` holds a value, then completion, on the sharing scheduler.
    ///
    /// - Parameter optional: The value, if any.
    /// - Returns: The shared sequence.
    public static func from(optional: Element?) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(raw: Observable.from(optional: optional, scheduler: SharingStrategy.scheduler))
    }

    /// Calls `factory` for each subscription and subscribes to the shared sequence it returns.
    ///
    /// - Parameter factory: Makes a fresh shared sequence per subscription.
    /// - Returns: The deferred shared sequence.
    public static func deferred(_ factory: @escaping () -> SharedSequence<SharingStrategy, Element>) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(Observable.deferred { factory().asObservable() })
    }

    /// Merges the elements of several shared sequences as they arrive.
    ///
    ///     a: --1-----3--|
    ///     b: ----2-----4--|
    ///     merge(a, b)
    ///        --1-2---3-4--|
    ///
    /// - Parameter sources: The shared sequences.
    /// - Returns: The merged shared sequence.
    public static func merge(_ sources: SharedSequence<SharingStrategy, Element>...) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(Observable.merge(sources.map { $0.asObservable() }))
    }

    /// Merges the elements of a collection of shared sequences as they arrive.
    ///
    /// - Parameter sources: The shared sequences.
    /// - Returns: The merged shared sequence.
    public static func merge<Sources: Collection>(_ sources: Sources) -> SharedSequence<SharingStrategy, Element> where Sources.Element == SharedSequence<SharingStrategy, Element> {
        SharedSequence(Observable.merge(sources.map { $0.asObservable() }))
    }
}
