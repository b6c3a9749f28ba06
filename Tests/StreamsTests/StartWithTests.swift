import Streams
import StreamsTesting
import TestSupport
import Testing

@Suite(.resourceCheck) struct StartWithTests {
    @Test func sendsThePrefixOnSubscriptionThenTheSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(150, 0), .next(210, 1), .completed(220)])
        let res = scheduler.start { xs.startWith(7, 8) }
        #expect(res.events == [.next(200, 7), .next(200, 8), .next(210, 1), .completed(220)])
        #expect(xs.subscriptions == [Subscription(200, 220)])
    }

    @Test func forwardsErrorsAndStopsOnDisposal() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(220, testError)])
        let res = scheduler.start { xs.startWith(5) }
        #expect(res.events == [.next(200, 5), .next(210, 1), .error(220, testError)])
        #expect(xs.subscriptions == [Subscription(200, 220)])

        let second = TestScheduler(initialClock: 0)
        let ys = second.createHotObservable([.next(210, 1), .next(260, 2)])
        let res2 = second.start(disposed: 250) { ys.startWith(5) }
        #expect(res2.events == [.next(200, 5), .next(210, 1)])
        #expect(ys.subscriptions == [Subscription(200, 250)])
    }

    @Test func chainedPrefixesComeOutermostFirst() {
        var received: [Int] = []
        let subscription = Observable.of(3).startWith(2).startWith(0, 1)
            .subscribe(onNext: { received.append($0) })
        #expect(received == [0, 1, 2, 3])
        subscription.dispose()
    }
}
