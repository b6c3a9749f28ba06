import Streams
import StreamsTesting
import TestSupport
import Testing

@Suite(.resourceCheck) struct RetryTests {
    @Test func retryCountResubscribesThenPassesTheLastError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .error(20, testError)])
        let res = scheduler.start { xs.retry(3) }
        #expect(res.events == [.next(210, 1), .next(230, 1), .next(250, 1), .error(260, testError)])
        #expect(xs.subscriptions == [Subscription(200, 220), Subscription(220, 240), Subscription(240, 260)])
    }

    @Test func retryStopsAtCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let res = scheduler.start { xs.retry(3) }
        #expect(res.events == [.next(210, 1), .completed(220)])
        #expect(xs.subscriptions == [Subscription(200, 220)])
    }

    @Test func retryOneIsASingleAttemptAndZeroCompletesAtOnce() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .error(20, testError)])
        let once = scheduler.start { xs.retry(1) }
        #expect(once.events == [.next(210, 1), .error(220, testError)])
        #expect(xs.subscriptions == [Subscription(200, 220)])

        let other = TestScheduler(initialClock: 0)
        let ys = other.createColdObservable([.next(10, 1), .error(20, testError)])
        let never = other.start { ys.retry(0) }
        #expect(never.events == [.completed(200)])
        #expect(ys.subscriptions == [])
    }

    @Test func retryForeverUntilDisposed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .error(20, testError)])
        let res = scheduler.start(disposed: 250) { xs.retry() }
        #expect(res.events == [.next(210, 1), .next(230, 1)])
        #expect(xs.subscriptions == [Subscription(200, 220), Subscription(220, 240), Subscription(240, 250)])
    }

    @Test func retryForeverStopsAtSuccess() {
        let scheduler = TestScheduler(initialClock: 0)
        var attempts = 0
        let res = scheduler.start {
            Observable<Int>.deferred {
                attempts += 1
                return attempts < 3 ? .error(testError) : .just(attempts)
            }.retry()
        }
        #expect(res.events == [.next(200, 3), .completed(200)])
        #expect(attempts == 3)
    }

    @Test func synchronousFailuresManyTimesDoNotOverflowTheStack() {
        var subscriptions = 0
        let failing = Observable<Int>.create { observer in
            subscriptions += 1
            observer.onError(testError)
            return Disposables.create()
        }
        var events: [Event<Int>] = []
        _ = failing.retry(100_000).subscribe { events.append($0) }
        #expect(subscriptions == 100_000)
        #expect(events == [.error(testError)])

        var attempts = 0
        var values: [Int] = []
        _ = Observable<Int>.deferred {
            attempts += 1
            return attempts < 100_000 ? .error(testError) : .just(attempts)
        }.retry().subscribe(onNext: { values.append($0) })
        #expect(values == [100_000])
    }
}
