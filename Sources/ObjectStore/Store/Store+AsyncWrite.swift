import Foundation
import Streams

extension Store {
    /// Runs `block` as one write transaction on the store's background writer, so that the
    /// calling thread (a UI thread) never waits for the commit or its `fsync`; then calls
    /// `onComplete` on `scheduler` with `nil`, or with the error the write threw (nothing of it
    /// was committed).
    ///
    ///     store.writeAsync({ tx in try tx.add(order) }, on: MainScheduler.instance) { error in
    ///         if let error { show(error) }
    ///     }
    ///
    /// Asynchronous writes of one store run one at a time in the order they were asked for,
    /// and each waits for any synchronous ``write(_:)`` under way (and the other way round).
    /// Observers are notified as for any commit.
    ///
    /// - Parameters:
    ///   - block: Makes the changes through the ``Transaction`` it receives (on another thread).
    ///   - scheduler: Where `onComplete` runs (the main scheduler unless told otherwise).
    ///   - onComplete: Told when the transaction is committed or rolled back.
    public func writeAsync(
        _ block: @escaping @Sendable (Transaction) throws -> Void,
        on scheduler: ImmediateSchedulerType = MainScheduler.instance,
        onComplete: (@Sendable (Swift.Error?) -> Void)? = nil
    ) {
        let scheduler = UncheckedSendable(scheduler)
        core.writeQueue.async { [self] in
            var failure: Swift.Error?
            do { try write(block) } catch { failure = error }
            guard let onComplete else { return }
            let outcome = UncheckedSendable(failure)
            _ = scheduler.value.schedule(()) { _ in
                onComplete(outcome.value)
                return Disposables.create()
            }
        }
    }

    /// Runs `block` as one write transaction on the store's background writer and returns
    /// what it returns, without blocking the caller's thread (Realm's `asyncWrite`; GRDB's
    /// `try await dbQueue.write`).
    ///
    ///     let id = try await store.asyncWrite { tx in
    ///         try tx.add(order)
    ///         return order.id
    ///     }
    ///
    /// `write` itself stays synchronous in `async` code too (an `async` overload of it would
    /// make every `try store.write { … }` already in `async` code a compile error), so
    /// `try await store.write { … }` compiles but commits on the calling thread: use this
    /// method to leave it. Writes are ordered and serialised as for
    /// ``writeAsync(_:on:onComplete:)``, and observers are notified as for any commit.
    ///
    /// - Parameter block: Makes the changes through the ``Transaction`` it receives (on another
    ///   thread).
    /// - Returns: What `block` returns.
    /// - Throws: What `block` throws (after rolling back), the store's errors, or
    ///   `CancellationError` when the task was cancelled before the write began (nothing ran).
    @discardableResult
    public func asyncWrite<Result: Sendable>(_ block: @escaping @Sendable (Transaction) throws -> Result) async throws -> Result {
        let cancelled = CancellationFlag()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Result, Swift.Error>) in
                core.writeQueue.async { [self] in
                    if cancelled.isSet { return continuation.resume(throwing: CancellationError()) }
                    continuation.resume(with: Swift.Result { try write(block) })
                }
            }
        } onCancel: {
            cancelled.set()
        }
    }
}

/// A store has reactive extensions under `rx` (`store.rx.write { … }`).
extension Store: ReactiveCompatible {}

extension Reactive where Base: Store {
    /// A write transaction as a `Single`: each subscription runs `block` once on the store's
    /// background writer and succeeds with what it returns, or fails with what it throws
    /// (nothing committed). Disposing before the write began cancels it; after, the commit
    /// completes and its result is dropped. The event arrives on the writer's thread: use
    /// `observe(on:)` to move it.
    ///
    ///     store.rx.write { tx in try tx.add(order) }:   --(())|   or  --x
    ///
    /// - Parameter block: Makes the changes through the ``Transaction`` it receives.
    /// - Returns: A single of what `block` returns.
    public func write<Result>(_ block: @escaping @Sendable (Transaction) throws -> Result) -> Single<Result> {
        let store = base
        return Single<Result>.create { observer in
            let cancelled = CancellationFlag()
            let deliver = UncheckedSendable(observer)
            store.core.writeQueue.async {
                if cancelled.isSet { return }
                let outcome = Swift.Result { try store.write(block) }
                if !cancelled.isSet { deliver.value(outcome) }
            }
            return Disposables.create { cancelled.set() }
        }
    }
}

/// A flag set once, read from any thread (a write cancelled before it began).
final class CancellationFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false

    /// Whether ``set()`` was called.
    var isSet: Bool { lock.withLock { value } }

    /// Sets the flag.
    func set() { lock.withLock { value = true } }
}
