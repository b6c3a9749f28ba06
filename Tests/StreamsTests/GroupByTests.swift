import Dispatch
import Streams
import StreamsTesting
import TestSupport
import Testing
import Locking

@Suite(.resourceCheck) struct GroupByTests {
    /// Words whose key is their trimmed lower-case form.
    static func words(_ scheduler: TestScheduler, end: Recorded<Event<String>> = .completed(570)) -> TestableObservable<String> {
        scheduler.createHotObservable([
            .next(90, "abc"), .next(220, "  foo"), .next(240, " FoO "), .next(270, "baR  "), .next(310, "foO "),
            .next(350, " Baz   "), .next(390, "   bar"), .next(470, "FOO "), .next(530, " bAZ "), end,
        ])
    }

    static func key(_ word: String) -> String { word.lowercased().trimmingCharacters(in: .whitespaces) }

    @Test func eachKeyOpensOneGroupWhenItsFirstElementArrives() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = Self.words(scheduler)
        var keysAsked = 0
        let res = scheduler.start { xs.groupBy { word -> String in keysAsked += 1; return Self.key(word) }.map(\.key) }
        #expect(res.events == [.next(220, "foo"), .next(270, "bar"), .next(350, "baz"), .completed(570)])
        #expect(xs.subscriptions == [Subscription(200, 570)])
        #expect(keysAsked == 8)
    }

    @Test func everyElementGoesToItsGroupAndEveryGroupEndsWithTheSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = Self.words(scheduler)
        var results: [String: TestableObserver<String>] = [:]
        var subscriptions: [Disposable] = []
        scheduler.scheduleAt(200) {
            subscriptions.append(xs.groupBy(keySelector: Self.key).subscribe(onNext: { group in
                let observer = scheduler.createObserver(String.self)
                results[group.key] = observer
                subscriptions.append(group.subscribe(observer))
            }))
        }
        scheduler.start()
        #expect(results["foo"]?.events == [.next(220, "  foo"), .next(240, " FoO "), .next(310, "foO "), .next(470, "FOO "), .completed(570)])
        #expect(results["bar"]?.events == [.next(270, "baR  "), .next(390, "   bar"), .completed(570)])
        #expect(results["baz"]?.events == [.next(350, " Baz   "), .next(530, " bAZ "), .completed(570)])
        subscriptions.forEach { $0.dispose() }
    }

    @Test func disposingTheResultWithNoGroupListenedToDisposesTheSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = Self.words(scheduler)
        var keysAsked = 0
        let res = scheduler.start(disposed: 355) { xs.groupBy { word -> String in keysAsked += 1; return Self.key(word) }.map(\.key) }
        #expect(res.events == [.next(220, "foo"), .next(270, "bar"), .next(350, "baz")])
        #expect(xs.subscriptions == [Subscription(200, 355)])
        #expect(keysAsked == 5)
    }

    @Test func groupsStillListenedToOutliveTheResult() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = Self.words(scheduler)
        var results: [String: TestableObserver<String>] = [:]
        var outer: Disposable?
        var inner: [Disposable] = []
        scheduler.scheduleAt(200) {
            outer = xs.groupBy(keySelector: Self.key).subscribe(onNext: { group in
                let observer = scheduler.createObserver(String.self)
                results[group.key] = observer
                inner.append(group.subscribe(observer))
            })
        }
        scheduler.scheduleAt(320) { outer?.dispose() }
        scheduler.start()
        // "baz" arrives after the result was disposed: no group is opened for it.
        #expect(results.keys.sorted() == ["bar", "foo"])
        #expect(results["foo"]?.events == [.next(220, "  foo"), .next(240, " FoO "), .next(310, "foO "), .next(470, "FOO "), .completed(570)])
        #expect(results["bar"]?.events == [.next(270, "baR  "), .next(390, "   bar"), .completed(570)])
        #expect(xs.subscriptions == [Subscription(200, 570)])
        inner.forEach { $0.dispose() }
    }

    @Test func disposingOneGroupLeavesTheSourceToTheOthers() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = Self.words(scheduler)
        var results: [String: TestableObserver<String>] = [:]
        var inner: [String: Disposable] = [:]
        var outer: Disposable?
        scheduler.scheduleAt(200) {
            outer = xs.groupBy(keySelector: Self.key).subscribe(onNext: { group in
                let observer = scheduler.createObserver(String.self)
                results[group.key] = observer
                inner[group.key] = group.subscribe(observer)
            })
        }
        scheduler.scheduleAt(300) { inner["foo"]?.dispose(); outer?.dispose() }
        scheduler.scheduleAt(400) { inner["bar"]?.dispose() }
        scheduler.start()
        #expect(results["foo"]?.events == [.next(220, "  foo"), .next(240, " FoO ")])
        #expect(results["bar"]?.events == [.next(270, "baR  "), .next(390, "   bar")])
        // The last group subscription left at 400, after the result: the source goes then.
        #expect(xs.subscriptions == [Subscription(200, 400)])
    }

    @Test func aLateSubscriberOfAFinishedGroupGetsItsTerminalEvent() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = Self.words(scheduler, end: .error(570, testError))
        let late = scheduler.createObserver(String.self)
        var first: GroupedObservable<String, String>?
        var subscriptions: [Disposable] = []
        scheduler.scheduleAt(200) {
            subscriptions.append(xs.groupBy(keySelector: Self.key).subscribe(onNext: { group in first = first ?? group }, onError: { _ in }))
        }
        scheduler.scheduleAt(600) { if let first { subscriptions.append(first.subscribe(late)) } }
        scheduler.start()
        #expect(late.events == [.error(600, testError)])
        #expect(xs.subscriptions == [Subscription(200, 570)])
        subscriptions.forEach { $0.dispose() }
    }

    @Test func aGroupSubscribedAfterTheSourceWasDroppedReceivesNothing() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = Self.words(scheduler)
        let late = scheduler.createObserver(String.self)
        var first: GroupedObservable<String, String>?
        var outer: Disposable?
        var lateSubscription: Disposable?
        scheduler.scheduleAt(200) { outer = xs.groupBy(keySelector: Self.key).subscribe(onNext: { group in first = first ?? group }) }
        scheduler.scheduleAt(400) { outer?.dispose() }
        scheduler.scheduleAt(600) { lateSubscription = first?.subscribe(late) }
        scheduler.start()
        #expect(late.events == [])
        #expect(xs.subscriptions == [Subscription(200, 400)])
        lateSubscription?.dispose()
    }

    @Test func aThrowingKeySelectorEndsEveryGroupAndTheSource() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = Self.words(scheduler)
        var results: [String: TestableObserver<String>] = [:]
        let outerEvents = scheduler.createObserver(String.self)
        var subscriptions: [Disposable] = []
        scheduler.scheduleAt(200) {
            subscriptions.append(xs.groupBy { word -> String in
                if word == "   bar" { throw testError }
                return Self.key(word)
            }.map { group -> String in
                let observer = scheduler.createObserver(String.self)
                results[group.key] = observer
                subscriptions.append(group.subscribe(observer))
                return group.key
            }.subscribe(outerEvents))
        }
        scheduler.start()
        #expect(outerEvents.events == [.next(220, "foo"), .next(270, "bar"), .next(350, "baz"), .error(390, testError)])
        #expect(results["bar"]?.events == [.next(270, "baR  "), .error(390, testError)])
        #expect(results["baz"]?.events == [.next(350, " Baz   "), .error(390, testError)])
        #expect(xs.subscriptions == [Subscription(200, 390)])
        subscriptions.forEach { $0.dispose() }
    }
}

