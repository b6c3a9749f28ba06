import Streams
import StreamsTesting
import TestSupport
import Testing

/// `multicast`, `publish`, `replay`, `replayAll`, `connect()` and `refCount()` in virtual time:
/// which connection each observer belongs to, and when the source is subscribed.
@Suite(.resourceCheck) struct MulticastTests {
    /// A hot source with an element every 10 ticks from 210 to 640 (the element is the time / 10),
    /// and an error at 800.
    static func source(_ scheduler: TestScheduler) -> TestableObservable<Int> {
        let elements: [Recorded<Event<Int>>] = stride(from: 210, through: 640, by: 10).map { .next($0, $0 / 10) }
        return scheduler.createHotObservable(elements + [.error(800, testError)])
    }

    /// Connections over 305…405 (receiving 31…40), then one over 425…535 (connected twice, at
    /// 425 and 445, and ended by disposing the second; receiving 43…53), then 575…625 (58…62).
    /// The first connection's disposable is disposed again at 595, which must not end the third.
    static func connectThreeTimes(_ scheduler: TestScheduler, _ connectable: ConnectableObservable<Int>) {
        var first: Disposable?, inner: Disposable?, last: Disposable?
        scheduler.scheduleAt(305) { first = connectable.connect() }
        scheduler.scheduleAt(405) { first?.dispose() }
        scheduler.scheduleAt(425) { first = connectable.connect() }
        scheduler.scheduleAt(445) { inner = connectable.connect() }
        scheduler.scheduleAt(535) { inner?.dispose() }
        scheduler.scheduleAt(575) { last = connectable.connect() }
        scheduler.scheduleAt(595) { first?.dispose() }
        scheduler.scheduleAt(625) { last?.dispose() }
    }

