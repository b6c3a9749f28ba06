import Dispatch
import Foundation
import Streams
import StreamsTesting
import TestSupport
import Testing
import Locking

@Suite(.resourceCheck) struct ObserveOnTests {
    @Test func deliversOnTheTestSchedulerOneTickLater() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .next(220, 3), .completed(300)])
        let res = scheduler.start { xs.observe(on: scheduler) }
        #expect(res.events == [.next(211, 2), .next(221, 3), .completed(301)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
    }

    @Test func errorIsDeliveredInOrder() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2), .error(220, testError)])
        let res = scheduler.start { xs.observe(on: scheduler) }
        #expect(res.events == [.next(211, 2), .error(221, testError)])
    }

    @Test func disposalDropsEventsStillQueued() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(299, 2), .completed(300)])
        let res = scheduler.start(disposed: 300) { xs.observe(on: scheduler) }
        #expect(res.events == [.next(211, 1)])
    }

    @Test func serialFastPathKeepsOrderOnTheQueue() {
        let marker = QueueMarker("observe.serial")
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "observe.serial", serialQueueConfiguration: { marker.mark($0) })
        let values = LockedList<Int>()
        let onQueue = LockedList<Bool>()
        let done = TestLatch()
        let subscription = Observable.from(Array(0..<1_000))
            .observe(on: scheduler)
            .subscribe(onNext: { value in
                values.append(value)
                onQueue.append(marker.isCurrent)
            }, onCompleted: { done.fire() })
        #expect(done.wait())
        #expect(values.values == Array(0..<1_000))
        #expect(onQueue.values.allSatisfy { $0 })
        subscription.dispose()
    }

    @Test func concurrentSchedulerKeepsOrderAndNeverOverlaps() {
        let scheduler = ConcurrentDispatchQueueScheduler(qos: .userInitiated)
        let subject = PublishSubject<Int>()
        let values = LockedList<Int>()
        let overlaps = LockedList<Int>()
        let busy = NSLock()
        let done = TestLatch()
        let subscription = subject
            .observe(on: scheduler)
            .subscribe(onNext: { value in
                if !busy.try() { overlaps.append(value) }
                values.append(value)
                busy.unlock()
            }, onCompleted: { done.fire() })
        for value in 0..<2_000 { subject.onNext(value) }
        subject.onCompleted()
        #expect(done.wait())
        #expect(values.values == Array(0..<2_000))
        #expect(overlaps.count == 0)
        subscription.dispose()
    }

    @Test func disposingStopsDeliveryOnTheSerialQueue() {
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "observe.dispose")
        let gate = DispatchSemaphore(value: 0)
        let subject = PublishSubject<Int>()
        let values = LockedList<Int>()
        let subscription = subject.observe(on: scheduler).subscribe(onNext: { values.append($0) })
        _ = scheduler.schedule(()) { _ in gate.wait(); return Disposables.create() }
        subject.onNext(1)
        subscription.dispose()
        gate.signal()
        let flushed = TestLatch()
        _ = scheduler.schedule(()) { _ in flushed.fire(); return Disposables.create() }
        #expect(flushed.wait())
        #expect(values.values.isEmpty)
    }

    @Test func mainSchedulerDeliversWhenDrained() {
        let values = LockedList<Int>()
        let onMain = LockedList<Bool>()
        let subscription = Observable.from([1, 2, 3])
            .subscribe(on: ConcurrentDispatchQueueScheduler(qos: .default))
            .observe(on: MainScheduler.instance)
            .subscribe(onNext: { value in
                values.append(value)
                onMain.append(MainScheduler.isOnMainScheduler)
            })
        #expect(MainScheduler.run(until: { values.count == 3 }, timeout: 10))
        #expect(values.values == [1, 2, 3])
        #expect(onMain.values == [true, true, true])
        subscription.dispose()
    }
}

