import Dispatch
import Foundation
import Streams
import Synchronization
import TestSupport
import Testing

/// Several threads emit into, subscribe to and dispose from subjects, `Variable`, `merge` and
/// `share(replay:)` at once. Every test checks the promises that hold under concurrency:
///
/// - an observer subscribed for the whole run receives every element exactly once, each
///   producer's elements in the order that producer sent them, and one terminal event, last;
/// - an observer that joins and leaves mid-run sees, for each producer, a contiguous and
///   strictly increasing run of that producer's sequence numbers (plus what the subject replays);
/// - no observer is ever called concurrently (an atomic in-flight counter per subscription).
///
/// Iteration counts are bounded so that the whole suite takes a few seconds on two cores in a
/// debug build (and stays usable under `--sanitize=thread`).
@Suite(.resourceCheck, .serialized) struct StressTests {
    /// Elements each producer sends.
    static let elementsPerProducer = 60_000
    /// Threads that emit.
    static let producers = 2
    /// Threads that subscribe, watch a few elements and dispose, in a loop.
    static let churners = 2
    /// Subscriptions each churner makes.
    static let subscriptionsPerChurner = 2_000
    /// Subscribe–receive–dispose cycles each churner makes on a `share(replay:)` whose last
    /// observer keeps leaving (20 000 found a reconnection race in `refCount` in about 100 s;
    /// the suite runs fewer to stay quick).
    static let reconnectionsPerChurner = 500

    @Test func publishSubject() throws {
        let subject = PublishSubject<Tagged>()
        try runSubjectStress(
            subject: subject.asObservable(),
            emit: { subject.onNext($0) },
            complete: { subject.onCompleted() }
        )
    }

    @Test func behaviorSubject() throws {
        let subject = BehaviorSubject(value: Tagged.initial)
        try runSubjectStress(
            subject: subject.asObservable(),
            emit: { subject.onNext($0) },
            complete: { subject.onCompleted() }
        )
    }

    @Test func replaySubject() throws {
        let subject = ReplaySubject<Tagged>.create(bufferSize: 3)
        try runSubjectStress(
            subject: subject.asObservable(),
            emit: { subject.onNext($0) },
            complete: { subject.onCompleted() }
        )
    }

    @Test func variable() throws {
        let variable = AsyncTestBox<Variable<Tagged>?>(Variable(Tagged.initial))
        let observable = variable.value!.asObservable()
        try runSubjectStress(
            subject: observable,
            emit: { element in variable.value?.value = element },
            complete: { variable.update { $0 = nil } }
        )
    }

    @Test func mergeOfConcurrentSources() throws {
        let sources = (0..<Self.producers).map { _ in PublishSubject<Tagged>() }
        let merged = Observable.merge(sources.map { $0.asObservable() })
        let full = StressObserver()
        let fullSubscription = merged.subscribe(full)
        let churnRuns = AsyncTestBox<[[Tagged]]>([])
        let producersDone = AtomicBox()

        let elapsed = measure {
            runConcurrently(Self.producers + Self.churners) { role in
                if role < Self.producers {
                    for sequence in 0..<Self.elementsPerProducer {
                        sources[role].onNext(Tagged(producer: role, sequence: sequence))
                    }
                    producersDone.increment()
                } else {
                    let runs = churn(merged, until: { producersDone.value == Self.producers })
                    churnRuns.update { $0 += runs }
                }
            }
            runConcurrently(Self.producers) { sources[$0].onCompleted() }
        }
        fullSubscription.dispose()

        try full.expectComplete(producers: Self.producers, count: Self.elementsPerProducer)
        for run in churnRuns.value { expectContiguous(run) }
        #expect(full.maxInFlight == 1)
        print("Stress merge: \(elapsed)")
    }

    @Test func shareReplayWithAConnectedObserver() throws {
        let subject = PublishSubject<Tagged>()
        let shared = subject.share(replay: 1)
        try runSubjectStress(
            subject: shared,
            emit: { subject.onNext($0) },
            complete: { subject.onCompleted() }
        )
    }

