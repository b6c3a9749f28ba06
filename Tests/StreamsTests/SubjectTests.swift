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
    /// The time limit only catches a hang. It counts from when the test is scheduled, so it also
    /// covers waiting for a test thread: under AddressSanitizer on 2 cores the load-hardening
    /// tests hold both for about a minute, and this test then waited over 60 s before running.
    @Test(.timeLimit(.minutes(3))) func subscribeReturnsWhileAnotherThreadEmitsNonStop() {
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
        for _ in 0..<200 {
            let seen = LockedArray()
            let subscription = subject.subscribe(onNext: { seen.append($0) })
            #expect(!seen.values.isEmpty, "the replay is delivered before subscribe returns")
            let deadline = Date().addingTimeInterval(10)
            while seen.values.count < 3, Date() < deadline { sched_yield() }
            subscription.dispose()
            #expect(seen.values.count >= 3, "the subscriber kept receiving while the producer emitted")
            let values = seen.values
            #expect(zip(values, values.dropFirst()).allSatisfy { $1 == $0 + 1 }, "a run with a gap or out of order: \(values.prefix(10))")
        }
        stop.set()
        #expect(producerDone.wait(timeout: .now() + 30) == .success)
        keepAlive.dispose()
    }
}

private final class ManagedFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}

private final class LockedArray: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [Int] = []
    var values: [Int] { lock.withLock { storage } }
    func append(_ value: Int) { lock.withLock { storage.append(value) } }
}
