import Streams
import StreamsTesting
import TestSupport
import Testing

@Suite(.resourceCheck) struct MaybeTests {
    private func outcome<Element>(_ maybe: Maybe<Element>) -> String {
        var result = "none"
        _ = maybe.subscribe(onSuccess: { result = "success \($0)" }, onError: { result = "error \($0)" }, onCompleted: { result = "completed" })
        return result
    }

    @Test func factories() {
        #expect(outcome(Maybe.just(1)) == "success 1")
        #expect(outcome(Maybe<Int>.empty()) == "completed")
        #expect(outcome(Maybe<Int>.error(testError)) == "error boom")
        #expect(outcome(Maybe<Int>.never()) == "none")
        #expect(outcome(Maybe<Int>.create { observer in
            observer(.completed)
            observer(.success(1))
            return Disposables.create()
        }) == "completed")
        #expect(outcome(Maybe<Int>.create { observer in
            observer(.success(2))
            observer(.error(testError))
            return Disposables.create()
        }) == "success 2")
    }

    @Test func subscribeWithEventClosure() {
        var events: [String] = []
        _ = Maybe.just(1).subscribe { event in
            switch event {
            case .success(let value): events.append("success \(value)")
            case .error: events.append("error")
            case .completed: events.append("completed")
            }
        }
        #expect(events == ["success 1"])
    }

    @Test func onDisposedRunsOnceAfterTheOutcome() {
        var log: [String] = []
        let subscription = Maybe<Int>.empty().subscribe(onCompleted: { log.append("completed") }, onDisposed: { log.append("disposed") })
        subscription.dispose()
        #expect(log == ["completed", "disposed"])
    }

    @Test func asMaybeOnTheTestScheduler() {
        let scheduler = TestScheduler(initialClock: 0)
        let one = scheduler.createHotObservable([.next(210, 1), .completed(250)])
        #expect(scheduler.start { one.asMaybe().asObservable() }.events == [.next(250, 1), .completed(250)])

        let scheduler2 = TestScheduler(initialClock: 0)
        let empty = scheduler2.createHotObservable([.completed(250)] as [Recorded<Event<Int>>])
        #expect(scheduler2.start { empty.asMaybe().asObservable() }.events == [.completed(250)])
        #expect(empty.subscriptions == [Subscription(200, 250)])

        let scheduler3 = TestScheduler(initialClock: 0)
        let two = scheduler3.createHotObservable([.next(210, 1), .next(220, 2), .completed(250)])
        #expect(scheduler3.start { two.asMaybe().asObservable() }.events == [.error(220, StreamsError.moreThanOneElement)])
        #expect(two.subscriptions == [Subscription(200, 220)])
    }

    @Test func operators() {
        #expect(outcome(Maybe.just(2).map { $0 * 10 }) == "success 20")
        #expect(outcome(Maybe.just(2).filter { $0 > 5 }) == "completed")
        #expect(outcome(Maybe.just(2).compactMap { $0 > 1 ? "big" : nil }) == "success big")
        #expect(outcome(Maybe.just(2).flatMap { Maybe.just($0 + 1) }) == "success 3")
        #expect(outcome(Maybe<Int>.empty().flatMap { _ in Maybe.just(9) }) == "completed")
        #expect(outcome(Maybe<Int>.error(testError).catchAndReturn(0)) == "success 0")
        #expect(outcome(Maybe<Int>.error(testError).catch { _ in .empty() }) == "completed")
        #expect(outcome(Maybe.just(1).map { _ -> Int in throw TestError.code(3) }) == "error code(3)")
    }

    @Test func ifEmptySwitchesToTheFallback() {
        var values: [Int] = []
        _ = Maybe<Int>.empty().ifEmpty(default: 5).subscribe(onSuccess: { values.append($0) })
        _ = Maybe.just(1).ifEmpty(default: 5).subscribe(onSuccess: { values.append($0) })
        _ = Maybe<Int>.empty().ifEmpty(switchTo: .just(7)).subscribe(onSuccess: { values.append($0) })
        #expect(values == [5, 1, 7])
    }

    @Test func doAroundEmptyCompletion() {
        var log: [String] = []
        _ = Maybe<Int>.empty()
            .do(onNext: { _ in log.append("next") }, onCompleted: { log.append("onCompleted") }, afterCompleted: { log.append("afterCompleted") }, onDispose: { log.append("dispose") })
            .subscribe(onCompleted: { log.append("completed") })
        #expect(log == ["onCompleted", "completed", "afterCompleted", "dispose"])
    }

    @Test func retryAndAsCompletable() {
        var attempts = 0
        let maybe = Maybe<Int>.create { observer in
            attempts += 1
            observer(attempts == 1 ? .error(testError) : .completed)
            return Disposables.create()
        }
        #expect(outcome(maybe.retry(2)) == "completed")
        #expect(attempts == 2)
        var completed = false
        _ = Maybe.just(1).asCompletable().subscribe(onCompleted: { completed = true })
        #expect(completed)
    }
}