    @Test func shareReplayReconnectsUnderChurn() throws {
        let subject = PublishSubject<Tagged>()
        let shared = subject.share(replay: 1)
        let churnersDone = AtomicBox()
        let starved = AtomicBox()
        let churnRuns = AsyncTestBox<[[Tagged]]>([])
        let churners = Self.churners

        let elapsed = measure {
            runConcurrently(1 + churners) { role in
                if role == 0 {
                    // Emits until every churner is done, so each subscription can expect elements.
                    var sequence = 0
                    while churnersDone.value < churners {
                        subject.onNext(Tagged(producer: 0, sequence: sequence))
                        sequence += 1
                        if sequence % 64 == 0 { sched_yield() }
                    }
                } else {
                    var runs: [[Tagged]] = []
                    for _ in 0..<Self.reconnectionsPerChurner {
                        // Each subscription may connect, join or (racing a leaving one) find the
                        // connection being torn down; in every case it must receive elements.
                        let observer = StressObserver()
                        let subscription = shared.subscribe(observer)
                        let deadline = ContinuousClock.now + .seconds(5)
                        while observer.count < 2, ContinuousClock.now < deadline { sched_yield() }
                        if observer.count < 2 { starved.increment() }
                        subscription.dispose()
                        #expect(observer.maxInFlight <= 1, "an observer was called concurrently")
                        runs.append(observer.elements)
                    }
                    churnRuns.update { $0 += runs }
                    churnersDone.increment()
                }
            }
        }
        #expect(starved.value == 0, "\(starved.value) subscriptions received nothing for 5 s while the source was emitting")
        for run in churnRuns.value { expectContiguous(run) }
        #expect(!subject.hasObservers, "every churned subscription left, so the source is disconnected")

        // After all that connecting and disconnecting, a new observer must still be served.
        let late = StressObserver()
        let subscription = shared.subscribe(late)
        subject.onNext(Tagged(producer: 9, sequence: 0))
        #expect(late.elements == [Tagged(producer: 9, sequence: 0)])
        subscription.dispose()
        print("Stress share(replay:) reconnecting: \(elapsed), \(churnRuns.value.count) subscriptions")
    }

    @Test func subscribeDoesNotChaseAFastProducer() throws {
        // A replay slower than the producer: before the fix, the new subscriber delivered what
        // the producer emitted during its replay, then what it emitted meanwhile, and so on,
        // and `subscribe` returned only when the producer stopped.
        let subject = ReplaySubject<Tagged>.create(bufferSize: 100)
        for sequence in 0..<100 { subject.onNext(Tagged(producer: 0, sequence: sequence)) }
        let subscribersDone = AtomicBox()
        let emitted = AtomicBox()
        let cap = 1_000_000
        let subscriptions = 50
        let runs = AsyncTestBox<[[Tagged]]>([])

        runConcurrently(2) { role in
            if role == 0 {
                var sequence = 100
                while subscribersDone.value == 0, sequence < cap {
                    subject.onNext(Tagged(producer: 0, sequence: sequence))
                    sequence += 1
                    emitted.increment()
                }
            } else {
                var finished: [[Tagged]] = []
                for _ in 0..<subscriptions {
                    let observer = StressObserver()
                    let slow = SlowObserver(observer)
                    let subscription = subject.subscribe(slow)
                    slow.keepsPace.increment()
                    subscription.dispose()
                    #expect(observer.maxInFlight <= 1, "an observer was called concurrently")
                    finished.append(observer.elements)
                }
                runs.update { $0 += finished }
                subscribersDone.increment()
            }
        }
        #expect(emitted.value < cap - 100, "a subscribe call lasted until the producer gave up (\(emitted.value) events)")
        #expect(runs.value.count == subscriptions)
        for run in runs.value {
            #expect(run.count >= 100, "each subscriber receives at least its replay")
            expectContiguous(run)
        }
    }

    // MARK: - Engine

