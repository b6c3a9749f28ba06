import Streams
import StreamsTesting
import TestSupport
import Testing

@Suite(.resourceCheck) struct DoTests {
    @Test func callbacksRunInOrderAroundTheEvents() {
        var log: [String] = []
        let source = Observable.of(1).do(
            onNext: { log.append("onNext \($0)") },
            afterNext: { log.append("afterNext \($0)") },
            onError: { _ in log.append("onError") },
            afterError: { _ in log.append("afterError") },
            onCompleted: { log.append("onCompleted") },
            afterCompleted: { log.append("afterCompleted") },
            onSubscribe: { log.append("onSubscribe") },
            onSubscribed: { log.append("onSubscribed") },
            onDispose: { log.append("onDispose") }
        )
        _ = source.subscribe { log.append("observer \($0)") }
        #expect(log == [
            "onSubscribe", "onSubscribed",
            "onNext 1", "observer next(1)", "afterNext 1",
            "onCompleted", "observer completed", "afterCompleted",
            "onDispose",
        ])
    }

    @Test func passesEventsUnchangedOnTheTestScheduler() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .error(250, testError)])
        var errors: [Int] = []
        var afterErrors: [Int] = []
        let res = scheduler.start { xs.do(
            onError: { _ in errors.append(scheduler.clock) },
            afterError: { _ in afterErrors.append(scheduler.clock) }
        ) }
        #expect(res.events == [.next(210, 1), .next(220, 2), .error(250, testError)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
        #expect(errors == [250])
        #expect(afterErrors == [250])
    }

    @Test func throwingOnNextReplacesTheElementWithTheError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
        let res = scheduler.start { xs.do(onNext: { if $0 == 2 { throw testError } }) }
        #expect(res.events == [.next(210, 1), .error(220, testError)])
        #expect(xs.subscriptions == [Subscription(200, 220)])
    }

    @Test func throwingAfterNextFollowsTheElementWithTheError() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(300)])
        let res = scheduler.start { xs.do(afterNext: { if $0 == 1 { throw testError } }) }
        #expect(res.events == [.next(210, 1), .error(210, testError)])
        #expect(xs.subscriptions == [Subscription(200, 210)])
    }

    @Test func throwingOnCompletedReplacesCompletionAndAfterCompletedIsDropped() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .completed(300)])
        let res = scheduler.start { xs.do(onCompleted: { throw TestError.code(1) }) }
        #expect(res.events == [.next(210, 1), .error(300, TestError.code(1))])

        let other = TestScheduler(initialClock: 0)
        let ys = other.createHotObservable([.next(210, 1), .completed(300)])
        let after = other.start { ys.do(afterCompleted: { throw TestError.code(2) }) }
        #expect(after.events == [.next(210, 1), .completed(300)])
        #expect(ys.subscriptions == [Subscription(200, 300)])
    }

    @Test func onDisposeRunsOnceWhenDisposed() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(500, 2), .completed(600)])
        var disposedAt: [Int] = []
        var subscribedAt: [Int] = []
        let res = scheduler.start(disposed: 400) { xs.do(
            onSubscribed: { subscribedAt.append(scheduler.clock) },
            onDispose: { disposedAt.append(scheduler.clock) }
        ) }
        #expect(res.events == [.next(210, 1)])
        #expect(xs.subscriptions == [Subscription(200, 400)])
        #expect(subscribedAt == [200])
        #expect(disposedAt == [400])
    }
}