/// `observe(on:)` on a serial scheduler: one drain per burst, in order, yielding after a
/// bounded batch.
@Suite(.resourceCheck) struct ObserveOnSerialBurstTests {
    @Test func aBurstIsDeliveredByDrainsOfAtMost256AndOtherWorkRunsBetweenThem() {
        let queue = DispatchQueue(label: "observe-on.burst")
        let scheduler = SerialDispatchQueueScheduler(queue: queue, internalSerialQueueName: "observe-on.burst.inner")
        let subject = PublishSubject<Int>()
        let delivered = Locked<[Int]>([])
        let subscription = subject.observe(on: scheduler).subscribe(onNext: { value in delivered.withLock { $0.append(value) } })
        // Hold the queue, send a burst, then put other work behind the first drain.
        let gate = DispatchSemaphore(value: 0)
        _ = scheduler.schedule(()) { _ in gate.wait(); return Disposables.create() }
        for value in 0..<600 { subject.onNext(value) }
        let seenByOtherWork = Locked<Int?>(nil)
        _ = scheduler.schedule(()) { _ in
            seenByOtherWork.withLock { $0 = delivered.withLock { $0.count } }
            return Disposables.create()
        }
        gate.signal()
        let finished = DispatchSemaphore(value: 0)
        _ = scheduler.scheduleRelative((), dueTime: .milliseconds(50)) { _ in finished.signal(); return Disposables.create() }
        #expect(finished.wait(timeout: .now() + 10) == .success)
        // One work item per element would have delivered all 600 before the other work ran.
        #expect(seenByOtherWork.withLock { $0 } == 256)
        #expect(delivered.withLock { $0 } == Array(0..<600))
        subscription.dispose()
    }