    /// Producers emit into `subject` while churners subscribe and dispose; one observer is
    /// subscribed for the whole run; then every producer thread completes the subject at once.
    private func runSubjectStress(
        subject: Observable<Tagged>,
        emit: @escaping @Sendable (Tagged) -> Void,
        complete: @escaping @Sendable () -> Void,
        name: String = #function
    ) throws {
        let full = StressObserver()
        let fullSubscription = subject.subscribe(full)
        let producersDone = AtomicBox()
        let churnRuns = AsyncTestBox<[[Tagged]]>([])
        let disposer = HandOff()
        let emitted = AtomicBox()

        let elapsed = measure {
            // Roles: producers, churners, and one thread that disposes subscriptions made on
            // other threads.
            runConcurrently(Self.producers + Self.churners + 1) { role in
                if role < Self.producers {
                    for sequence in 0..<Self.elementsPerProducer {
                        emit(Tagged(producer: role, sequence: sequence))
                        emitted.increment()
                        if sequence % 256 == 0 { awaitBacklog(emitted: emitted, delivered: full) }
                    }
                    producersDone.increment()
                } else if role < Self.producers + Self.churners {
                    let runs = churn(subject, until: { producersDone.value == Self.producers }, handOff: disposer)
                    churnRuns.update { $0 += runs }
                } else {
                    disposer.disposeUntil { producersDone.value == Self.producers }
                }
            }
            disposer.disposeRemaining()
            runConcurrently(Self.producers) { _ in complete() }
        }
        fullSubscription.dispose()

        try full.expectComplete(producers: Self.producers, count: Self.elementsPerProducer)
        #expect(full.maxInFlight == 1)
        let runs = churnRuns.value + disposer.runs
        #expect(!runs.isEmpty)
        for run in runs { expectContiguous(run) }
        print("Stress \(name): \(elapsed), \(runs.count) churned subscriptions")
    }

    /// Subscribes, waits for a few elements (or the end of production), disposes — or hands
    /// every other subscription to `handOff` to be disposed on another thread — and returns
    /// what each subscription saw.
    private func churn(_ source: Observable<Tagged>, until done: () -> Bool, handOff: HandOff? = nil) -> [[Tagged]] {
        var runs: [[Tagged]] = []
        for index in 0..<Self.subscriptionsPerChurner {
            let observer = StressObserver()
            let subscription = source.subscribe(observer)
            var spins = 0
            // Wait for a few live elements (a replaying subject sends up to three at once).
            while observer.count < 6, !done(), spins < 20 {
                spins += 1
                sched_yield()
            }
            if let handOff, index % 2 == 0 {
                handOff.hand(subscription, observer)
                // Keep the number of live subscriptions bounded while the disposer catches up.
                while handOff.pendingCount > 4, !done() { sched_yield() }
            } else {
                subscription.dispose()
                #expect(observer.maxInFlight <= 1, "an observer was called concurrently")
                runs.append(observer.elements)
            }
            if done() && index > 10 { break }
        }
        return runs
    }

    /// Lets delivery catch up when producers run far ahead of it: a subject never blocks an
    /// emitter, it queues, so without this one thread would deliver everything at the end and
    /// the churners would rarely overlap with delivery.
    private func awaitBacklog(emitted: AtomicBox, delivered: StressObserver) {
        var spins = 0
        while emitted.value - delivered.count > 1_024, spins < 100_000 {
            spins += 1
            sched_yield()
        }
    }

    private func measure(_ body: () -> Void) -> Duration {
        ContinuousClock().measure(body)
    }
}

/// Runs `body(0) … body(count - 1)` at once, each on its own thread (unlike
/// `DispatchQueue.concurrentPerform`, whose width is the number of cores, so that every role
/// really overlaps), and returns when all have finished.
private func runConcurrently(_ count: Int, _ body: @escaping (Int) -> Void) {
    let shared = UncheckedBox(body)
    let group = DispatchGroup()
    for index in 0..<count {
        group.enter()
        let thread = Thread {
            shared.value(index)
            group.leave()
        }
        thread.stackSize = 1 << 20
        thread.start()
    }
    let finished = group.wait(timeout: .now() + 120)
    precondition(finished == .success, "a stress role did not finish in two minutes")
}

/// Lets a closure cross to the role threads; `runConcurrently` waits for them before returning.
private struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// An element: which producer sent it, and its position in that producer's sequence.
struct Tagged: Equatable, Sendable, CustomStringConvertible {
    static let initial = Tagged(producer: -1, sequence: 0)
    let producer: Int
    let sequence: Int
    var description: String { "\(producer):\(sequence)" }
}

