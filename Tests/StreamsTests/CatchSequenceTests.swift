import Streams
import StreamsTesting
import TestSupport
import Testing

@Suite(.resourceCheck) struct CatchSequenceTests {
    @Test func movesOnAfterEachFailureAndEndsWithTheFirstCompletion() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createColdObservable([.next(10, 1), .error(20, testError)])
        let b = scheduler.createColdObservable([.next(10, 2), .completed(20)])
        let c = scheduler.createColdObservable([.next(10, 3), .completed(20)])
        let res = scheduler.start { Observable.catch(sequence: [a.asObservable(), b.asObservable(), c.asObservable()]) }
        #expect(res.events == [.next(210, 1), .next(230, 2), .completed(240)])
        #expect(a.subscriptions == [Subscription(200, 220)])
        #expect(b.subscriptions == [Subscription(220, 240)])
        #expect(c.subscriptions == [])
    }

    @Test func endsWithTheLastErrorWhenEverySequenceFails() {
        struct Numbered: Error, Equatable { var number: Int }
        var received: Error?
        _ = Observable<Int>.catch(sequence: (1...3).map { Observable<Int>.error(Numbered(number: $0)) })
            .subscribe(onError: { received = $0 })
        #expect(received as? Numbered == Numbered(number: 3))
    }

    @Test func anEmptySequenceCompletesAtOnce() {
        var completed = false
        _ = Observable<Int>.catch(sequence: []).subscribe(onCompleted: { completed = true })
        #expect(completed)
    }

    @Test func theSequenceIsReadLazilySoItMayBeEndless() {
        var made = 0
        let attempts = (0...).lazy.map { index -> Observable<Int> in
            made += 1
            return index < 2 ? .error(testError) : .just(index)
        }
        var elements: [Int] = []
        _ = Observable.catch(sequence: attempts).subscribe(onNext: { elements.append($0) })
        #expect(elements == [2])
        #expect(made == 3)
    }

    @Test func aHundredThousandSynchronousFailuresDoNotNestOnTheStack() {
        // Each failure subscribes the next sequence from the trampoline, not from inside the
        // failing one's `onError`; nested, this many would overflow a thread's stack.
        var received: Error?
        let failures = repeatElement(Observable<Int>.error(testError), count: 100_000)
        _ = Observable.catch(sequence: failures).subscribe(onError: { received = $0 })
        #expect(received as? TestError == .boom)
    }

    @Test func disposingStopsTheCurrentSequenceAndReadsNoFurther() {
        let scheduler = TestScheduler(initialClock: 0)
        let a = scheduler.createColdObservable([Recorded<Event<Int>>.error(20, testError)])
        let b = scheduler.createColdObservable([.next(100, 2), .completed(200)])
        let res = scheduler.start(disposed: 250) { Observable.catch(sequence: [a.asObservable(), b.asObservable()]) }
        #expect(res.events == [])
        #expect(b.subscriptions == [Subscription(220, 250)])
    }
}

/// RxSwift 5's spellings compile, with a deprecation warning at the call site, and do what the
/// RxSwift 6 names do. The suite is deprecated itself so that calling them here warns nobody.
@Suite(.resourceCheck) struct RxSwift5SpellingsTests {
    @available(*, deprecated, message: "calls RxSwift 5 spellings on purpose")
    @Test func eachOldNameDoesWhatTheNewNameDoes() throws {
        let failing = Observable<Int>.concat(.just(1), .error(testError))
        #expect(try failing.catchErrorJustReturn(9).toArrayNow() == [1, 9])
        #expect(try failing.catchError { _ in .just(8) }.toArrayNow() == [1, 8])
        #expect(try Observable.catchError([failing, .just(7)]).toArrayNow() == [1, 7])
        let numbers = Observable.of(1, 2, 3, 4, 1)
        #expect(try numbers.elementAt(2).toArrayNow() == [3])
        #expect(try numbers.skipWhile { $0 < 3 }.toArrayNow() == [3, 4, 1])
        #expect(try numbers.takeWhile { $0 < 3 }.toArrayNow() == [1, 2])
        #expect(try numbers.takeUntil(.inclusive) { $0 == 3 }.toArrayNow() == [1, 2, 3])
        #expect(try numbers.takeUntil(Observable<Int>.never()).toArrayNow() == [1, 2, 3, 4, 1])
        #expect(try numbers.skipUntil(Observable.just(0)).toArrayNow() == [1, 2, 3, 4, 1])
        #expect(try numbers.observeOn(ImmediateScheduler.instance).subscribeOn(ImmediateScheduler.instance).toArrayNow() == [1, 2, 3, 4, 1])
        var attempts = 0
        let retried = Observable<Int>.deferred {
            attempts += 1
            return attempts < 3 ? .error(testError) : .just(attempts)
        }
        #expect(try retried.retryWhen { (errors: Observable<Swift.Error>) in errors }.toArrayNow() == [3])

        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(260, 2), .completed(300)])
        let res = scheduler.start { xs.take(.seconds(30), scheduler: scheduler) }
        #expect(res.events == [.next(210, 1), .completed(230)])

        var outcome: [String] = []
        _ = Single<Int>.error(testError).catchErrorJustReturn(5).subscribe(onSuccess: { outcome.append("success \($0)") })
        _ = Maybe<Int>.error(testError).catchErrorJustReturn(6).subscribe(onSuccess: { outcome.append("success \($0)") })
        _ = Single<Int>.error(testError).catchError { _ in .just(4) }.observeOn(ImmediateScheduler.instance)
            .subscribeOn(ImmediateScheduler.instance).subscribe(onSuccess: { outcome.append("success \($0)") })
        _ = Single<Int>.error(testError).subscribe(onSuccess: { _ in }, onError: { _ in outcome.append("failure") })
        #expect(outcome == ["success 5", "success 6", "success 4", "failure"])
    }
}

private extension ObservableType {
    /// The elements of a sequence that finishes synchronously.
    func toArrayNow() throws -> [Element] {
        var elements: [Element] = []
        var failure: Error?
        _ = subscribe(onNext: { elements.append($0) }, onError: { failure = $0 })
        if let failure { throw failure }
        return elements
    }
}
