import Streams
import StreamsTesting
import TestSupport
import Testing

@Suite(.resourceCheck) struct SampleTests {
    @Test func samplesTheLatestElementOnEachTick() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1), .next(220, 2), .next(240, 3), .next(290, 4), .next(300, 5), .next(310, 6), .completed(400),
        ])
        let ys = scheduler.createHotObservable([
            .next(150, ""), .next(210, "bar"), .next(250, "foo"), .next(260, "qux"), .next(320, "baz"), .completed(500),
        ])
        let res = scheduler.start { xs.sample(ys) }
        #expect(res.events == [.next(250, 3), .next(320, 6), .completed(500)])
        #expect(xs.subscriptions == [Subscription(200, 400)])
        #expect(ys.subscriptions == [Subscription(200, 500)])
    }

    @Test func completesAtTheFirstTickAfterTheSourceCompleted() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(220, 2), .next(240, 3), .completed(300)])
        let ys = scheduler.createHotObservable([.next(250, ()), .next(350, ()), .next(450, ())])
        let res = scheduler.start { xs.sample(ys) }
        #expect(res.events == [.next(250, 3), .completed(350)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
        #expect(ys.subscriptions == [Subscription(200, 350)])
    }

    @Test func samplerCompletionIsALastTick() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(220, 2), .next(240, 3), .next(330, 4)])
        let ys = scheduler.createHotObservable([.next(250, ()), .completed(300)])
        let res = scheduler.start { xs.sample(ys) }
        #expect(res.events == [.next(250, 3)])
        #expect(ys.subscriptions == [Subscription(200, 300)])
        #expect(xs.subscriptions == [Subscription(200, 1000)])
    }

    @Test func samplerCompletionEmitsTheUnsentElement() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(220, 2), .next(260, 3), .completed(280)])
        let ys = scheduler.createHotObservable([.next(250, ()), .completed(300)])
        let res = scheduler.start { xs.sample(ys) }
        #expect(res.events == [.next(250, 2), .next(300, 3), .completed(300)])
    }

    @Test func defaultValueFillsEmptyTicks() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(220, 2), .completed(400)])
        let ys = scheduler.createHotObservable([.next(210, "a"), .next(230, "b"), .next(240, "c"), .next(500, "d")])
        let res = scheduler.start { xs.sample(ys, defaultValue: 0) }
        #expect(res.events == [.next(210, 0), .next(230, 2), .next(240, 0), .next(500, 0), .completed(500)])
    }

    @Test func sourceErrorIsForwardedAtOnce() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(220, 2), .error(240, testError)])
        let ys = scheduler.createHotObservable([.next(230, ()), .next(250, ())])
        let res = scheduler.start { xs.sample(ys) }
        #expect(res.events == [.next(230, 2), .error(240, testError)])
        #expect(xs.subscriptions == [Subscription(200, 240)])
        #expect(ys.subscriptions == [Subscription(200, 240)])
    }

    @Test func samplerErrorIsForwardedAtOnce() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([
            .next(150, 1), .next(220, 2), .next(240, 3), .next(290, 4), .completed(400),
        ])
        let ys = scheduler.createHotObservable([
            .next(150, ""), .next(210, "bar"), .next(250, "foo"), .error(320, testError),
        ])
        let res = scheduler.start { xs.sample(ys) }
        #expect(res.events == [.next(250, 3), .error(320, testError)])
        #expect(xs.subscriptions == [Subscription(200, 320)])
        #expect(ys.subscriptions == [Subscription(200, 320)])
    }
}
