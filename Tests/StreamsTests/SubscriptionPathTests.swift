import Streams
import Foundation
import Synchronization
import TestSupport
import Testing

/// The subscription path of operators whose sink is its own disposer: each stage's sink keeps
/// its upstream subscription and disposes it exactly once, even when the dispose arrives while
/// the stage is still subscribing, and the subscriber's handle lets go of the whole chain as soon
/// as it has ended.
@Suite(.resourceCheck) struct SubscriptionPathTests {
    /// A source that counts how often its subscription is disposed.
    private final class CountingSource: @unchecked Sendable {
        let disposals = Atomic<Int>(0)
        let subscriptions = Atomic<Int>(0)

        /// Sends `elements` and then `terminal` inside `subscribe`.
        func observable(_ elements: [Int], completes: Bool) -> Observable<Int> {
            Observable.create { observer in
                self.subscriptions.add(1, ordering: .relaxed)
                for element in elements { observer.onNext(element) }
                if completes { observer.onCompleted() }
                return Disposables.create { self.disposals.add(1, ordering: .relaxed) }
            }
        }
    }

    @Test func aSourceThatEndsInsideSubscribeIsDisposedOnceThroughEveryStage() {
        let source = CountingSource()
        var events: [String] = []
        let subscription = source.observable([1, 2, 3], completes: true)
            .map { $0 * 10 }
            .filter { $0 != 20 }
            .map { "\($0)" }
            .subscribe(onNext: { events.append($0) }, onCompleted: { events.append("|") })
        #expect(events == ["10", "30", "|"])
        #expect(source.disposals.load(ordering: .relaxed) == 1)
        subscription.dispose()
        #expect(source.disposals.load(ordering: .relaxed) == 1)
    }

    @Test func aStageDisposedWhileItsUpstreamIsStillSubscribingDisposesItOnArrival() {
        // `take(1)` ends, and disposes the stages above it, while the source is still inside its
        // `subscribe`: no stage has its upstream subscription yet, each must dispose it when it
        // arrives, and once only.
        let source = CountingSource()
        var events: [Int] = []
        let subscription = source.observable([1, 2, 3], completes: false)
            .map { $0 + 1 }
            .filter { _ in true }
            .take(1)
            .map { $0 * 2 }
            .subscribe(onNext: { events.append($0) })
        #expect(events == [4])
        #expect(source.disposals.load(ordering: .relaxed) == 1)
        subscription.dispose()
        #expect(source.disposals.load(ordering: .relaxed) == 1)
    }

    @Test func disposingTheHandleDisposesTheSourceOnce() {
        let source = CountingSource()
        var events: [Int] = []
        let subscription = source.observable([1], completes: false)
            .map { $0 }
            .filter { _ in true }
            .subscribe(onNext: { events.append($0) })
        #expect(events == [1])
        #expect(source.disposals.load(ordering: .relaxed) == 0)
        subscription.dispose()
        subscription.dispose()
        #expect(source.disposals.load(ordering: .relaxed) == 1)
    }

    @Test func aFinishedSubscriptionReleasesItsStagesWhileTheHandleIsStillHeld() {
        let before = Resources.total
        let subject = PublishSubject<Int>()
        var received: [Int] = []
        let subscription = subject.map { $0 + 1 }.filter { _ in true }.map { $0 }.subscribe { event in
            if case .next(let value) = event { received.append(value) }
        }
        #expect(Resources.total > before)
        subject.onNext(1)
        subject.onCompleted()
        // The handle is still held: the sinks and the observer must be gone already.
        #expect(Resources.total == before)
        #expect(received == [2])
        subscription.dispose()
    }
}

