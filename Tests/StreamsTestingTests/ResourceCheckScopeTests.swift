import Foundation
import Streams
import StreamsTesting
import TestSupport
import Testing

/// Why every suite that subscribes carries `.resourceCheck`, or none does: the trait holds
/// back only the tests that carry it, and `Resources.total` counts every subscription in the
/// process — every test target of the package runs in one.
@Suite(.resourceCheck) struct ResourceCheckScopeTests {
    /// A detached task stands for a test without the trait: nothing makes it wait for this
    /// one. It subscribes while this traited test runs, and the count the trait compares at
    /// the end moves with it. The task's steps are handed over through streams, so the order
    /// is fixed: subscribed, counted, released, disposed.
    @Test func aSubscriptionOutsideTheTraitMovesTheCountTheTraitCompares() async {
        let before = Resources.total
        let (subscribed, subscribedContinuation) = AsyncStream<Void>.makeStream()
        let (released, releasedContinuation) = AsyncStream<Void>.makeStream()
        let untraited = Task.detached {
            let subject = PublishSubject<Int>()
            let subscription = subject.subscribe(onNext: { _ in })
            subscribedContinuation.finish()
            for await _ in released {}
            subscription.dispose()
        }
        for await _ in subscribed {}
        let during = Resources.total
        // Had this test ended here, the trait would have reported the other task's
        // subscription as this test's leak.
        #expect(during > before)
        releasedContinuation.finish()
        await untraited.value
        #expect(Resources.total == before)
    }
}