/// groupBy under threads: a source merged from producers on four threads, groups subscribed and
/// disposed while elements flow. Named for CI's thread-sanitizer run.
@Suite(.resourceCheck) struct GroupByStressTests {
    @Test func everyElementReachesItsGroupOnceAndInOrderUnderConcurrentProducers() async throws {
        let producers = 4
        let perProducer = 5_000
        let keys = 8
        for round in 0..<20 {
            let queue = DispatchQueue(label: "groupBy.stress.\(round)", attributes: .concurrent)
            let sources = (0..<producers).map { producer in
                Observable<Int>.create { observer in
                    queue.async {
                        for index in 0..<perProducer { observer.onNext(producer * perProducer + index) }
                        observer.onCompleted()
                    }
                    return Disposables.create()
                }
            }
            let received = Locked<[Int: [Int]]>([:])
            let completedGroups = Locked(0)
            let done = DispatchSemaphore(value: 0)
            let bag = Locked<[Disposable]>([])
            let outer = Observable.merge(sources).groupBy { $0 % keys }.subscribe(onNext: { group in
                let key = group.key
                // Odd keys are listened to for a while only, on another thread.
                let subscription = group.subscribe(onNext: { value in received.withLock { $0[key, default: []].append(value) } },
                                                   onCompleted: { completedGroups.withLock { $0 += 1 } })
                if key.isMultiple(of: 2) {
                    bag.withLock { $0.append(subscription) }
                } else {
                    let leaving = UncheckedSendable(subscription)
                    queue.asyncAfter(deadline: .now() + .microseconds(200)) { leaving.value.dispose() }
                }
            }, onCompleted: { done.signal() })
            #expect(done.wait(timeout: .now() + 10) == .success, "round \(round): the result did not complete")
            let snapshot = received.withLock { $0 }
            for key in stride(from: 0, to: keys, by: 2) {
                let values = snapshot[key] ?? []
                let expected = (0..<producers * perProducer).filter { $0 % keys == key }
                #expect(values.sorted() == expected, "round \(round), key \(key)")
                for producer in 0..<producers {
                    let own = values.filter { $0 / perProducer == producer }
                    #expect(own == own.sorted(), "round \(round), key \(key): one producer's elements out of order")
                }
            }
            for key in stride(from: 1, to: keys, by: 2) {
                let values = snapshot[key] ?? []
                #expect(Set(values).count == values.count, "round \(round), key \(key): an element twice")
            }
            #expect(completedGroups.withLock { $0 } >= keys / 2)
            outer.dispose()
            bag.withLock { $0.forEach { $0.dispose() } }
        }
    }
}
