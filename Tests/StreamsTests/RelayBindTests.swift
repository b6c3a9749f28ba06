import Streams
import StreamsTesting
import TestSupport
import Testing

@Suite(.resourceCheck) struct RelayBindTests {
    @Test func bindsToPublishRelays() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        let relay = PublishRelay<Int>(), optional = PublishRelay<Int?>()
        let seen = scheduler.createObserver(Int.self), seenOptional = scheduler.createObserver(Int?.self)
        var subscriptions: [Disposable] = []
        scheduler.scheduleAt(100) {
            subscriptions.append(relay.subscribe(seen))
            subscriptions.append(optional.subscribe(seenOptional))
        }
        scheduler.scheduleAt(200) {
            subscriptions.append(xs.bind(to: relay, relay))
            subscriptions.append(xs.bind(to: optional))
        }
        scheduler.scheduleAt(300) { subscriptions.forEach { $0.dispose() } }
        scheduler.start()
        // Both relays got each element; the source's completion did not end them.
        #expect(seen.events == [.next(210, 1), .next(210, 1), .next(220, 2), .next(220, 2)])
        #expect(seenOptional.events == [.next(210, Optional(1)), .next(220, Optional(2))])
        // As with `subscribe`, a hot source's subscription lasts until the binding is disposed.
        #expect(xs.subscriptions == [Subscription(200, 300), Subscription(200, 300)])
    }

    @Test func bindsToBehaviorRelays() {
        let scheduler = TestScheduler(initialClock: 0)
        let xs = scheduler.createHotObservable([.next(210, 1), .next(220, 2), .completed(230)])
        let first = BehaviorRelay(value: 0), second = BehaviorRelay(value: 0), optional = BehaviorRelay<Int?>(value: nil)
        let seen = scheduler.createObserver(Int.self)
        var subscriptions: [Disposable] = []
        scheduler.scheduleAt(100) { subscriptions.append(first.subscribe(seen)) }
        scheduler.scheduleAt(200) {
            subscriptions.append(xs.bind(to: first, second))
            subscriptions.append(xs.bind(to: optional))
        }
        scheduler.scheduleAt(300) { subscriptions.forEach { $0.dispose() } }
        scheduler.start()
        #expect(seen.events == [.next(100, 0), .next(210, 1), .next(220, 2)])
        #expect(first.value == 2)
        #expect(second.value == 2)
        #expect(optional.value == 2)
    }

    @Test func bindsToReplayRelays() {
        let relay = ReplayRelay<Int>.create(bufferSize: 2), optional = ReplayRelay<Int?>.create(bufferSize: 1)
        let bag = DisposeBag()
        Observable.of(1, 2, 3).bind(to: relay).disposed(by: bag)
        Observable.of(4, 5).bind(to: optional).disposed(by: bag)
        var seen: [Int] = [], optionals: [Int?] = []
        var completed = false
        relay.subscribe(onNext: { seen.append($0) }, onCompleted: { completed = true }).disposed(by: bag)
        optional.subscribe(onNext: { optionals.append($0) }).disposed(by: bag)
        #expect(seen == [2, 3])
        #expect(optionals == [5])
        #expect(!completed)
    }

    @Test func disposingTheBindingStopsTheElements() {
        let subject = PublishSubject<Int>()
        let relay = BehaviorRelay(value: 0)
        let binding = subject.bind(to: relay)
        subject.onNext(1)
        binding.dispose()
        subject.onNext(2)
        #expect(relay.value == 1)
    }

    @Test func anErrorIsAProgrammingErrorAndEndsTheBinding() {
        let publish = PublishRelay<Int>(), behavior = BehaviorRelay(value: 0), replay = ReplayRelay<Int>.create(bufferSize: 1)
        var published: [Int] = []
        let watching = publish.subscribe(onNext: { published.append($0) })
        let reports = recordingProgrammingErrors {
            let subject = PublishSubject<Int>()
            let bindings = [subject.bind(to: publish), subject.bind(to: behavior), subject.bind(to: replay)]
            subject.onNext(1)
            subject.onError(testError)
            subject.onNext(2)
            bindings.forEach { $0.dispose() }
        }
        watching.dispose()
        #expect(reports == [
            "Binding error to publish relay: \(testError)",
            "Binding error to behavior relay: \(testError)",
            "Binding error to replay relay: \(testError)",
        ])
        #expect(published == [1])
        #expect(behavior.value == 1)
    }

    @Test func bindsToVariablesWithStreamsAlone() {
        // This file imports Streams, not HeadlessUI: a Streams-only view model binds Variables.
        let first = Variable(0), second = Variable(0), optional = Variable<Int?>(nil)
        var completed = false
        let watching = first.subscribe(onCompleted: { completed = true })
        let subject = PublishSubject<Int>()
        let bindings = [subject.bind(to: first, second), subject.bind(to: optional)]
        subject.onNext(1)
        subject.onNext(2)
        subject.onCompleted()
        #expect(first.value == 2)
        #expect(second.value == 2)
        #expect(optional.value == 2)
        #expect(!completed)
        let reports = recordingProgrammingErrors {
            let failing = PublishSubject<Int>()
            let binding = failing.bind(to: first)
            failing.onNext(3)
            failing.onError(testError)
            failing.onNext(4)
            binding.dispose()
        }
        #expect(reports == ["Binding error to variable: \(testError)"])
        #expect(first.value == 3)
        bindings.forEach { $0.dispose() }
        watching.dispose()
    }
}
