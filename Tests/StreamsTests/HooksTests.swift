import Foundation
import Streams
import TestSupport
import Testing
import Locking

/// RxSwift's `Hooks`: the default error handler receives the subscription's call stack when
/// `recordCallStackOnError` is on, captured by `customCaptureSubscriptionCallstack`.
@Suite(.resourceCheck, .serialized) struct HooksTests {
    /// An error only these tests raise, so handlers installed here ignore other tests' errors.
    struct HookError: Error, Equatable { let id: Int }

    /// Runs `body` with the hooks as they were restored afterwards.
    func withHooks(_ body: () -> Void) {
        let handler = Hooks.defaultErrorHandler
        let capture = Hooks.customCaptureSubscriptionCallstack
        let record = Hooks.recordCallStackOnError
        defer {
            Hooks.defaultErrorHandler = handler
            Hooks.customCaptureSubscriptionCallstack = capture
            Hooks.recordCallStackOnError = record
        }
        body()
    }

    @Test func anUnhandledErrorReachesTheHandlerWithTheCapturedStack() {
        withHooks {
            let seen = Locked<[(stack: [String], id: Int)]>([])
            Hooks.defaultErrorHandler = { stack, error in
                if let error = error as? HookError { seen.withLock { $0.append((stack, error.id)) } }
            }
            Hooks.customCaptureSubscriptionCallstack = { ["frame 1", "frame 2"] }
            Hooks.recordCallStackOnError = true
            _ = Observable<Int>.error(HookError(id: 1)).subscribe(onNext: { _ in })
            _ = Single<Int>.error(HookError(id: 2)).subscribe(onSuccess: { _ in })
            _ = Maybe<Int>.error(HookError(id: 3)).subscribe(onSuccess: { _ in })
            _ = Completable.error(HookError(id: 4)).subscribe(onCompleted: {})
            Hooks.recordCallStackOnError = false
            _ = Observable<Int>.error(HookError(id: 5)).subscribe(onNext: { _ in })
            let recorded = seen.withLock { $0 }
            #expect(recorded.map(\.id) == [1, 2, 3, 4, 5])
            #expect(recorded.prefix(4).allSatisfy { $0.stack == ["frame 1", "frame 2"] })
            #expect(recorded.last?.stack == [])
        }
    }

    @Test func aHandledErrorNeverReachesTheHook() {
        withHooks {
            let seen = Locked(0)
            Hooks.defaultErrorHandler = { _, error in if error is HookError { seen.withLock { $0 += 1 } } }
            _ = Observable<Int>.error(HookError(id: 6)).subscribe(onError: { _ in })
            #expect(seen.withLock { $0 } == 0)
        }
    }
}
