import Dispatch
import Foundation
import Streams
import StreamsTesting
import TestSupport
import Testing

@Suite(.resourceCheck) struct SubjectTests {
    @Test func publishSubjectSendsOnlyLaterEvents() {
        let subject = PublishSubject<Int>()
        var a: [Int] = []
        var b: [Int] = []
        let sa = subject.subscribe(onNext: { a.append($0) })
        subject.onNext(1)
        let sb = subject.subscribe(onNext: { b.append($0) })
        subject.onNext(2)
        sa.dispose()
        subject.onNext(3)
        sb.dispose()
        #expect(a == [1, 2])
        #expect(b == [2, 3])
        #expect(!subject.hasObservers)
    }

    @Test func publishSubjectAfterCompletionSendsTheStopEvent() {
        let subject = PublishSubject<Int>()
        subject.onNext(1)
        subject.onCompleted()
        subject.onNext(2)
        var events: [Event<Int>] = []
        _ = subject.subscribe { events.append($0) }
        #expect(events == [.completed])
    }

    @Test func behaviorSubjectReplaysCurrentValueAndThrowsAfterError() throws {
        let subject = BehaviorSubject(value: 0)
        var events: [Event<Int>] = []
        subject.onNext(1)
        let subscription = subject.subscribe { events.append($0) }
        subject.onNext(2)
        #expect(try subject.value() == 2)
        subject.onError(testError)
        #expect(events == [.next(1), .next(2), .error(testError)])
        #expect(throws: TestError.self) { try subject.value() }
        subscription.dispose()
    }

    @Test func replaySubjectReplaysTheBufferEvenAfterCompletion() {
        let subject = ReplaySubject<Int>.create(bufferSize: 2)
        subject.onNext(1)
        subject.onNext(2)
        subject.onNext(3)
        subject.onCompleted()
        var events: [Event<Int>] = []
        _ = subject.subscribe { events.append($0) }
        #expect(events == [.next(2), .next(3), .completed])

        let unbounded = ReplaySubject<Int>.createUnbounded()
        for i in 0..<100 { unbounded.onNext(i) }
        var all: [Int] = []
        let subscription = unbounded.subscribe(onNext: { all.append($0) })
        #expect(all == Array(0..<100))
        subscription.dispose()
    }

    @Test func asyncSubjectSendsTheLastElementOnCompletion() {
        let subject = AsyncSubject<Int>()
        var events: [Event<Int>] = []
        let subscription = subject.subscribe { events.append($0) }
        subject.onNext(1)
        subject.onNext(2)
        #expect(events.isEmpty)
        subject.onCompleted()
        #expect(events == [.next(2), .completed])
        var late: [Event<Int>] = []
        _ = subject.subscribe { late.append($0) }
        #expect(late == [.next(2), .completed])
        subscription.dispose()
    }

    @Test func reentrantEmissionIsDeliveredInOrderToEveryObserver() {
        let subject = PublishSubject<Int>()
        var a: [Int] = []
        var b: [Int] = []
        let sa = subject.subscribe(onNext: { value in
            a.append(value)
            if value == 1 { subject.onNext(2) }
        })
        let sb = subject.subscribe(onNext: { b.append($0) })
        subject.onNext(1)
        #expect(a == [1, 2])
        #expect(b == [1, 2])
        sa.dispose()
        sb.dispose()
    }

    @Test func variableEmitsCurrentValueAndCompletesOnDeinit() {
        var variable: Variable<String>? = Variable("Margherita")
        var events: [Event<String>] = []
        let subscription = variable!.asObservable().subscribe { events.append($0) }
        variable!.value = "Marinara"
        #expect(variable!.value == "Marinara")
        variable = nil
        #expect(events == [.next("Margherita"), .next("Marinara"), .completed])
        subscription.dispose()
    }

    @Test func relaysNeverEnd() {
        let relay = BehaviorRelay(value: 1)
        var seen: [Int] = []
        let subscription = relay.subscribe(onNext: { seen.append($0) })
        relay.accept(2)
        #expect(relay.value == 2)
        let publish = PublishRelay<Int>()
        let s2 = publish.subscribe(onNext: { seen.append($0) })
        publish.accept(3)
        #expect(seen == [1, 2, 3])
        subscription.dispose()
        s2.dispose()
    }