    @Test func elementsFromAProducerThreadArriveInOrderAndNeverOverlap() {
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "observe-on.order")
        let producer = DispatchQueue(label: "observe-on.producer")
        let received = Locked<(values: [Int], inside: Int, overlapped: Bool)>(([], 0, false))
        let done = DispatchSemaphore(value: 0)
        let source = Observable<Int>.create { observer in
            producer.async {
                for value in 0..<20_000 { observer.onNext(value) }
                observer.onCompleted()
            }
            return Disposables.create()
        }
        let subscription = source.observe(on: scheduler).subscribe(onNext: { value in
            received.withLock { state in
                if state.inside > 0 { state.overlapped = true }
                state.inside += 1
            }
            received.withLock { state in
                state.values.append(value)
                state.inside -= 1
            }
        }, onCompleted: { done.signal() })
        #expect(done.wait(timeout: .now() + 20) == .success)
        let state = received.withLock { $0 }
        #expect(state.values == Array(0..<20_000))
        #expect(!state.overlapped)
        subscription.dispose()
    }

    @Test func theTerminalEventCountsTowardsADrainsBatch() {
        // 256 elements and the completion wait together: the first drain delivers the 256,
        // the completion is the 257th event and comes after the other work.
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "observe-on.terminal")
        let subject = PublishSubject<Int>()
        let delivered = Locked<[String]>([])
        let done = DispatchSemaphore(value: 0)
        let subscription = subject.observe(on: scheduler).subscribe(
            onNext: { value in delivered.withLock { $0.append("\(value)") } },
            onCompleted: {
                delivered.withLock { $0.append("completed") }
                done.signal()
            })
        let gate = DispatchSemaphore(value: 0)
        _ = scheduler.schedule(()) { _ in gate.wait(); return Disposables.create() }
        for value in 0..<256 { subject.onNext(value) }
        subject.onCompleted()
        _ = scheduler.schedule(()) { _ in
            delivered.withLock { $0.append("other work") }
            return Disposables.create()
        }
        gate.signal()
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(delivered.withLock { $0 } == (0..<256).map { "\($0)" } + ["other work", "completed"])
        subscription.dispose()
    }

    @Test func elementsArrivingDuringADrainWrapAroundTheQueueAndGrowItInOrder() {
        // The first drain takes 256 of 300 waiting elements; while it delivers the last of
        // them, 600 more arrive behind the 44 still waiting, so the waiting elements wrap
        // around the end of the queue's buffer, which then grows with them wrapped.
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "observe-on.wrap")
        let subject = PublishSubject<Int>()
        let delivered = Locked<[Int]>([])
        let done = DispatchSemaphore(value: 0)
        let subscription = subject.observe(on: scheduler).subscribe(onNext: { value in
            delivered.withLock { $0.append(value) }
            if value == 255 {
                for more in 300..<900 { subject.onNext(more) }
                subject.onCompleted()
            }
        }, onCompleted: { done.signal() })
        let gate = DispatchSemaphore(value: 0)
        _ = scheduler.schedule(()) { _ in gate.wait(); return Disposables.create() }
        for value in 0..<300 { subject.onNext(value) }
        gate.signal()
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(delivered.withLock { $0 } == Array(0..<900))
        subscription.dispose()
    }

    @Test func disposingDuringADrainReleasesEveryElementStillWaiting() {
        final class Tracked: Sendable {
            let value: Int
            let live: Locked<Int>
            init(_ value: Int, live: Locked<Int>) {
                self.value = value
                self.live = live
                live.withLock { $0 += 1 }
            }
            deinit { live.withLock { $0 -= 1 } }
        }
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "observe-on.release")
        let subject = PublishSubject<Tracked>()
        let live = Locked(0)
        let delivered = Locked<[Int]>([])
        let subscription = SingleAssignmentDisposable()
        subscription.setDisposable(subject.observe(on: scheduler).subscribe(onNext: { tracked in
            delivered.withLock { $0.append(tracked.value) }
            // In the middle of the first batch: the rest of it and the elements behind it wait.
            if tracked.value == 100 { subscription.dispose() }
        }))
        let gate = DispatchSemaphore(value: 0)
        _ = scheduler.schedule(()) { _ in gate.wait(); return Disposables.create() }
        for value in 0..<600 { subject.onNext(Tracked(value, live: live)) }
        #expect(live.withLock { $0 } == 600)
        gate.signal()
        let flushed = DispatchSemaphore(value: 0)
        _ = scheduler.schedule(()) { _ in flushed.signal(); return Disposables.create() }
        #expect(flushed.wait(timeout: .now() + 10) == .success)
        #expect(delivered.withLock { $0 } == Array(0...100))
        #expect(live.withLock { $0 } == 0)
    }

    @Test func onTheMainSchedulerABurstIsOneDrainAtATimeToo() {
        let subject = PublishSubject<Int>()
        var delivered: [Int] = []
        let subscription = subject.observe(on: MainScheduler.asyncInstance).subscribe(onNext: { delivered.append($0) })
        DispatchQueue.global().sync {
            for value in 0..<300 { subject.onNext(value) }
        }
        var seenByOtherWork: Int?
        DispatchQueue.global().sync {
            _ = MainScheduler.asyncInstance.schedule(()) { _ in seenByOtherWork = delivered.count; return Disposables.create() }
        }
        _ = MainScheduler.drain()
        #expect(seenByOtherWork == 256)
        #expect(delivered == Array(0..<300))
        subscription.dispose()
    }
}

@Suite(.resourceCheck) struct ObserveOnImplementationTests {
    @Test func theSerialImplementationIsChosenForSerialSchedulersOnly() {
        // Tests that subscribe carry `.resourceCheck`, which runs them one at a time, so the
        // process-wide counter moves only with this test's sequences.
        let before = Resources.numberOfSerialDispatchQueueObservables
        var serial: Observable<Int>? = Observable<Int>.never().observe(on: SerialDispatchQueueScheduler(internalSerialQueueName: "observe-on.choice"))
        #expect(Resources.numberOfSerialDispatchQueueObservables == before + 1)
        var concurrent: Observable<Int>? = Observable<Int>.never().observe(on: ConcurrentDispatchQueueScheduler(qos: .default))
        #expect(Resources.numberOfSerialDispatchQueueObservables == before + 1)
        let subscriptions = [serial?.subscribe(), concurrent?.subscribe()]
        subscriptions.forEach { $0?.dispose() }
        serial = nil
        concurrent = nil
        #expect(Resources.numberOfSerialDispatchQueueObservables == before)
    }
}
