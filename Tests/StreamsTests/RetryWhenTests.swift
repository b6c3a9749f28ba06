import Streams
import StreamsTesting
import TestSupport
import Testing

@Suite(.resourceCheck) struct RetryWhenTests {
    @Test func triggerElementsResubscribe() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .error(20, testError)])
        let res = scheduler.start(disposed: 290) { xs.retry(when: { errors in errors.map { _ in () } }) }
        #expect(res.events == [.next(210, 1), .next(230, 1), .next(250, 1), .next(270, 1)])
        #expect(xs.subscriptions == [
            Subscription(200, 220), Subscription(220, 240), Subscription(240, 260), Subscription(260, 280), Subscription(280, 290),
        ])
    }

    @Test func triggerErrorEndsTheSequence() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .error(20, testError)])
        let res = scheduler.start {
            xs.retry(when: { errors in
                errors.enumerated().map { attempt, error -> Observable<Void> in
                    attempt < 2 ? .just(()) : .error(TestError.code(attempt))
                }.merge()
            })
        }
        #expect(res.events == [.next(210, 1), .next(230, 1), .next(250, 1), .error(260, TestError.code(2))])
        #expect(xs.subscriptions == [Subscription(200, 220), Subscription(220, 240), Subscription(240, 260)])
    }

    @Test func triggerCompletionCompletesTheSequence() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .error(20, testError)])
        let res = scheduler.start { xs.retry(when: { errors in errors.take(while: { _ in false }) }) }
        #expect(res.events == [.next(210, 1), .completed(220)])
        #expect(xs.subscriptions == [Subscription(200, 220)])

        let other = TestScheduler(initialClock: 0)
        let ys = other.createColdObservable([.next(10, 1), .error(20, testError)])
        let early = other.start { ys.retry(when: { (_: Observable<Error>) in Observable<Int>.empty() }) }
        #expect(early.events == [.next(210, 1), .completed(220)])
        #expect(ys.subscriptions == [Subscription(200, 220)])
    }

    @Test func sourceCompletionEndsTheSequence() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let res = scheduler.start { xs.retry(when: { errors in errors.map { _ in () } }) }
        #expect(res.events == [.next(210, 1), .completed(220)])
        #expect(xs.subscriptions == [Subscription(200, 220)])
    }

    @Test func typedHandlerPassesOtherErrorsAtOnce() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .error(20, StreamsError.unknown)])
        var seen: [TestError] = []
        let res = scheduler.start {
            xs.retry(when: { (errors: Observable<TestError>) in errors.do(onNext: { seen.append($0) }).map { _ in () } })
        }
        #expect(res.events == [.next(210, 1), .error(220, StreamsError.unknown)])
        #expect(xs.subscriptions == [Subscription(200, 220)])
        #expect(seen.isEmpty)

        let other = TestScheduler(initialClock: 0)
        let ys = other.createColdObservable([.next(10, 1), .error(20, TestError.code(1))])
        let retried = other.start(disposed: 245) {
            ys.retry(when: { (errors: Observable<TestError>) in errors.do(onNext: { seen.append($0) }).map { _ in () } })
        }
        #expect(retried.events == [.next(210, 1), .next(230, 1)])
        #expect(seen == [TestError.code(1), TestError.code(1)])
    }

    @Test func synchronousFailuresManyTimesDoNotOverflowTheStack() {
        var attempts = 0
        var values: [Int] = []
        var completed = false
        _ = Observable<Int>.deferred {
            attempts += 1
            return attempts < 50_000 ? .error(testError) : .just(attempts)
        }
        .retry(when: { errors in errors.map { _ in () } })
        .subscribe(onNext: { values.append($0) }, onCompleted: { completed = true })
        #expect(values == [50_000])
        #expect(completed)
    }
}
