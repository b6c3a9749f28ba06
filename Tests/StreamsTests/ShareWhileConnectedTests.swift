@testable import Streams
import StreamsTesting
import TestSupport
import Testing

/// The dedicated implementation of `share(replay: 0 | 1, scope: .whileConnected)`
/// (``ShareWhileConnected``) in virtual time: observers that join, leave or subscribe again
/// while an event is being delivered, sources that send from inside an observer, and sources
/// that finish inside `subscribe`. (`ShareTests` runs the general rules against it too.)
@Suite(.resourceCheck) struct ShareWhileConnectedTests {
    /// A recorder of events in arrival order across observers, to check interleavings.
    final class Log {
        var lines: [String] = []
    }

    /// The observer a `create` source was given, to send from outside it.
    final class SourceBox {
        var observer: AnyObserver<Int>?
    }

    @Test func theSharesAppsUseHaveTheirOwnImplementation() {
        let source = Observable<Int>.never()
        #expect(source.share() is ShareWhileConnected<Int>)
        #expect(source.share(replay: 1) is ShareWhileConnected<Int>)
        #expect(!(source.share(replay: 2) is ShareWhileConnected<Int>))
        #expect(!(source.share(replay: 1, scope: .forever) is ShareWhileConnected<Int>))
    }

    /// B subscribes from inside A's element 2; C, subscribed after A, is in the middle of the
    /// same delivery. B receives the replay (element 2, with replay 1), then 3 and the
    /// completion: nothing twice, nothing missing.
    @Test(arguments: [0, 1]) func anObserverJoiningFromInsideAnElementGetsTheReplayThenEveryLaterEventOnce(replay: Int) {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .completed(300)])
        let a = scheduler.createObserver(Int.self), b = scheduler.createObserver(Int.self), c = scheduler.createObserver(Int.self)
        let shared = xs.share(replay: replay)
        var subscriptions: [Disposable] = []
        scheduler.scheduleAt(200) {
            subscriptions.append(shared.subscribe { event in
                a.on(event)
                if case .next(2) = event { subscriptions.append(shared.subscribe(b)) }
            })
            subscriptions.append(shared.subscribe(c))
        }
        scheduler.start()
        let all: [Recorded<Event<Int>>] = [.next(210, 1), .next(220, 2), .next(230, 3), .completed(300)]
        #expect(a.events == all)
        #expect(c.events == all)
        #expect(b.events == (replay == 1 ? [.next(220, 2)] : []) + [.next(230, 3), .completed(300)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
        subscriptions.forEach { $0.dispose() }
    }

    /// A disposes C (later in the same delivery) from inside element 2: C receives nothing
    /// more, A goes on; when A leaves too, the source is disposed.
    @Test(arguments: [0, 1]) func anObserverDisposedDuringADeliveryReceivesNothingMore(replay: Int) {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .next(230, 3), .next(250, 4)])
        let a = scheduler.createObserver(Int.self), c = scheduler.createObserver(Int.self)
        let shared = xs.share(replay: replay)
        var first: Disposable?, third: Disposable?
        scheduler.scheduleAt(200) {
            first = shared.subscribe { event in
                a.on(event)
                if case .next(2) = event { third?.dispose() }
            }
            third = shared.subscribe(c)
        }
        scheduler.scheduleAt(240) { first?.dispose() }
        scheduler.start()
        #expect(a.events == [.next(210, 1), .next(220, 2), .next(230, 3)])
        #expect(c.events == [.next(210, 1)])
        #expect(xs.subscriptions == [Subscription(200, 240)])
    }

    /// Every observer leaves from inside element 2, before the source completes at 230: the
    /// connection is over, the completion reaches nobody, and D at 250 starts a new
    /// subscription with an empty buffer.
    @Test(arguments: [0, 1]) func observersLeavingFromInsideAnElementEndTheConnectionBeforeTheSourceEnds(replay: Int) {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .completed(30)])
        let a = scheduler.createObserver(Int.self), b = scheduler.createObserver(Int.self), d = scheduler.createObserver(Int.self)
        let shared = xs.share(replay: replay)
        var subscriptions: [String: Disposable] = [:]
        func leavingOnTwo(_ name: String, _ observer: TestableObserver<Int>) -> Disposable {
            shared.subscribe { event in
                observer.on(event)
                if case .next(2) = event { subscriptions[name]?.dispose() }
            }
        }
        scheduler.scheduleAt(200) {
            subscriptions["a"] = leavingOnTwo("a", a)
            subscriptions["b"] = leavingOnTwo("b", b)
        }
        scheduler.scheduleAt(250) { subscriptions["d"] = shared.subscribe(d) }
        scheduler.scheduleAt(400) { subscriptions["d"]?.dispose() }
        scheduler.start()
        #expect(a.events == [.next(210, 1), .next(220, 2)])
        #expect(b.events == [.next(210, 1), .next(220, 2)])
        #expect(d.events == [.next(260, 1), .next(270, 2), .completed(280)])
        #expect(xs.subscriptions == [Subscription(200, 220), Subscription(250, 280)])
    }

    /// A cold source shared by A (200…300) and B (215…350): B joins with A's last element;
    /// once both left, E at 400 starts the source again and receives no old element.
    @Test(arguments: [0, 1]) func aColdSourceStartsAgainWithAnEmptyBufferAfterEveryObserverLeft(replay: Int) {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .next(20, 2), .next(30, 3), .next(200, 4)])
        let a = scheduler.createObserver(Int.self), b = scheduler.createObserver(Int.self), e = scheduler.createObserver(Int.self)
        let shared = xs.share(replay: replay)
        var subscriptions: [String: Disposable] = [:]
        scheduler.scheduleAt(200) { subscriptions["a"] = shared.subscribe(a) }
        scheduler.scheduleAt(215) { subscriptions["b"] = shared.subscribe(b) }
        scheduler.scheduleAt(300) { subscriptions["a"]?.dispose() }
        scheduler.scheduleAt(350) { subscriptions["b"]?.dispose() }
        scheduler.scheduleAt(400) { subscriptions["e"] = shared.subscribe(e) }
        scheduler.scheduleAt(415) { subscriptions["e"]?.dispose() }
        scheduler.start()
        #expect(a.events == [.next(210, 1), .next(220, 2), .next(230, 3)])
        #expect(b.events == (replay == 1 ? [.next(215, 1)] : []) + [.next(220, 2), .next(230, 3)])
        #expect(e.events == [.next(410, 1)])
        #expect(xs.subscriptions == [Subscription(200, 350), Subscription(400, 415)])
    }

    /// A sends element 2 into the source from inside element 1: B, later in the delivery of 1,
    /// receives 1 before 2, and A receives 2 after its handler of 1 returned.
    @Test(arguments: [0, 1]) func anElementSentFromInsideAnObserverIsDeliveredAfterTheCurrentOne(replay: Int) {
        // `create` passes a call from inside an observer straight on (a subject would queue
        // it itself), so the re-entrant element reaches the shared connection while it is
        // still delivering element 1.
        let source = SourceBox()
        var subscribed = 0
        let shared = Observable<Int>.create { observer in
            subscribed += 1
            source.observer = observer
            return Disposables.create { source.observer = nil }
        }.share(replay: replay)
        let log = Log()
        let first = shared.subscribe(onNext: { value in
            log.lines.append("A got \(value)")
            if value == 1 { source.observer?.onNext(2) }
            log.lines.append("A done \(value)")
        })
        let second = shared.subscribe(onNext: { value in log.lines.append("B got \(value)") })
        source.observer?.onNext(1)
        #expect(log.lines == ["A got 1", "A done 1", "B got 1", "A got 2", "A done 2", "B got 2"])
        // A third observer joins after both: with replay 1 it receives 2, the last element.
        var third: [Int] = []
        let late = shared.subscribe(onNext: { third.append($0) })
        #expect(third == (replay == 1 ? [2] : []))
        first.dispose()
        second.dispose()
        late.dispose()
        #expect(source.observer == nil)
        #expect(subscribed == 1)
    }

    /// A synchronous source sends 1, 2 and completes inside `subscribe`. B subscribes from
    /// inside A's element 1 and joins that running connection (replay, then 2 and the
    /// completion); C subscribes from inside A's completion, after the connection is over, and
    /// starts the source again with an empty buffer.
    @Test(arguments: [0, 1]) func aSourceThatFinishesInsideSubscribeFinishesEveryObserverItHad(replay: Int) {
        var subscribed = 0
        let shared = Observable<Int>.create { observer in
            subscribed += 1
            observer.onNext(1)
            observer.onNext(2)
            observer.onCompleted()
            return Disposables.create()
        }.share(replay: replay)
        var a: [Event<Int>] = [], b: [Event<Int>] = [], c: [Event<Int>] = []
        var inner: [Disposable] = []
        let outer = shared.subscribe { event in
            a.append(event)
            if case .next(1) = event { inner.append(shared.subscribe { b.append($0) }) }
            if event.isStopEvent { inner.append(shared.subscribe { c.append($0) }) }
        }
        #expect(a == [.next(1), .next(2), .completed])
        #expect(b == (replay == 1 ? [.next(1)] : []) + [.next(2), .completed])
        #expect(c == [.next(1), .next(2), .completed])
        #expect(subscribed == 2)
        outer.dispose()
        inner.forEach { $0.dispose() }
    }

    /// What an observer that holds its own subscription captures.
    final class Holder {
        var subscription: Disposable?
    }

    /// An observer holding its own subscription (a closure capturing the object that keeps it)
    /// is released after its terminal event, without being disposed: the connection lets go of
    /// it, and the subscriber's handle does not hold it.
    @Test(arguments: [0, 1]) func anObserverHoldingItsOwnSubscriptionIsReleasedAfterTheTerminalEvent(replay: Int) {
        weak var released: Holder?
        let subject = PublishSubject<Int>()
        let shared = subject.share(replay: replay)
        do {
            let holder = Holder()
            released = holder
            holder.subscription = shared.subscribe(onNext: { _ in _ = holder })
        }
        subject.onNext(1)
        #expect(released != nil)
        subject.onCompleted()
        #expect(released == nil)
    }

    /// An error ends the connection for every observer that joined it, and the next observer
    /// subscribes the source again.
    @Test(arguments: [0, 1]) func anErrorEndsTheConnectionForEveryObserverOfIt(replay: Int) {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .error(20, testError)])
        let a = scheduler.createObserver(Int.self), b = scheduler.createObserver(Int.self), c = scheduler.createObserver(Int.self)
        let shared = xs.share(replay: replay)
        scheduler.scheduleAt(200) { _ = shared.subscribe(a) }
        scheduler.scheduleAt(215) { _ = shared.subscribe(b) }
        scheduler.scheduleAt(300) { _ = shared.subscribe(c) }
        scheduler.start()
        #expect(a.events == [.next(210, 1), .error(220, testError)])
        #expect(b.events == (replay == 1 ? [.next(215, 1)] : []) + [.error(220, testError)])
        #expect(c.events == [.next(310, 1), .error(320, testError)])
        #expect(xs.subscriptions == [Subscription(200, 220), Subscription(300, 320)])
    }
}