    @Test func aNewSubjectPerConnection() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = Self.source(scheduler)
        let observer = scheduler.createObserver(Int.self)
        let connectable = xs.multicast(makeSubject: { ReplaySubject<Int>.create(bufferSize: 3) })
        var subscription: Disposable?
        // Subscribes between connections: it joins the subject of the next one (425…535) only.
        scheduler.scheduleAt(410) { subscription = connectable.subscribe(observer) }
        scheduler.scheduleAt(1000) { subscription?.dispose() }
        Self.connectThreeTimes(scheduler, connectable)
        scheduler.start()
        #expect(observer.events == (43...53).map { .next($0 * 10, $0) })
        #expect(xs.subscriptions == [Subscription(305, 405), Subscription(425, 535), Subscription(575, 625)])
    }

    @Test func anObserverOfALiveConnectionGetsItsReplayThenItsElements() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = Self.source(scheduler)
        let observer = scheduler.createObserver(Int.self)
        let connectable = xs.replay(1)
        var subscription: Disposable?
        scheduler.scheduleAt(475) { subscription = connectable.subscribe(observer) }
        scheduler.scheduleAt(1000) { subscription?.dispose() }
        Self.connectThreeTimes(scheduler, connectable)
        scheduler.start()
        #expect(observer.events == [.next(475, 47)] + (48...53).map { .next($0 * 10, $0) })
        #expect(xs.subscriptions == [Subscription(305, 405), Subscription(425, 535), Subscription(575, 625)])
    }

    @Test func publishObserversOfAnOldConnectionReceiveNothingFromTheNext() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = Self.source(scheduler)
        let early = scheduler.createObserver(Int.self), late = scheduler.createObserver(Int.self)
        let connectable = xs.publish()
        var subscriptions: [Disposable] = []
        scheduler.scheduleAt(250) { subscriptions.append(connectable.subscribe(early)) }
        scheduler.scheduleAt(560) { subscriptions.append(connectable.subscribe(late)) }
        scheduler.scheduleAt(1000) { subscriptions.forEach { $0.dispose() } }
        Self.connectThreeTimes(scheduler, connectable)
        scheduler.start()
        #expect(early.events == (31...40).map { .next($0 * 10, $0) })
        // Joined the subject of the connection that starts at 575.
        #expect(late.events == (58...62).map { .next($0 * 10, $0) })
    }

    @Test func theKeptSubjectOfMulticastServesEveryConnection() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = Self.source(scheduler)
        let observer = scheduler.createObserver(Int.self)
        let connectable = xs.multicast(PublishSubject<Int>())
        var subscription: Disposable?
        scheduler.scheduleAt(250) { subscription = connectable.subscribe(observer) }
        scheduler.scheduleAt(1000) { subscription?.dispose() }
        Self.connectThreeTimes(scheduler, connectable)
        scheduler.start()
        #expect(observer.events == (Array(31...40) + Array(43...53) + Array(58...62)).map { .next($0 * 10, $0) })
    }

    @Test func aConnectionEndedByItsSourceIsOverBeforeTheTerminalEventIsPassedOn() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let first = scheduler.createObserver(Int.self), second = scheduler.createObserver(Int.self)
        let connectable = xs.publish()
        var connections: [Disposable] = []
        var again: Disposable?
        scheduler.scheduleAt(200) {
            _ = connectable.subscribe(onCompleted: {
                // Inside the terminal event: a new subject and a new connection.
                again = connectable.subscribe(second)
                connections.append(connectable.connect())
            })
            _ = connectable.subscribe(first)
            connections.append(connectable.connect())
        }
        scheduler.scheduleAt(1000) { connections.forEach { $0.dispose() }; again?.dispose() }
        scheduler.start()
        #expect(first.events == [.next(210, 1), .completed(220)])
        #expect(second.events == [.next(230, 1), .completed(240)])
        #expect(xs.subscriptions == [Subscription(200, 220), Subscription(220, 240)])
    }

    @Test func connectAfterTheKeptSubjectFinishedSubscribesTheSourceAgain() {
        // `multicast(_:)` hands connect() no choice: the source is subscribed, and its events
        // go to a subject that ignores them.
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createColdObservable([.next(10, 1), .completed(20)])
        let observer = scheduler.createObserver(Int.self)
        let connectable = xs.multicast(ReplaySubject<Int>.createUnbounded())
        var subscriptions: [Disposable] = []
        scheduler.scheduleAt(200) { subscriptions.append(connectable.connect()) }
        scheduler.scheduleAt(300) { subscriptions.append(connectable.connect()) }
        scheduler.scheduleAt(400) { subscriptions.append(connectable.subscribe(observer)) }
        scheduler.scheduleAt(1000) { subscriptions.forEach { $0.dispose() } }
        scheduler.start()
        #expect(observer.events == [.next(400, 1), .completed(400)])
        #expect(xs.subscriptions == [Subscription(200, 220), Subscription(300, 320)])
    }

    @Test func refCountConnectsForTheFirstObserverAndDisconnectsAfterTheLast() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = Self.source(scheduler)
        let a = scheduler.createObserver(Int.self), b = scheduler.createObserver(Int.self)
        let counted = xs.publish().refCount()
        var subscriptions: [String: Disposable] = [:]
        scheduler.scheduleAt(300) { subscriptions["a"] = counted.subscribe(a) }
        scheduler.scheduleAt(330) { subscriptions["b"] = counted.subscribe(b) }
        scheduler.scheduleAt(350) { subscriptions["a"]?.dispose() }
        scheduler.scheduleAt(370) { subscriptions["b"]?.dispose() }
        scheduler.scheduleAt(500) { subscriptions["a"] = counted.subscribe(a) }
        scheduler.scheduleAt(520) { subscriptions["a"]?.dispose() }
        scheduler.start()
        #expect(a.events == [.next(310, 31), .next(320, 32), .next(330, 33), .next(340, 34), .next(350, 35), .next(510, 51), .next(520, 52)])
        #expect(b.events == [.next(340, 34), .next(350, 35), .next(360, 36), .next(370, 37)])
        #expect(xs.subscriptions == [Subscription(300, 370), Subscription(500, 520)])
    }

    @Test func refCountResubscribesADeferredSourceAfterAnError() {
        // `retry` over `publish().refCount()`: each error ends the connection before it is
        // passed on, so the retry starts a fresh one, which subscribes the deferred source anew.
        let scheduler = TestScheduler(initialClock: 0)
        var made = 0
        let source = Observable<Int>.deferred {
            made += 1
            return made < 3 ? .error(testError) : .just(made)
        }
        let observer = scheduler.start { source.publish().refCount().retry(5) }
        #expect(made == 3)
        #expect(observer.events == [.next(200, 3), .completed(200)])
    }

    @Test func refCountOfAConnectableWrittenElsewhere() {
        // A ConnectableObservableType that is not one of the library's: refCount() counts
        // its observers itself.
        struct Wrapped: ConnectableObservableType {
            typealias Element = Int
            let inner: ConnectableObservable<Int>
            func connect() -> Disposable { inner.connect() }
            func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Int { inner.subscribe(observer) }
        }
        let scheduler = TestScheduler(initialClock: 0)
        let xs = Self.source(scheduler)
        let a = scheduler.createObserver(Int.self), b = scheduler.createObserver(Int.self)
        let counted = Wrapped(inner: xs.publish()).refCount()
        var subscriptions: [String: Disposable] = [:]
        scheduler.scheduleAt(300) { subscriptions["a"] = counted.subscribe(a) }
        scheduler.scheduleAt(330) { subscriptions["b"] = counted.subscribe(b) }
        scheduler.scheduleAt(350) { subscriptions["a"]?.dispose() }
        scheduler.scheduleAt(370) { subscriptions["b"]?.dispose() }
        scheduler.start()
        #expect(a.events == [.next(310, 31), .next(320, 32), .next(330, 33), .next(340, 34), .next(350, 35)])
        #expect(b.events == [.next(340, 34), .next(350, 35), .next(360, 36), .next(370, 37)])
        #expect(xs.subscriptions == [Subscription(300, 370)])
    }

    @Test func multicastWithASelectorConnectsPerSubscription() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(190, 0), .next(210, 1), .next(240, 2), .completed(300)])
        let observer = scheduler.start {
            xs.multicast({ PublishSubject<Int>() }, selector: { shared in Observable.zip(shared, shared.map { $0 * 10 }) { $0 + $1 } })
        }
        #expect(observer.events == [.next(210, 11), .next(240, 22), .completed(300)])
        #expect(xs.subscriptions == [Subscription(200, 300)])
    }
}
