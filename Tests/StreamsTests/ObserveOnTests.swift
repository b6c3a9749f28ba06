import Dispatch
import Foundation
import Streams
import StreamsTesting
import TestSupport
import Testing

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
        let done = Signal()
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
        let done = Signal()
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
        let flushed = Signal()
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
