import Streams
import StreamsTesting
import TestSupport
import Testing

/// `share(replay:scope:)` in virtual time: what each observer receives and when the source is
/// subscribed, for both scopes and replay 0…4.
@Suite(.resourceCheck) struct ShareTests {
    /// Elements at 210…250 and 320, then `end` at 330 (if any), an element after it and one at 550.
    static func source(_ scheduler: TestScheduler, end: Recorded<Event<Int>>?) -> TestableObservable<Int> {
        var events: [Recorded<Event<Int>>] = [.next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .next(250, 5), .next(320, 6)]
        if let end { events += [end, .next(340, -1)] }
        events.append(.next(550, 7))
        return scheduler.createHotObservable(events)
    }

    /// The last `count` elements of 1…`upTo`, as replayed at `time`.
    static func replayed(_ count: Int, upTo last: Int, at time: TestTime) -> [Recorded<Event<Int>>] {
        (0..<count).map { .next(time, last - count + 1 + $0) }
    }

    /// A at 200…350, B at 300…400, C at 500…600, over a source that never ends.
    struct Overlapping {
        let a, b, c: TestableObserver<Int>
        let source: TestableObservable<Int>

        init(replay: Int, scope: SubjectLifetimeScope) {
            let scheduler = TestScheduler(initialClock: 0)
            source = ShareTests.source(scheduler, end: nil)
            a = scheduler.createObserver(Int.self)
            b = scheduler.createObserver(Int.self)
            c = scheduler.createObserver(Int.self)
            let shared = source.share(replay: replay, scope: scope)
            var subscriptions: [String: Disposable] = [:]
            let (a, b, c) = (self.a, self.b, self.c)
            scheduler.scheduleAt(200) { subscriptions["a"] = shared.subscribe(a) }
            scheduler.scheduleAt(300) { subscriptions["b"] = shared.subscribe(b) }
            scheduler.scheduleAt(350) { subscriptions["a"]?.dispose() }
            scheduler.scheduleAt(400) { subscriptions["b"]?.dispose() }
            scheduler.scheduleAt(500) { subscriptions["c"] = shared.subscribe(c) }
            scheduler.scheduleAt(600) { subscriptions["c"]?.dispose() }
            scheduler.start()
        }
    }

