import Testing
@testable import Streams

/// The element path: subjects and the common operators pass elements with `onNext(_:)` instead
/// of wrapping each in an `Event`. These tests drive that path (a subject's `onNext`, not a test
/// scheduler's `on(.next)`), and check it behaves exactly like `on(.next(_:))`.
@Suite(.resourceCheck) struct ElementPathTests {
    struct Boom: Error, Equatable {}

    /// Records what it receives; implements only `on(_:)`, so it relies on the default `onNext`.
    final class EventRecorder<Element>: ObserverType, @unchecked Sendable {
        var events: [Event<Element>] = []
        func on(_ event: Event<Element>) { events.append(event) }
    }

    @Test func anObserverWithOnlyOnReceivesElementsSentWithOnNext() {
        let subject = PublishSubject<Int>()
        let recorder = EventRecorder<Int>()
        let subscription = subject.subscribe(recorder)
        subject.onNext(1)
        subject.on(.next(2))
        subject.onCompleted()
        subject.onNext(3)
        #expect(recorder.events.map(\.element) == [1, 2, nil])
        #expect(recorder.events.last?.isCompleted == true)
        subscription.dispose()
    }

    @Test func mapFilterAndDistinctPassElementsAlong() {
        let subject = PublishSubject<Int>()
        var received: [String] = []
        let subscription = subject
            .map { $0 * 10 }
            .filter { $0 != 20 }
            .distinctUntilChanged()
            .map { "v\($0)" }
            .subscribe(onNext: { received.append($0) })
        for value in [1, 2, 3, 3, 1] { subject.onNext(value) }
        #expect(received == ["v10", "v30", "v10"])
        subscription.dispose()
        #expect(!subject.hasObservers)
    }

    @Test(arguments: ["map", "filter", "distinctUntilChanged"])
    func aThrowingClosureOnTheElementPathFailsAndUnsubscribes(_ stage: String) {
        let subject = PublishSubject<Int>()
        let source = subject.asObservable()
        let failing: Observable<Int>
        switch stage {
        case "map": failing = source.map { value in if value == 2 { throw Boom() }; return value }
        case "filter": failing = source.filter { value in if value == 2 { throw Boom() }; return true }
        default: failing = source.distinctUntilChanged { _, _ in throw Boom() }
        }
        var elements: [Int] = []
        var errors: [Error] = []
        let subscription = failing.subscribe(onNext: { elements.append($0) }, onError: { errors.append($0) })
        subject.onNext(1)
        subject.onNext(2)
        subject.onNext(3)
        #expect(elements == [1])
        #expect(errors.count == 1)
        #expect(errors.first as? Boom == Boom())
        #expect(!subject.hasObservers, "the failed chain left the subject")
        subscription.dispose()
    }

    @Test func subscribeOnNextStopsAtTheFirstTerminalEvent() {
        let subject = PublishSubject<Int>()
        var log: [String] = []
        let subscription = subject.subscribe(
            onNext: { log.append("next \($0)") },
            onError: { _ in log.append("error") },
            onCompleted: { log.append("completed") },
            onDisposed: { log.append("disposed") }
        )
        subject.onNext(1)
        subject.onCompleted()
        #expect(log == ["next 1", "completed", "disposed"])
        subscription.dispose()
        #expect(log == ["next 1", "completed", "disposed"])
    }

    /// A source that keeps calling its observer after `completed`, through both entry points.
    struct MisbehavingSource: ObservableType {
        typealias Element = Int
        func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Int {
            observer.onNext(1)
            observer.onCompleted()
            observer.onNext(2)
            observer.on(.next(3))
            observer.onCompleted()
            return Disposables.create()
        }
    }

    @Test func subscribeOnNextIgnoresWhatASourceSendsAfterItsTerminalEvent() {
        var elements: [Int] = []
        var completions = 0
        _ = MisbehavingSource().subscribe(onNext: { elements.append($0) }, onCompleted: { completions += 1 })
        #expect(elements == [1])
        #expect(completions == 1)

        var events: [Event<Int>] = []
        _ = MisbehavingSource().subscribe { events.append($0) }
        #expect(events.map(\.element) == [1, nil])
    }

    @Test func behaviorAndReplaySubjectsRecordElementsSentWithOnNext() throws {
        let behavior = BehaviorSubject(value: 0)
        behavior.onNext(5)
        #expect(try behavior.value() == 5)

        let replay = ReplaySubject<Int>.create(bufferSize: 2)
        for value in 1...4 { replay.onNext(value) }
        var replayed: [Int] = []
        let subscription = replay.subscribe(onNext: { replayed.append($0) })
        #expect(replayed == [3, 4])
        subscription.dispose()
    }
}
