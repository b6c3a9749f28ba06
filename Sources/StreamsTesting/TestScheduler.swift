import Streams

/// A virtual-time scheduler for tests, in RxTest's shape.
///
///     let scheduler = TestScheduler(initialClock: 0)
///     let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .completed(300)])
///     let res = scheduler.start { xs.map { $0 * 10 } }
///     #expect(res.events == [.next(210, 20), .completed(300)])
///     #expect(xs.subscriptions == [Subscription(200, 300)])
///
/// One tick lasts `resolution` seconds (1 by default), so `.seconds(10)` is 10 ticks. With
/// `simulateProcessingDelay` (the default), work scheduled for "now" runs one tick later, as
/// in RxTest.
public final class TestScheduler: VirtualTimeScheduler<IntegerVirtualTimeConverter>, @unchecked Sendable {
    /// RxTest's default times for ``start(created:subscribed:disposed:create:)``.
    public enum Defaults {
        /// When the sequence under test is created.
        public static let created: TestTime = 100
        /// When it is subscribed.
        public static let subscribed: TestTime = 200
        /// When the subscription is disposed.
        public static let disposed: TestTime = 1000
    }

    private let simulateProcessingDelay: Bool

    /// Creates a scheduler.
    ///
    /// - Parameters:
    ///   - initialClock: The starting virtual time.
    ///   - resolution: Seconds per tick.
    ///   - simulateProcessingDelay: Run work scheduled for now (or the past) one tick later.
    public init(initialClock: TestTime, resolution: Double = 1.0, simulateProcessingDelay: Bool = true) {
        self.simulateProcessingDelay = simulateProcessingDelay
        super.init(initialClock: initialClock, converter: IntegerVirtualTimeConverter(resolution: resolution))
    }

    /// Moves work scheduled for now or the past to one tick from now (when simulating delay).
    public override func adjustScheduledTime(_ time: TestTime) -> TestTime {
        time <= clock ? clock + (simulateProcessingDelay ? 1 : 0) : time
    }

    /// Runs `action` at virtual `time`.
    public func scheduleAt(_ time: TestTime, action: @escaping () -> Void) {
        _ = scheduleAbsoluteVirtual((), time: time) { _ in
            action()
            return Disposables.create()
        }
    }

    /// A hot observable that emits `events` at their absolute times, whether subscribed or not.
    public func createHotObservable<Element>(_ events: [Recorded<Event<Element>>]) -> TestableObservable<Element> {
        HotObservable(testScheduler: self, recordedEvents: events)
    }

    /// A cold observable that emits `events` at times relative to each subscription.
    public func createColdObservable<Element>(_ events: [Recorded<Event<Element>>]) -> TestableObservable<Element> {
        ColdObservable(testScheduler: self, recordedEvents: events)
    }

    /// An observer that records every event with the virtual time it arrived.
    public func createObserver<Element>(_ type: Element.Type) -> TestableObserver<Element> {
        TestableObserver(scheduler: self)
    }

    /// Creates the sequence at `created`, subscribes at `subscribed`, disposes at `disposed`,
    /// runs the scheduler, and returns what the observer recorded. The sequence may be an
    /// `Observable` or anything convertible to one: a `Single`, `Maybe` or `Completable` (its
    /// outcome recorded as `next` and `completed`, or `error`), a `Driver`, a subject.
    ///
    /// - Parameters:
    ///   - created: When `create` is called.
    ///   - subscribed: When the observer subscribes.
    ///   - disposed: When the subscription is disposed.
    ///   - create: Makes the sequence under test.
    public func start<Element, OutputSequence: ObservableConvertibleType>(
        created: TestTime, subscribed: TestTime, disposed: TestTime, create: @escaping () -> OutputSequence
    ) -> TestableObserver<Element> where OutputSequence.Element == Element {
        var source: Observable<Element>?
        var subscription: Disposable?
        let observer = createObserver(Element.self)
        _ = scheduleAbsoluteVirtual((), time: created) { _ in
            source = create().asObservable()
            return Disposables.create()
        }
        _ = scheduleAbsoluteVirtual((), time: subscribed) { _ in
            subscription = source?.subscribe(observer)
            return Disposables.create()
        }
        _ = scheduleAbsoluteVirtual((), time: disposed) { _ in
            subscription?.dispose()
            return Disposables.create()
        }
        start()
        return observer
    }

    /// ``start(created:subscribed:disposed:create:)`` with the default creation and
    /// subscription times (100 and 200).
    public func start<Element, OutputSequence: ObservableConvertibleType>(
        disposed: TestTime, create: @escaping () -> OutputSequence
    ) -> TestableObserver<Element> where OutputSequence.Element == Element {
        start(created: Defaults.created, subscribed: Defaults.subscribed, disposed: disposed, create: create)
    }

    /// ``start(created:subscribed:disposed:create:)`` with the default times (100, 200, 1000).
    public func start<Element, OutputSequence: ObservableConvertibleType>(
        _ create: @escaping () -> OutputSequence
    ) -> TestableObserver<Element> where OutputSequence.Element == Element {
        start(created: Defaults.created, subscribed: Defaults.subscribed, disposed: Defaults.disposed, create: create)
    }
}

/// RxTest's name for the converter of ``TestScheduler``: integer ticks of `resolution` seconds.
public typealias TestSchedulerVirtualTimeConverter = IntegerVirtualTimeConverter
