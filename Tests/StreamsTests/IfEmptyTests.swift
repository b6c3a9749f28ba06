import Streams
import StreamsTesting
import TestSupport
import Testing

@Suite(.resourceCheck) struct IfEmptyTests {
    @Test func defaultIfEmptySendsTheDefaultForAnEmptySource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.completed(250)] as [Recorded<Event<Int>>])
        let res = scheduler.start { xs.defaultIfEmpty(7) }
        #expect(res.events == [.next(250, 7), .completed(250)])
        #expect(xs.subscriptions == [Subscription(200, 250)])

        let named = TestScheduler(initialClock: 0)
        let ys = named.createHotObservable([.completed(260)] as [Recorded<Event<Int>>])
        let rxName = named.start { ys.ifEmpty(default: 8) }
        #expect(rxName.events == [.next(260, 8), .completed(260)])
    }

    @Test func defaultIfEmptyPassesANonEmptySource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
        let res = scheduler.start { xs.defaultIfEmpty(7) }
        #expect(res.events == [.next(210, 1), .next(220, 2), .completed(300)])
    }

    @Test func defaultIfEmptyPassesErrorsAndStopsOnDisposal() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.error(230, testError)] as [Recorded<Event<Int>>])
        let res = scheduler.start { xs.defaultIfEmpty(7) }
        #expect(res.events == [.error(230, testError)])
        #expect(xs.subscriptions == [Subscription(200, 230)])

        let later = TestScheduler(initialClock: 0)
        let ys = later.createHotObservable([.completed(600)] as [Recorded<Event<Int>>])
        let cut = later.start(disposed: 400) { ys.defaultIfEmpty(7) }
        #expect(cut.events == [])
        #expect(ys.subscriptions == [Subscription(200, 400)])
    }

    @Test func switchToSubscribesTheOtherWhenEmpty() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.completed(250)] as [Recorded<Event<Int>>])
        let other = scheduler.createColdObservable([.next(10, 7), .next(20, 8), .completed(30)])
        let res = scheduler.start { xs.ifEmpty(switchTo: other.asObservable()) }
        #expect(res.events == [.next(260, 7), .next(270, 8), .completed(280)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
        #expect(other.subscriptions == [Subscription(250, 280)])
    }

    @Test func switchToIsNotUsedForANonEmptySource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(300)])
        let other = scheduler.createColdObservable([.next(10, 7), .completed(30)])
        let res = scheduler.start { xs.ifEmpty(switchTo: other.asObservable()) }
        #expect(res.events == [.next(210, 1), .completed(300)])
        #expect(other.subscriptions == [])
    }

    @Test func switchToErrorsAndDisposal() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.error(230, testError)] as [Recorded<Event<Int>>])
        let other = scheduler.createColdObservable([.next(10, 7), .completed(30)])
        let res = scheduler.start { xs.ifEmpty(switchTo: other.asObservable()) }
        #expect(res.events == [.error(230, testError)])
        #expect(other.subscriptions == [])

        let second = TestScheduler(initialClock: 0)
        let ys = second.createHotObservable([.completed(250)] as [Recorded<Event<Int>>])
        let failing = second.createColdObservable([.next(10, 7), .error(20, TestError.code(9))])
        let failed = second.start { ys.ifEmpty(switchTo: failing.asObservable()) }
        #expect(failed.events == [.next(260, 7), .error(270, TestError.code(9))])
        #expect(failing.subscriptions == [Subscription(250, 270)])

        let third = TestScheduler(initialClock: 0)
        let zs = third.createHotObservable([.completed(250)] as [Recorded<Event<Int>>])
        let slow = third.createColdObservable([.next(10, 7), .next(500, 8), .completed(600)])
        let cut = third.start(disposed: 400) { zs.ifEmpty(switchTo: slow.asObservable()) }
        #expect(cut.events == [.next(260, 7)])
        #expect(slow.subscriptions == [Subscription(250, 400)])
    }
}