/// The same rules with the terminal event arriving from another thread, possibly while the
/// chain is still subscribing (named so CI runs it under the thread sanitizer).
@Suite(.resourceCheck) struct SubscriptionPathStressTests {
    @Test func aSourceEndingOnAnotherThreadDuringSubscribeIsDisposedOnce() {
        for _ in 0..<200 {
            let subject = PublishSubject<Int>()
            let disposals = Atomic<Int>(0)
            let source = Observable<Int>.create { observer in
                let subscription = subject.subscribe(observer)
                return Disposables.create {
                    disposals.add(1, ordering: .relaxed)
                    subscription.dispose()
                }
            }
            let terminated = Atomic<Int>(0)
            let ended = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                subject.onNext(1)
                subject.onCompleted()
                ended.signal()
            }
            let subscription = source.map { $0 + 1 }.filter { _ in true }.map { $0 }
                .subscribe(onCompleted: { terminated.add(1, ordering: .relaxed) })
            ended.wait()
            subscription.dispose()
            #expect(disposals.load(ordering: .relaxed) == 1)
            #expect(terminated.load(ordering: .relaxed) <= 1)
        }
    }

    // MARK: what subscribe(onNext:onError:onCompleted:onDisposed:) hands out

    /// An object that only the subscriber's closures hold.
    private final class Capture {}

    /// Subscribes closures that capture a fresh object to `source` and returns the handle and a
    /// weak reference to that object.
    private func subscribeCapturing(
        _ source: Observable<Int>, events: EventBox, onDisposed: Bool
    ) -> (Disposable, () -> AnyObject?) {
        let capture = Capture()
        weak let captured = capture
        let handle = source.subscribe(
            onNext: { [capture] in _ = capture; events.add("\($0)") },
            onCompleted: { events.add("|") },
            onDisposed: onDisposed ? { events.add("disposed") } : nil
        )
        return (handle, { captured })
    }

    /// What the closures of a subscription saw.
    private final class EventBox {
        var entries: [String] = []
        func add(_ entry: String) { entries.append(entry) }
    }

    @Test(arguments: [false, true])
    func disposingTheHandleOfASubjectSubscriptionLetsGoOfTheClosuresAtOnce(onDisposed: Bool) {
        let subject = PublishSubject<Int>()
        let events = EventBox()
        let (handle, captured) = subscribeCapturing(subject.asObservable(), events: events, onDisposed: onDisposed)
        subject.onNext(1)
        #expect(captured() != nil)
        handle.dispose()
        // Still holding the handle: the closures must be gone anyway.
        #expect(captured() == nil)
        subject.onNext(2)
        handle.dispose()
        #expect(events.entries == (onDisposed ? ["1", "disposed"] : ["1"]))
        withExtendedLifetime(handle) {}
    }

    @Test(arguments: [false, true])
    func disposingTheHandleOfAChainLetsGoOfTheClosuresAtOnce(onDisposed: Bool) {
        let subject = PublishSubject<Int>()
        let events = EventBox()
        let (handle, captured) = subscribeCapturing(subject.map { $0 * 10 }.filter { _ in true }, events: events, onDisposed: onDisposed)
        subject.onNext(1)
        #expect(captured() != nil)
        handle.dispose()
        #expect(captured() == nil)
        #expect(!subject.hasObservers)
        subject.onNext(2)
        #expect(events.entries == (onDisposed ? ["10", "disposed"] : ["10"]))
        withExtendedLifetime(handle) {}
    }

    @Test(arguments: [false, true])
    func aChainThatEndsLetsGoOfTheClosuresAndCallsOnDisposedOnce(onDisposed: Bool) {
        let subject = PublishSubject<Int>()
        let events = EventBox()
        let (handle, captured) = subscribeCapturing(subject.map { $0 + 1 }, events: events, onDisposed: onDisposed)
        subject.onNext(1)
        subject.onCompleted()
        #expect(captured() == nil)
        handle.dispose()
        #expect(events.entries == (onDisposed ? ["2", "|", "disposed"] : ["2", "|"]))
        withExtendedLifetime(handle) {}
    }

    @Test func subscribeWithAnEventClosureGetsElementsThroughEitherPathAndStopsAtTheEnd() {
        // `subscribe(_:)` has no element closure: elements sent with `onNext` (a subject) and
        // with `on(.next)` (`create`) both reach it, and nothing after the terminal event.
        var events: [String] = []
        let subject = PublishSubject<Int>()
        let fromSubject = subject.subscribe { events.append("\($0)") }
        subject.onNext(1)
        subject.onCompleted()
        let fromCreate = Observable<Int>.create { observer in
            observer.on(.next(2))
            observer.onNext(3)
            observer.on(.completed)
            observer.onNext(4)
            return Disposables.create()
        }.subscribe { events.append("\($0)") }
        fromSubject.dispose()
        fromCreate.dispose()
        #expect(events == ["next(1)", "completed", "next(2)", "next(3)", "completed"])
    }
}
