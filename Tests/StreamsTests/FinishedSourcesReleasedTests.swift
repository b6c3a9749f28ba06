import Streams
import StreamsTesting
import TestSupport
import Testing

/// An operator that walks a sequence of sources one at a time lets go of each source once it
/// has finished: what a finished source captured is freed while the operator goes on with the
/// next one (RxSwift: `testCompletable_FirstCompletableNotRetainedBeyondCompletion`).
@Suite(.resourceCheck) struct FinishedSourcesReleasedTests {
    private final class Token {}

    /// Builds the operator over a first source that finishes at 210 (completing, or failing
    /// where `fails`) and holds a token, subscribes, runs the clock past it, drops every
    /// reference the test holds, and returns whether the token is still alive while the
    /// subscription still runs.
    private func tokenOutlivesFirst(
        fails: Bool = false,
        _ operate: (Observable<Int>, TestScheduler) -> Observable<Int>
    ) -> Bool {
        let scheduler = TestScheduler(initialClock: 0)
        let end: Recorded<Event<Int>> = fails ? .error(210, testError) : .completed(210)
        let hot = scheduler.createHotObservable([end])
        weak var weakToken: Token?
        var disposable: Disposable?
        do {
            let token = Token()
            weakToken = token
            let first = hot.asObservable().do(onError: { _ in _ = token }, onCompleted: { _ = token })
            disposable = operate(first, scheduler).subscribe(onError: { _ in })
        }
        scheduler.advanceTo(300)
        let alive = weakToken != nil
        disposable?.dispose()
        return alive
    }

    @Test func andThenLetsGoOfACompletedFirstCompletable() {
        #expect(!tokenOutlivesFirst { first, _ in
            first.ignoreElements().asCompletable().andThen(Completable.never()).asObservable().map { _ in 0 }
        })
        #expect(!tokenOutlivesFirst { first, _ in
            first.ignoreElements().asCompletable().andThen(Single<Int>.never()).asObservable()
        })
        #expect(!tokenOutlivesFirst { first, _ in
            first.ignoreElements().asCompletable().andThen(Maybe<Int>.never()).asObservable()
        })
        #expect(!tokenOutlivesFirst { first, _ in
            first.ignoreElements().asCompletable().andThen(Observable<Int>.never())
        })
    }

    @Test func andThenLetsGoOfAFailedFirstCompletable() {
        #expect(!tokenOutlivesFirst(fails: true) { first, _ in
            first.ignoreElements().asCompletable().andThen(Completable.never()).asObservable().map { _ in 0 }
        })
    }

    @Test func concatLetsGoOfACompletedSourceInEveryForm() {
        #expect(!tokenOutlivesFirst { first, _ in first.concat(Observable<Int>.never()) })
        #expect(!tokenOutlivesFirst { first, _ in Observable.concat(first, .never()) })
        #expect(!tokenOutlivesFirst { first, _ in Observable.concat([first, .never()]) })
        #expect(!tokenOutlivesFirst { first, _ in Observable.concat(ContiguousArray([first, .never()])) })
        // A lazy sequence: its iterator makes each source when it is taken.
        #expect(!tokenOutlivesFirst { first, _ in
            var firstSource: Observable<Int>? = first
            let sources = AnySequence { () -> AnyIterator<Observable<Int>> in
                var index = 0
                return AnyIterator {
                    defer { index += 1 }
                    if index == 0 { defer { firstSource = nil }; return firstSource }
                    return index == 1 ? Observable<Int>.never() : nil
                }
            }
            return Observable.concat(sources)
        })
    }

    @Test func catchSequenceLetsGoOfAFailedSource() {
        #expect(!tokenOutlivesFirst(fails: true) { first, _ in Observable.catch(sequence: [first, .never()]) })
    }

    /// `concat()` on a sequence of sequences (and `concatMap`, `merge(maxConcurrent:)`) queues
    /// the inners that arrive while one runs; an inner that has started and finished is not
    /// kept by the queue while later inners still wait in it.
    @Test func concatOfSequencesLetsGoOfAFinishedInnerWhileOthersWait() {
        #expect(!tokenOutlivesFirst { second, scheduler in
            // The first inner runs until 6; `second` waits behind it and finishes at 210; the
            // third never ends and the fourth waits behind it for ever. A subject sends them (a
            // sequence of fixed elements would hold them all for as long as it is subscribed).
            let runner = scheduler.createColdObservable([Recorded<Event<Int>>.completed(5)]).asObservable()
            let outer = PublishSubject<Observable<Int>>()
            var pending: [Observable<Int>] = [runner, second, .never(), .never()]
            scheduler.scheduleAt(1) {
                while !pending.isEmpty { outer.onNext(pending.removeFirst()) }
            }
            return outer.concat()
        })
        #expect(!tokenOutlivesFirst { second, scheduler in
            let runner = scheduler.createColdObservable([Recorded<Event<Int>>.completed(5)]).asObservable()
            // The closure hands each inner over and keeps none of them.
            var inners: [Observable<Int>] = [runner, second, .never(), .never()]
            return Observable.of(0, 1, 2, 3).concatMap { index -> Observable<Int> in
                defer { inners[index] = .never() }
                return inners[index]
            }
        })
    }

    /// The test can fail: a source the app still holds is alive.
    @Test func aSourceStillHeldIsAlive() {
        let scheduler = TestScheduler(initialClock: 0)
        let hot = scheduler.createHotObservable([Recorded<Event<Int>>.completed(210)])
        let token = Token()
        weak let weakToken: Token? = token
        let first = hot.asObservable().do(onCompleted: { _ = token })
        let disposable = first.concat(Observable<Int>.never()).subscribe()
        scheduler.advanceTo(300)
        #expect(weakToken != nil)
        withExtendedLifetime(first) {}
        disposable.dispose()
    }
}
