import Streams
import StreamsTesting
import TestSupport
import Testing

@Suite(.resourceCheck) struct ReplayRelayTests {
    @Test func aNewRelayReplaysNothing() {
        let scheduler = TestScheduler(initialClock: 0)
        let relay = ReplayRelay<Int>.create(bufferSize: 3)
        let observer = scheduler.createObserver(Int.self)
        let subscription = relay.subscribe(observer)
        #expect(observer.events.isEmpty)
        subscription.dispose()
    }

    @Test func replaysTheLastBufferSizeElementsThenLaterOnes() {
        let scheduler = TestScheduler(initialClock: 0)
        let relay = ReplayRelay<Int>.create(bufferSize: 2)
        let early = scheduler.createObserver(Int.self)
        let late = scheduler.createObserver(Int.self)
        var subscriptions: [Disposable] = []
        scheduler.scheduleAt(100) { subscriptions.append(relay.subscribe(early)) }
        scheduler.scheduleAt(150) { relay.accept(1) }
        scheduler.scheduleAt(200) { relay.accept(2) }
        scheduler.scheduleAt(250) { relay.accept(3) }
        scheduler.scheduleAt(300) { subscriptions.append(relay.subscribe(late)) }
        scheduler.scheduleAt(350) { relay.accept(4) }
        scheduler.scheduleAt(400) { subscriptions[1].dispose() }
        scheduler.scheduleAt(450) { relay.accept(5) }
        scheduler.scheduleAt(500) { subscriptions[0].dispose() }
        scheduler.scheduleAt(550) { relay.accept(6) }
        scheduler.start()
        #expect(early.events == [.next(150, 1), .next(200, 2), .next(250, 3), .next(350, 4), .next(450, 5)])
        #expect(late.events == [.next(300, 2), .next(300, 3), .next(350, 4)])
    }

    @Test func fewerElementsThanTheBufferAreAllReplayed() {
        let relay = ReplayRelay<String>.create(bufferSize: 3)
        relay.accept("a")
        relay.accept("b")
        var seen: [String] = []
        let subscription = relay.subscribe(onNext: { seen.append($0) })
        subscription.dispose()
        #expect(seen == ["a", "b"])
    }

    @Test func unboundReplaysEverything() {
        let relay = ReplayRelay<Int>.createUnbound()
        for n in 1...50 { relay.accept(n) }
        var seen: [Int] = []
        let subscription = relay.asObservable().subscribe(onNext: { seen.append($0) })
        subscription.dispose()
        #expect(seen == Array(1...50))
    }

    @Test func asInfallibleReplaysAndNeverCompletes() {
        let relay = ReplayRelay<Int>.create(bufferSize: 1)
        relay.accept(1)
        relay.accept(2)
        var events: [InfallibleEvent<Int>] = []
        let subscription = relay.asInfallible().subscribe { events.append($0) }
        relay.accept(3)
        subscription.dispose()
        relay.accept(4)
        #expect(events == [.next(2), .next(3)])
    }

    @Test func infallibleBindsToReplayRelays() {
        let relay = ReplayRelay<Int>.create(bufferSize: 2)
        let optional = ReplayRelay<Int?>.create(bufferSize: 1)
        _ = Infallible.of(1, 2, 3).bind(to: relay)
        _ = Infallible.of(4).bind(to: optional)
        var seen: [Int] = [], optionals: [Int?] = []
        let bag = DisposeBag()
        relay.subscribe(onNext: { seen.append($0) }).disposed(by: bag)
        optional.subscribe(onNext: { optionals.append($0) }).disposed(by: bag)
        #expect(seen == [2, 3])
        #expect(optionals == [4])
    }
}
