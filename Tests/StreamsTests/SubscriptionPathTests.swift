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
}