    @Test func defaultsAreNoReplayWhileConnected() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = Self.source(scheduler, end: nil)
        let a = scheduler.createObserver(Int.self), b = scheduler.createObserver(Int.self)
        let shared = xs.share()
        var first: Disposable?, second: Disposable?
        scheduler.scheduleAt(200) { first = shared.subscribe(a) }
        scheduler.scheduleAt(300) { second = shared.subscribe(b) }
        scheduler.scheduleAt(350) { first?.dispose() }
        scheduler.scheduleAt(400) { second?.dispose() }
        scheduler.start()
        #expect(a.events == [.next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .next(250, 5), .next(320, 6)])
        #expect(b.events == [.next(320, 6)])
        #expect(xs.subscriptions == [Subscription(200, 400)])
    }

    @Test(arguments: 0..<5) func whileConnectedStartsAnEmptyBufferAfterEveryObserverLeft(replay: Int) {
        let run = Overlapping(replay: replay, scope: .whileConnected)
        #expect(run.a.events == [.next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .next(250, 5), .next(320, 6)])
        #expect(run.b.events == Self.replayed(replay, upTo: 5, at: 300) + [.next(320, 6)])
        #expect(run.c.events == [.next(550, 7)])
        #expect(run.source.subscriptions == [Subscription(200, 400), Subscription(500, 600)])
    }

    @Test(arguments: 0..<5) func foreverKeepsTheBufferAcrossConnections(replay: Int) {
        let run = Overlapping(replay: replay, scope: .forever)
        #expect(run.b.events == Self.replayed(replay, upTo: 5, at: 300) + [.next(320, 6)])
        #expect(run.c.events == Self.replayed(replay, upTo: 6, at: 500) + [.next(550, 7)])
        #expect(run.source.subscriptions == [Subscription(200, 400), Subscription(500, 600)])
    }

    /// A at 200 and B at 300 each subscribe again from their terminal handler (as A2, B2); A's
    /// subscription is disposed at 350, B's at 400; C subscribes at 500 and leaves at 600.
    struct Resubscribing {
        let a, b, a2, b2, c: TestableObserver<Int>
        let source: TestableObservable<Int>

        init(replay: Int, scope: SubjectLifetimeScope, end: Recorded<Event<Int>>) {
            let scheduler = TestScheduler(initialClock: 0)
            source = ShareTests.source(scheduler, end: end)
            let observers = (0..<5).map { _ in scheduler.createObserver(Int.self) }
            (a, b, a2, b2, c) = (observers[0], observers[1], observers[2], observers[3], observers[4])
            let shared = source.share(replay: replay, scope: scope)
            let subscriptions = Box<[String: Disposable]>([:])
            func subscribeAgainOnEnd(_ name: String, _ first: TestableObserver<Int>, _ again: TestableObserver<Int>) {
                subscriptions.value[name] = shared.subscribe { event in
                    first.on(event)
                    if event.isStopEvent { subscriptions.value[name] = shared.subscribe(again) }
                }
            }
            let (a, b, a2, b2, c) = (self.a, self.b, self.a2, self.b2, self.c)
            scheduler.scheduleAt(200) { subscribeAgainOnEnd("a", a, a2) }
            scheduler.scheduleAt(300) { subscribeAgainOnEnd("b", b, b2) }
            scheduler.scheduleAt(350) { subscriptions.value["a"]?.dispose() }
            scheduler.scheduleAt(400) { subscriptions.value["b"]?.dispose() }
            scheduler.scheduleAt(500) { subscriptions.value["c"] = shared.subscribe(c) }
            scheduler.scheduleAt(600) { subscriptions.value["c"]?.dispose() }
            scheduler.start()
        }
    }

    final class Box<Value> { var value: Value; init(_ value: Value) { self.value = value } }

    /// The terminal event at 330: an error or a completion.
    static func end(failing: Bool) -> Recorded<Event<Int>> { failing ? .error(330, testError) : .completed(330) }

    @Test(arguments: 0..<5, [false, true]) func whileConnectedIsOverBeforeTheTerminalEventIsPassedOn(replay: Int, failing: Bool) {
        let end = Self.end(failing: failing)
        let run = Resubscribing(replay: replay, scope: .whileConnected, end: end)
        #expect(run.a.events == [.next(210, 1), .next(220, 2), .next(230, 3), .next(240, 4), .next(250, 5), .next(320, 6), end])
        #expect(run.b.events == Self.replayed(replay, upTo: 5, at: 300) + [.next(320, 6), end])
        // Subscribing again from the terminal handler starts a fresh subscription, empty buffer.
        #expect(run.a2.events == [.next(340, -1)])
        #expect(run.b2.events == [.next(340, -1)])
        #expect(run.c.events == [.next(550, 7)])
        #expect(run.source.subscriptions == [Subscription(200, 330), Subscription(330, 400), Subscription(500, 600)])
    }

    @Test(arguments: 0..<5, [false, true]) func foreverReplaysAFinishedSourceWithoutSubscribingItAgain(replay: Int, failing: Bool) {
        let end = Self.end(failing: failing)
        let run = Resubscribing(replay: replay, scope: .forever, end: end)
        let terminal = end.value
        #expect(run.a2.events == Self.replayed(replay, upTo: 6, at: 330) + [Recorded(time: 330, value: terminal)])
        #expect(run.b2.events == Self.replayed(replay, upTo: 6, at: 330) + [Recorded(time: 330, value: terminal)])
        #expect(run.c.events == Self.replayed(replay, upTo: 6, at: 500) + [Recorded(time: 500, value: terminal)])
        #expect(run.source.subscriptions == [Subscription(200, 330)])
    }

    @Test(arguments: [SubjectLifetimeScope.whileConnected, .forever])
    func aSynchronousSourceFinishesEveryObserverAndReleasesEverything(scope: SubjectLifetimeScope) {
        for replay in 0..<3 {
            var subscriptions = 0
            let source = Observable<Int>.deferred {
                subscriptions += 1
                return .just(subscriptions)
            }.share(replay: replay, scope: scope)
            var first: [Event<Int>] = [], second: [Event<Int>] = []
            _ = source.subscribe { first.append($0) }
            _ = source.subscribe { second.append($0) }
            #expect(first == [.next(1), .completed])
            if scope == .whileConnected {
                #expect(second == [.next(2), .completed])
                #expect(subscriptions == 2)
            } else {
                #expect(second == (replay > 0 ? [.next(1), .completed] : [.completed]))
                #expect(subscriptions == 1)
            }
        }
    }

    @Test func anErrorReachesEveryObserverAndTheNextObserverStartsAgain() {
        var subscriptions = 0
        let source = Observable<Int>.deferred {
            subscriptions += 1
            return .error(testError)
        }.share(replay: 1)
        var errors = 0
        _ = source.subscribe(onError: { _ in errors += 1 })
        _ = source.subscribe(onError: { _ in errors += 1 })
        #expect(errors == 2)
        #expect(subscriptions == 2)
    }

    @Test func disposingInsideTheFirstElementOfASynchronousSourceStopsIt() {
        var produced = 0
        let source = Observable<Int>.create { observer in
            for value in 1...5 {
                produced = value
                observer.onNext(value)
            }
            observer.onCompleted()
            return Disposables.create()
        }.share(replay: 1)
        let taken = Box<[Int]>([])
        _ = source.take(1).subscribe(onNext: { taken.value.append($0) })
        #expect(taken.value == [1])
        // The source is not asked to stop (it has no cancellation check), but nothing after the
        // disposal reaches anyone, and the next observer starts a fresh subscription.
        #expect(produced == 5)
        var second: [Int] = []
        _ = source.subscribe(onNext: { second.append($0) })
        #expect(second == [1, 2, 3, 4, 5])
    }

    @Test func shareReplayIsTheForeverScope() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = Self.source(scheduler, end: .completed(330))
        let late = scheduler.createObserver(Int.self)
        let shared = xs.shareReplay(2)
        var first: Disposable?
        scheduler.scheduleAt(200) { first = shared.subscribe { _ in } }
        scheduler.scheduleAt(500) { _ = shared.subscribe(late) }
        scheduler.start()
        _ = first
        #expect(late.events == [.next(500, 5), .next(500, 6), .completed(500)])
        #expect(xs.subscriptions == [Subscription(200, 330)])
    }
}
