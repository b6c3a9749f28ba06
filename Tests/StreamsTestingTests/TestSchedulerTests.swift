import Foundation
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

/// RxTest's spellings: `start` with a trait, a driver or a subject; `Recorded.completed` and
/// `.error` with the element type spelled out; the converter's RxTest name.
@Suite(.resourceCheck) struct TestSchedulerRxTestSpellingTests {
    @Test func startTakesASingleAndRecordsItsOutcomeAsEvents() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 7), .completed(20)])
        let res = scheduler.start { xs.asSingle() }
        #expect(res.events == [.next(220, 7), .completed(220)])
        let failing = TestScheduler(initialClock: 0).start { Single<Int>.error(TestError.boom) }
        #expect(failing.events == [.error(200, TestError.boom)])
    }

    @Test func startTakesAMaybeAndACompletable() {
        let scheduler = TestScheduler(initialClock: 0)
        let empty = scheduler.start { Maybe<String>.empty() }
        #expect(empty.events == [.completed(200)])
        let done = TestScheduler(initialClock: 0).start { Completable.empty() }
        #expect(done.events == [.completed(200, Never.self)])
    }

    @Test func startTakesADriverAndASubject() {
        let scheduler = TestScheduler(initialClock: 0)
        let subject = BehaviorSubject(value: 1)
        let res = scheduler.start { subject }
        #expect(res.events == [.next(200, 1)])
        let driverScheduler = TestScheduler(initialClock: 0)
        var driver: TestableObserver<String>?
        SharingScheduler.mock(scheduler: driverScheduler) {
            driver = driverScheduler.start { Driver.just("d") }
        }
        #expect(driver?.events == [.next(201, "d"), .completed(201)])
    }

    @Test func recordedTerminalEventsNameTheirElementType() {
        let completed = Recorded.completed(300, Int.self)
        let failed = Recorded.error(300, TestError.boom, String.self)
        #expect(completed == Recorded<Event<Int>>(time: 300, value: .completed))
        #expect(failed == Recorded<Event<String>>(time: 300, value: .error(TestError.boom)))
        #expect(failed != Recorded<Event<String>>(time: 300, value: .error(TestError.code(1))))
    }

    @Test func theConverterConvertsSecondsToTicks() {
        let converter = TestSchedulerVirtualTimeConverter(resolution: 0.001)
        let seconds: Foundation.TimeInterval = 0.25
        #expect(converter.convertToVirtualTimeInterval(seconds) == 250)
        #expect(converter.convertFromVirtualTimeInterval(250) == 0.25)
    }

    @Test func maybeAndCompletableOutcomesAreEquatable() {
        #expect(MaybeEvent.success(1) == .success(1))
        #expect(MaybeEvent.success(1) != .success(2))
        #expect(MaybeEvent<Int>.completed != .success(1))
        #expect(MaybeEvent<Int>.error(TestError.boom) == .error(TestError.boom))
        #expect(CompletableEvent.completed == .completed)
        #expect(CompletableEvent.error(TestError.boom) != .error(TestError.code(2)))
        #expect(CompletableEvent.error(TestError.boom) != .completed)
    }
}
