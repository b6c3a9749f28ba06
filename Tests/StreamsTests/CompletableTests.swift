import Streams
import StreamsTesting
import TestSupport
import Testing

@Suite(.resourceCheck) struct CompletableTests {
    private func outcome(_ completable: Completable) -> String {
        var result = "none"
        _ = completable.subscribe(onCompleted: { result = "completed" }, onError: { result = "error \($0)" })
        return result
    }

    @Test func factories() {
        #expect(outcome(.empty()) == "completed")
        #expect(outcome(.error(testError)) == "error boom")
        #expect(outcome(.never()) == "none")
        #expect(outcome(.create { observer in
            observer(.error(testError))
            observer(.completed)
            return Disposables.create()
        }) == "error boom")
        var made = 0
        let deferred = Completable.deferred { made += 1; return .empty() }
        #expect(made == 0)
        #expect(outcome(deferred) == "completed")
        #expect(made == 1)
    }

    @Test func subscribeWithEventClosureAndDisposal() {
        var log: [String] = []
        let subscription = Completable.create { _ in Disposables.create { log.append("cleanup") } }
            .subscribe { event in log.append("\(event)") }
        subscription.dispose()
        _ = Completable.empty().subscribe { event in
            if case .completed = event { log.append("completed") }
        }
        #expect(log == ["cleanup", "completed"])
    }

    @Test func ignoreElementsThenAsCompletableKeepsOnlyTheEnd() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(250)])
        let res = scheduler.start { xs.ignoreElements().asCompletable().asObservable() }
        #expect(res.events == [.completed(250)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func asCompletableInfersASequenceOfNeverAsRxSwiftDoes() {
        // As in RxSwift's tests: the element type comes from `asCompletable()` being defined on
        // sequences of `Never` only (this did not compile while it was defined on any sequence).
        let scheduler = TestScheduler(initialClock: 0)
        let completable = scheduler.createColdObservable([.completed(20)]).asCompletable()
        let res = scheduler.start { completable }
        #expect(res.events == [.completed(220)])
    }

    @Test func andThenRunsInSequence() {
        let scheduler = TestScheduler(initialClock: 0)
        let first = scheduler.createColdObservable([.next(5, 1), .completed(20)])
        let second = scheduler.createColdObservable([.next(10, "a"), .completed(10)])
        let res = scheduler.start { first.ignoreElements().asCompletable().andThen(second.asSingle()).asObservable() }
        #expect(res.events == [.next(230, "a"), .completed(230)])
        #expect(first.subscriptions == [Subscription(200, 220)])
        #expect(second.subscriptions == [Subscription(220, 230)])
    }

    @Test func andThenStopsAtAnError() {
        let scheduler = TestScheduler(initialClock: 0)
        let second = scheduler.createColdObservable([.next(10, 1), .completed(10)])
        let res = scheduler.start { Completable.error(testError).andThen(second.asObservable()) }
        #expect(res.events == [.error(200, testError)])
        #expect(second.subscriptions == [])
    }

    @Test func andThenVariants() {
        var log: [String] = []
        _ = Completable.empty().andThen(Maybe.just(1)).subscribe(onSuccess: { log.append("maybe \($0)") })
        _ = Completable.empty().andThen(Completable.empty()).subscribe(onCompleted: { log.append("completable") })
        _ = Completable.empty().andThen(Observable.of(1, 2)).subscribe(onNext: { log.append("next \($0)") })
        #expect(log == ["maybe 1", "completable", "next 1", "next 2"])
    }

    @Test func catchRetryAndDo() {
        #expect(outcome(Completable.error(testError).catch { _ in .empty() }) == "completed")
        var attempts = 0
        let flaky = Completable.create { observer in
            attempts += 1
            observer(attempts < 3 ? .error(testError) : .completed)
            return Disposables.create()
        }
        #expect(outcome(flaky.retry(2)) == "error boom")
        #expect(outcome(flaky.retry(2)) == "completed")
        var log: [String] = []
        _ = Completable.error(testError)
            .do(onError: { _ in log.append("onError") }, afterError: { _ in log.append("afterError") }, onSubscribe: { log.append("subscribe") })
            .subscribe(onError: { _ in log.append("error") })
        #expect(log == ["subscribe", "onError", "error", "afterError"])
    }
}
