import Dispatch
import Foundation
import Streams
import StreamsTesting
import TestSupport
import Testing

/// Disposing a subscription frees what it holds at once, on every scheduler: work scheduled for
/// later lets go of its closure (and so of the sinks and objects it captured) when it is
/// disposed, not when its due time comes.
@Suite(.resourceCheck) struct DisposeFreesScheduledWorkTests {
    private final class Payload: Sendable {}

    /// Schedules work capturing a payload an hour from now, disposes it, and checks the payload
    /// is gone (allowing a dispatch source's cancellation to settle, which releases its handler
    /// on its queue).
    private func expectFreed(_ scheduler: SchedulerType, settle: Bool = false) async {
        weak var weakPayload: Payload?
        do {
            let payload = Payload()
            weakPayload = payload
            let disposable = scheduler.scheduleRelative(payload, dueTime: .seconds(3600)) { payload in
                _ = payload
                return Disposables.create()
            }
            disposable.dispose()
        }
        if settle {
            for _ in 0..<200 where weakPayload != nil { try? await Task.sleep(for: .milliseconds(5)) }
        }
        #expect(weakPayload == nil)
    }

    @Test func mainScheduler() async { await expectFreed(MainScheduler.instance) }
    @Test func mainSchedulerAsync() async { await expectFreed(MainScheduler.asyncInstance) }
    @Test func serialDispatchQueue() async { await expectFreed(SerialDispatchQueueScheduler(qos: .default), settle: true) }
    @Test func concurrentDispatchQueue() async { await expectFreed(ConcurrentDispatchQueueScheduler(qos: .default), settle: true) }
    @Test func operationQueue() async { await expectFreed(OperationQueueScheduler(operationQueue: OperationQueue()), settle: true) }
    @Test func virtualTime() async { await expectFreed(TestScheduler(initialClock: 0)) }

    /// `timer` on the main scheduler: a disposed subscription's sink is freed at once
    /// (`Resources.total` back where it was), not after the due time.
    @Test func disposedTimerOnTheMainScheduler() {
        let before = Resources.total
        Observable<Int>.timer(.seconds(3), scheduler: MainScheduler.instance).subscribe().dispose()
        #expect(Resources.total == before)
    }

    /// The same on virtual time, before the clock reaches the due time.
    @Test func disposedTimerOnVirtualTime() {
        let scheduler = TestScheduler(initialClock: 0)
        let before = Resources.total
        Observable<Int>.timer(.seconds(3), scheduler: scheduler).subscribe().dispose()
        #expect(Resources.total == before)
    }

    /// `interval` into `flatMapFirst`, disposed while its first tick is pending.
    @Test func disposedIntervalFlatMapFirstOnVirtualTime() {
        let scheduler = TestScheduler(initialClock: 0)
        let before = Resources.total
        Observable<Int>.interval(.seconds(2), scheduler: scheduler)
            .flatMapFirst { _ in Observable<Int>.timer(.seconds(1), scheduler: scheduler) }
            .subscribe().dispose()
        #expect(Resources.total == before)
    }

    /// Each time-based operator, on virtual time, subscribed and disposed while its timed work
    /// is pending (an element into a debounce, a delay, a throttle's window, a retry's wait…):
    /// `Resources.total` is back at once, before the clock moves.
    @Test(arguments: ["delay", "delaySubscription", "debounce", "throttle", "timeout", "buffer", "window",
                      "take(for:)", "skip(for:)", "retry with delay", "timer", "interval"])
    func disposedTimedOperatorOnVirtualTime(_ name: String) {
        let scheduler = TestScheduler(initialClock: 0)
        let before = Resources.total
        let source = Observable<Int>.just(1).concat(Observable<Int>.never())
        let observable: Observable<Int>
        switch name {
        case "delay": observable = source.delay(.seconds(3), scheduler: scheduler)
        case "delaySubscription": observable = source.delaySubscription(.seconds(3), scheduler: scheduler)
        case "debounce": observable = source.debounce(.seconds(3), scheduler: scheduler)
        case "throttle": observable = source.throttle(.seconds(3), scheduler: scheduler)
        case "timeout": observable = source.timeout(.seconds(3), scheduler: scheduler)
        case "buffer": observable = source.buffer(timeSpan: .seconds(3), count: 10, scheduler: scheduler).map(\.count)
        case "window": observable = source.window(timeSpan: .seconds(3), count: 10, scheduler: scheduler).flatMap { $0 }
        case "take(for:)": observable = source.take(for: .seconds(3), scheduler: scheduler)
        case "skip(for:)": observable = source.skip(for: .seconds(3), scheduler: scheduler)
        case "retry with delay":
            observable = Observable<Int>.error(StreamsError.unknown)
                .retry { errors in errors.flatMap { _ in Observable<Int>.timer(.seconds(3), scheduler: scheduler) } }
        case "timer": observable = Observable<Int>.timer(.seconds(3), scheduler: scheduler)
        default: observable = Observable<Int>.interval(.seconds(3), scheduler: scheduler)
        }
        // Subscribed and disposed outside a run of the scheduler: a run drops disposed items
        // as it meets them, which would hide what a pending item holds.
        let subscription = observable.subscribe()
        let during = Resources.total
        subscription.dispose()
        #expect(during > before, "\(name): the subscription was live")
        #expect(Resources.total == before, "\(name)")
    }
}