    /// A subject deallocated while observers are still subscribed lets go of them (their
    /// subscriptions hold the subject's core, which holds them, until then).
    @Test func aDeallocatedSubjectReleasesItsObservers() {
        let before = Resources.total
        weak var released: AnyObject?
        do {
            let publish = PublishSubject<Int>()
            let behavior = BehaviorSubject(value: 0)
            let replay = ReplaySubject<Int>.create(bufferSize: 1)
            let async = AsyncSubject<Int>()
            final class Owner {}
            let owner = Owner()
            released = owner
            _ = publish.subscribe(onNext: { _ in _ = owner })
            _ = behavior.subscribe(onNext: { _ in _ = owner })
            _ = replay.subscribe(onNext: { _ in _ = owner })
            _ = async.subscribe(onNext: { _ in _ = owner })
            publish.onNext(1)
            #expect(Resources.total > before)
        }
        #expect(released == nil)
        #expect(Resources.total == before)
    }

    /// A subscription kept after its subject was deallocated can still be disposed.
    @Test func aSubscriptionOutlivingItsSubjectDisposes() {
        var subject: PublishSubject<Int>? = PublishSubject()
        var seen: [Int] = []
        let subscription = subject?.subscribe(onNext: { seen.append($0) })
        subject?.onNext(1)
        subject = nil
        subscription?.dispose()
        subscription?.dispose()
        #expect(seen == [1])
    }
}

@Suite(.resourceCheck) struct SubjectSubscribeUnderLoadTests {
    /// A subscriber must not be captured into delivering other observers' events: with a
    /// producer emitting non-stop on another thread, every `subscribe` returns after delivering
    /// the replay itself, and each subscriber sees a gap-free, ordered run.
    ///
    /// A hang is caught by a deadline measured from when the subscribing starts, not by a test
    /// time limit: Swift Testing counts a time limit from when the test is scheduled, so it
    /// also counted the minutes this test waited for the leak-checked suites ahead of it, and
    /// a whole run of 218 s on a loaded machine exceeded its 180 s without any hang. The
    /// subscribing runs on a thread of its own; if it has not finished within the deadline,
    /// the test fails and stops the producer, which frees a captured subscriber.
    @Test func subscribeReturnsWhileAnotherThreadEmitsNonStop() {
        let subject = ReplaySubject<Int>.create(bufferSize: 1)
        let started = ManagedFlag()
        let keepAlive = subject.subscribe(onNext: { _ in started.set() })
        let stop = ManagedFlag()
        let producerDone = DispatchSemaphore(value: 0)
        let producer = Thread {
            var value = 0
            while !stop.isSet {
                subject.onNext(value)
                value += 1
            }
            producerDone.signal()
        }
        producer.start()
        let startDeadline = Date().addingTimeInterval(20)
        while !started.isSet, Date() < startDeadline { sched_yield() }

        let failures = LockedStrings()
        let subscribingDone = DispatchSemaphore(value: 0)
        let subscriber = Thread {
            for round in 0..<200 {
                let seen = LockedArray()
                let subscription = subject.subscribe(onNext: { seen.append($0) })
                if seen.values.isEmpty { failures.append("round \(round): the replay was not delivered before subscribe returned") }
                let deadline = Date().addingTimeInterval(10)
                while seen.values.count < 3, Date() < deadline { sched_yield() }
                subscription.dispose()
                let values = seen.values
                if values.count < 3 { failures.append("round \(round): the subscriber stopped receiving while the producer emitted") }
                if !zip(values, values.dropFirst()).allSatisfy({ $1 == $0 + 1 }) {
                    failures.append("round \(round): a run with a gap or out of order: \(values.prefix(10))")
                }
            }
            subscribingDone.signal()
        }
        subscriber.start()
        let finished = subscribingDone.wait(timeout: .now() + 120) == .success
        #expect(finished, "200 subscriptions did not finish within 120 s: a subscribe is captured into delivering")
        stop.set()
        #expect(producerDone.wait(timeout: .now() + 30) == .success)
        if !finished { _ = subscribingDone.wait(timeout: .now() + 30) }
        #expect(failures.values.isEmpty, "\(failures.values.prefix(5))")
        keepAlive.dispose()
    }
}

private final class ManagedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}

private final class LockedStrings: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [String] = []
    var values: [String] { lock.withLock { storage } }
    func append(_ value: String) { lock.withLock { storage.append(value) } }
}

private final class LockedArray: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [Int] = []
    var values: [Int] { lock.withLock { storage } }
    func append(_ value: Int) { lock.withLock { storage.append(value) } }
}
