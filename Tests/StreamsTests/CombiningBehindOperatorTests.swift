import Streams
import StreamsTesting
import TestSupport
import Testing

/// The combining engines subscribed by an operator's sink downstream (here `map`'s), which keeps
/// the engine's sink itself as its upstream subscription, rather than by a subscriber, which gets
/// a handle: both must end, and release, their sources the same way.
@Suite(.resourceCheck) struct CombiningBehindOperatorTests {
    @Test func collectionZipBehindAnOperatorIsDisposedWithIt() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([.next(210, 1), .next(230, 2)])
        let b = scheduler.createHotObservable([.next(220, 3), .next(260, 4)])
        let res = scheduler.start(disposed: 250) {
            Observable.zip([a, b].map { $0.asObservable() }).map { $0.reduce(0, +) }
        }
        #expect(res.events == [.next(220, 4)])
        #expect(a.subscriptions == [Subscription(200, 250)])
        #expect(b.subscriptions == [Subscription(200, 250)])
    }

    @Test func collectionCombineLatestBehindAnOperatorCompletesAndReleasesItsSources() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([.next(210, 1), .completed(240)])
        let b = scheduler.createHotObservable([.next(220, 3), .next(230, 4), .completed(250)])
        let res = scheduler.start {
            Observable.combineLatest([a, b].map { $0.asObservable() }).map { $0.reduce(0, +) }
        }
        #expect(res.events == [.next(220, 4), .next(230, 5), .completed(250)])
        #expect(a.subscriptions == [Subscription(200, 240)])
        #expect(b.subscriptions == [Subscription(200, 250)])
    }

    @Test func anEmptyCollectionBehindAnOperatorEndsAtOnce() {
        let zipped = TestScheduler(initialClock: 0).start { Observable.zip([Observable<Int>]()).map { $0.count } }
        #expect(zipped.events == [.completed(200)])
        let combined = TestScheduler(initialClock: 0).start { Observable.combineLatest([Observable<Int>]()).map { $0.count } }
        #expect(combined.events == [.next(200, 0), .completed(200)])
    }

    @Test func aSourceFailingAsItIsSubscribedReleasesTheOthersAtOnce() {
        let scheduler = TestScheduler(initialClock: 0)
        let b = scheduler.createHotObservable([.next(210, 1)])
        let res = scheduler.start {
            Observable.zip([Observable<Int>.error(testError), b.asObservable()]).map { $0.count }
        }
        #expect(res.events == [.error(200, testError)])
        #expect(b.subscriptions == [Subscription(200, 200)])
    }

    @Test func typedZipBehindAnOperatorIsDisposedWithIt() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([.next(210, 1), .next(230, 2)])
        let b = scheduler.createHotObservable([.next(220, "x"), .next(260, "y")])
        let res = scheduler.start(disposed: 250) {
            Observable.zip(a, b) { "\($1)\($0)" }.map { $0.uppercased() }
        }
        #expect(res.events == [.next(220, "X1")])
        #expect(a.subscriptions == [Subscription(200, 250)])
        #expect(b.subscriptions == [Subscription(200, 250)])
    }

    @Test func typedCombineLatestBehindAnOperatorFailsAndReleasesItsSources() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createHotObservable([.next(210, 1), .error(240, testError)])
        let b = scheduler.createHotObservable([.next(220, 3), .next(230, 4)])
        let c = scheduler.createHotObservable([.next(215, 10)])
        let res = scheduler.start {
            Observable.combineLatest(a, b, c) { $0 + $1 + $2 }.map { $0 * 2 }
        }
        #expect(res.events == [.next(220, 28), .next(230, 30), .error(240, testError)])
        #expect(a.subscriptions == [Subscription(200, 240)])
        #expect(b.subscriptions == [Subscription(200, 240)])
        #expect(c.subscriptions == [Subscription(200, 240)])
    }
}
