import Dispatch
import Foundation
import Streams
import StreamsTesting
import TestSupport
import Testing

@Suite(.resourceCheck) struct SubscribeOnTests {
    @Test func subscribesAndDisposesOnTheTestScheduler() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2), .completed(300)])
        let res = scheduler.start { xs.subscribe(on: scheduler) }
        #expect(res.events == [.next(210, 2), .completed(300)])
        #expect(xs.subscriptions == [Subscription(201, 301)])
    }

    @Test func disposalBeforeTheSubscriptionRunsNeverSubscribes() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 2)])
        let res = scheduler.start(created: 100, subscribed: 200, disposed: 200) { xs.subscribe(on: scheduler) }
        #expect(res.events.isEmpty)
        #expect(xs.subscriptions.isEmpty)
    }

    @Test func subscriptionSideEffectsRunOnTheQueue() {
        let marker = QueueMarker("subscribe.on")
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "subscribe.on", serialQueueConfiguration: { marker.mark($0) })
        let subscribedOnQueue = LockedList<Bool>()
        let disposedOnQueue = LockedList<Bool>()
        let disposed = Signal()
        let values = LockedList<Int>()
        let received = Signal()
        let source = Observable<Int>.create { observer in
            subscribedOnQueue.append(marker.isCurrent)
            observer.onNext(7)
            return Disposables.create {
                disposedOnQueue.append(marker.isCurrent)
                disposed.fire()
            }
        }
        let subscription = source.subscribe(on: scheduler).subscribe(onNext: { value in
            values.append(value)
            received.fire()
        })
        #expect(received.wait())
        subscription.dispose()
        #expect(disposed.wait())
        #expect(values.values == [7])
        #expect(subscribedOnQueue.values == [true])
        #expect(disposedOnQueue.values == [true])
    }
}

extension SubscribeOnTests {
    @Test func errorDisposesOnTheSchedulerToo() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs: TestableObservable<Int> = scheduler.createHotObservable([.error(300, testError)])
        let res = scheduler.start { xs.subscribe(on: scheduler) }
        #expect(res.events == [.error(300, testError)])
        #expect(xs.subscriptions == [Subscription(201, 301)])
    }

    @Test func disposalRunsOnTheScheduler() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .next(210, 2)])
        let res = scheduler.start { xs.subscribe(on: scheduler) }
        #expect(res.events == [.next(210, 2)])
        #expect(xs.subscriptions == [Subscription(201, 1001)])
    }
}
