import Streams
import StreamsTesting
import TestSupport
import Testing

private final class Owner {
    let name: String
    var seen: [String] = []
    init(_ name: String) { self.name = name }
}

@Suite(.resourceCheck) struct WithUnretainedTests {
    private func source(_ scheduler: TestScheduler) -> TestableObservable<Int> {
        scheduler.createColdObservable([.next(10, 1), .next(15, 2), .next(20, 3), .next(25, 5), .completed(50)])
    }

    @Test func pairsEachElementWithTheObject() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        let owner = Owner("a")
        let res = scheduler.start { xs.withUnretained(owner).map { "\($0.name)\($1)" } }
        #expect(res.events == [.next(210, "a1"), .next(215, "a2"), .next(220, "a3"), .next(225, "a5"), .completed(250)])
        #expect(xs.subscriptions == [Subscription(200, 250)])
    }

    @Test func resultSelectorCombines() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        let owner = Owner("b")
        let res = scheduler.start { xs.withUnretained(owner) { owner, n in "\(owner.name)\(n * 10)" } }
        #expect(res.events == [.next(210, "b10"), .next(215, "b20"), .next(220, "b30"), .next(225, "b50"), .completed(250)])
    }

    @Test func completesAtTheFirstElementAfterTheObjectIsGone() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = source(scheduler)
        var owner: Owner? = Owner("c")
        let res = scheduler.start {
            xs.withUnretained(owner!)
                .do(onNext: { _, n in if n == 2 { owner = nil } })
                .map { "\($0.name)\($1)" }
        }
        // `do` hands its own strong reference on for element 2, so that one still passes.
        #expect(res.events == [.next(210, "c1"), .next(215, "c2"), .completed(220)])
        #expect(xs.subscriptions == [Subscription(200, 220)])
    }

    @Test func doesNotRetainTheObject() {
        let subject = PublishSubject<Int>()
        var owner: Owner? = Owner("d")
        weak let weakOwner = owner
        var events: [String] = []
        let subscription = subject.withUnretained(owner!).subscribe(
            onNext: { events.append("\($0.name)\($1)") },
            onCompleted: { events.append("|") }
        )
        subject.onNext(1)
        owner = nil
        #expect(weakOwner == nil)
        subject.onNext(2)
        subject.onNext(3)
        subscription.dispose()
        #expect(events == ["d1", "|"])
    }

    @Test func errorsPassThrough() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .error(220, testError)])
        let owner = Owner("e")
        let res = scheduler.start { xs.withUnretained(owner).map { $1 } }
        #expect(res.events == [.next(210, 1), .error(220, testError)])
    }

    @Test func infallibleForms() {
        var owner: Owner? = Owner("f")
        let relay = PublishRelay<Int>()
        var events: [InfallibleEvent<String>] = []
        let subscription = relay.asInfallible().withUnretained(owner!).map { "\($0.name)\($1)" }
            .subscribe { events.append($0) }
        var combined: [String] = []
        _ = Infallible.of(1, 2).withUnretained(owner!) { "\($0.name)\($1)" }.subscribe(onNext: { combined.append($0) })
        relay.accept(1)
        owner = nil
        relay.accept(2)
        subscription.dispose()
        #expect(events == [.next("f1"), .completed])
        #expect(combined == ["f1", "f2"])
    }

    // MARK: - subscribe(with:)

    @Test func subscribeWithPassesTheObjectToEachClosure() {
        let owner = Owner("g")
        _ = Observable.of(1, 2).subscribe(with: owner, onNext: { $0.seen.append("\($1)") }, onError: { $0.seen.append("error \($1)") },
                                           onCompleted: { $0.seen.append("|") }, onDisposed: { $0.seen.append("disposed") })
        _ = Observable<Int>.error(testError).subscribe(with: owner, onError: { $0.seen.append("error \($1)") }, onDisposed: { $0.seen.append("disposed") })
        #expect(owner.seen == ["1", "2", "|", "disposed", "error boom", "disposed"])
    }

    @Test func subscribeWithCallsNothingOnceTheObjectIsGone() {
        let subject = PublishSubject<Int>()
        var owner: Owner? = Owner("h")
        var calls: [String] = []
        let subscription = subject.subscribe(with: owner!, onNext: { _, n in calls.append("\(n)") }, onError: { _, _ in calls.append("error") },
                                             onCompleted: { _ in calls.append("|") }, onDisposed: { _ in calls.append("disposed") })
        subject.onNext(1)
        owner = nil
        subject.onNext(2)
        subject.onCompleted()
        subscription.dispose()
        #expect(calls == ["1"])
    }

    // MARK: - drive(with:) and emit(with:)

    @Test func driveWithAndEmitWith() {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
            let driven = Owner("i"), emitted = Owner("j")
            let driver = xs.asDriver(onErrorJustReturn: 0)
            let signal = xs.asSignal(onErrorJustReturn: 0)
            var subscriptions: [Disposable] = []
            scheduler.scheduleAt(200) {
                subscriptions.append(driver.drive(with: driven, onNext: { $0.seen.append("\(scheduler.clock): \($1)") },
                                                  onCompleted: { $0.seen.append("\(scheduler.clock): |") }, onDisposed: { $0.seen.append("disposed") }))
                subscriptions.append(signal.emit(with: emitted, onNext: { $0.seen.append("\(scheduler.clock): \($1)") },
                                                 onCompleted: { $0.seen.append("\(scheduler.clock): |") }, onDisposed: { $0.seen.append("disposed") }))
            }
            scheduler.scheduleAt(300) { subscriptions.forEach { $0.dispose() } }
            scheduler.start()
            #expect(driven.seen == ["211: 1", "221: 2", "231: |", "disposed"])
            #expect(emitted.seen == ["211: 1", "221: 2", "231: |", "disposed"])
        }
    }

    @Test func driveWithIgnoresEventsOnceTheObjectIsGone() {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            let relay = BehaviorRelay(value: 0)
            var owner: Owner? = Owner("k")
            var calls: [Int] = []
            let subscription = relay.asDriver().drive(with: owner!, onNext: { _, n in calls.append(n) })
            scheduler.scheduleAt(10) { relay.accept(1) }
            scheduler.scheduleAt(20) { owner = nil }
            scheduler.scheduleAt(30) { relay.accept(2) }
            scheduler.start()
            subscription.dispose()
            #expect(calls == [0, 1])
        }
    }

    @Test func driveAndEmitToReplayAndOptionalRelays() {
        let scheduler = TestScheduler(initialClock: 0)
        SharingScheduler.mock(scheduler: scheduler) {
            let replay = ReplayRelay<Int>.create(bufferSize: 2), optionalReplay = ReplayRelay<Int?>.create(bufferSize: 1)
            let signalReplay = ReplayRelay<Int>.create(bufferSize: 2), signalOptionalReplay = ReplayRelay<Int?>.create(bufferSize: 1)
            let optionalBehavior = BehaviorRelay<Int?>(value: nil), optionalPublish = PublishRelay<Int?>()
            var published: [Int?] = []
            let bag = DisposeBag()
            optionalPublish.subscribe(onNext: { published.append($0) }).disposed(by: bag)
            Driver.of(1, 2, 3).drive(replay).disposed(by: bag)
            Driver.of(4).drive(optionalReplay).disposed(by: bag)
            let signal = Observable.of(5, 6).asSignal(onErrorJustReturn: 0)
            signal.emit(to: signalReplay).disposed(by: bag)
            signal.emit(to: signalOptionalReplay).disposed(by: bag)
            signal.emit(to: optionalBehavior).disposed(by: bag)
            signal.emit(to: optionalPublish).disposed(by: bag)
            scheduler.start()
            func kept<Element>(_ relay: ReplayRelay<Element>) -> [Element] {
                var out: [Element] = []
                relay.subscribe(onNext: { out.append($0) }).dispose()
                return out
            }
            #expect(kept(replay) == [2, 3])
            #expect(kept(optionalReplay) == [4])
            #expect(kept(signalReplay) == [5, 6])
            #expect(kept(signalOptionalReplay) == [6])
            #expect(optionalBehavior.value == 6)
            #expect(published == [5, 6])
        }
    }
}