/// Expects each producer's elements in `run` to be contiguous and strictly increasing (what a
/// subject replays is the end of the same order, so it keeps the run contiguous), with at most
/// one initial value first.
private func expectContiguous(_ run: [Tagged], sourceLocation: SourceLocation = #_sourceLocation) {
    var last: [Int: Int] = [:]
    for element in run where element.producer >= 0 {
        if let previous = last[element.producer] {
            if element.sequence != previous + 1 {
                Issue.record("producer \(element.producer): \(element.sequence) after \(previous) in \(run.prefix(20))…", sourceLocation: sourceLocation)
                return
            }
        }
        last[element.producer] = element.sequence
    }
    let initialCount = run.prefix { $0.producer < 0 }.count
    #expect(initialCount <= 1, sourceLocation: sourceLocation)
}

/// Records the events of one subscription and detects concurrent calls.
final class StressObserver: ObserverType, @unchecked Sendable {
    typealias Element = Tagged
    private let inFlight = Atomic<Int>(0)
    private let maxSeen = Atomic<Int>(0)
    // `on` is never called concurrently (the in-flight counter checks that), but a test thread
    // may read while a late delivery is still running after `dispose()` returned.
    private let lock = NSLock()
    private var recorded: [Tagged] = []
    private var stopEvents: [String] = []

    func on(_ event: Event<Tagged>) {
        let now = inFlight.add(1, ordering: .acquiringAndReleasing).newValue
        maxSeen.max(now, ordering: .relaxed)
        switch event {
        case .next(let element):
            lock.withLock { recorded.append(element) }
        case .error(let error):
            lock.withLock { stopEvents.append("error \(error)") }
        case .completed:
            lock.withLock { stopEvents.append("completed") }
        }
        inFlight.subtract(1, ordering: .acquiringAndReleasing)
    }

    var count: Int { lock.withLock { recorded.count } }
    var maxInFlight: Int { maxSeen.load(ordering: .relaxed) }
    var elements: [Tagged] { lock.withLock { recorded } }
    var stops: [String] { lock.withLock { stopEvents } }

    /// Expects every producer's `count` elements exactly once and in order, then one completion.
    func expectComplete(producers: Int, count: Int, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let elements = self.elements
        let produced = elements.filter { $0.producer >= 0 }
        try #require(produced.count == producers * count, "received \(produced.count) of \(producers * count)", sourceLocation: sourceLocation)
        for producer in 0..<producers {
            let sequence = produced.filter { $0.producer == producer }.map(\.sequence)
            try #require(sequence == Array(0..<count), "producer \(producer) out of order, lost or duplicated", sourceLocation: sourceLocation)
        }
        #expect(stops == ["completed"], sourceLocation: sourceLocation)
    }
}

/// A counter shared by the roles of a run.
final class AtomicBox: Sendable {
    private let counter = Atomic<Int>(0)
    var value: Int { counter.load(ordering: .acquiring) }
    func increment() { counter.add(1, ordering: .acquiringAndReleasing) }
}

/// Subscriptions made on one thread and disposed on another.
final class HandOff: @unchecked Sendable {
    private let lock = NSLock()
    private var queue: [(Disposable, StressObserver)] = []
    private var finished: [[Tagged]] = []

    func hand(_ subscription: Disposable, _ observer: StressObserver) {
        lock.withLock { queue.append((subscription, observer)) }
    }

    var pendingCount: Int { lock.withLock { queue.count } }

    func disposeUntil(_ done: () -> Bool) {
        while !done() {
            if !disposeOne() { sched_yield() }
        }
    }

    func disposeRemaining() {
        while disposeOne() {}
    }

    private func disposeOne() -> Bool {
        guard let (subscription, observer) = lock.withLock({ queue.isEmpty ? nil : queue.removeFirst() }) else { return false }
        subscription.dispose()
        #expect(observer.maxInFlight <= 1, "an observer was called concurrently")
        let elements = observer.elements
        lock.withLock { finished.append(elements) }
        return true
    }

    var runs: [[Tagged]] { lock.withLock { finished } }
}

/// Spins about 2 µs per event until `keepsPace` is incremented: slower than an emitter, so a
/// subscriber that tried to catch up on its own would never finish.
final class SlowObserver: ObserverType, @unchecked Sendable {
    typealias Element = Tagged
    let keepsPace = AtomicBox()
    private let inner: StressObserver

    init(_ inner: StressObserver) { self.inner = inner }

    func on(_ event: Event<Tagged>) {
        if keepsPace.value == 0 {
            let end = ContinuousClock.now + .microseconds(2)
            while ContinuousClock.now < end {}
        }
        inner.on(event)
    }
}
