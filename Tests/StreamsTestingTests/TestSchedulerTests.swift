import Streams
import StreamsTesting
import TestSupport
import Testing

@Suite(.resourceCheck) struct TestSchedulerTests {
    @Test func coldObservableTimesAreRelativeToEachSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, "a"), .completed(20)])
        let res = scheduler.start { xs.asObservable() }
        #expect(res.events == [.next(210, "a"), .completed(220)])
        #expect(xs.subscriptions == [Subscription(200, 220)])
    }

    @Test func hotObservableEventsBeforeSubscriptionAreMissed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 1), .next(250, 2)])
        let res = scheduler.start(created: 100, subscribed: 200, disposed: 300) { xs.asObservable() }
        #expect(res.events == [.next(250, 2)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
    }

    @Test func workScheduledForNowRunsOneTickLater() {
        let scheduler = TestScheduler(initialClock: 0)
        var ranAt: [TestTime] = []
        scheduler.scheduleAt(10) {
            _ = scheduler.schedule(()) { _ in
                ranAt.append(scheduler.clock)
                return Disposables.create()
            }
        }
        _ = scheduler.scheduleRelative((), dueTime: .seconds(5)) { _ in
            ranAt.append(scheduler.clock)
            return Disposables.create()
        }
        scheduler.start()
        #expect(ranAt == [5, 11])
    }

    @Test func advanceToRunsOnlyDueWork() {
        let scheduler = TestScheduler(initialClock: 0)
        var log: [Int] = []
        scheduler.scheduleAt(10) { log.append(10) }
        scheduler.scheduleAt(20) { log.append(20) }
        scheduler.advanceTo(15)
        #expect(log == [10])
        #expect(scheduler.clock == 15)
        scheduler.start()
        #expect(log == [10, 20])
    }
}
