import Streams
import TestSupport
import Testing

@Suite(.resourceCheck) struct PrimitiveSequenceValueTests {
    @Test func singleValue() async throws {
        #expect(try await Single.just(4).value == 4)
        let later = Observable<Int>.task { observer in
            try await Task.sleep(nanoseconds: 1_000_000)
            observer.onNext(5)
        }.asSingle()
        #expect(try await later.value == 5)
        await #expect(throws: TestError.boom) { try await Single<Int>.error(testError).value }
        await #expect(throws: StreamsError.self) { try await Observable<Int>.empty().asSingle().value }
    }

    @Test func maybeValue() async throws {
        #expect(try await Maybe.just(1).value == 1)
        #expect(try await Maybe<Int>.empty().value == nil)
        await #expect(throws: TestError.boom) { try await Maybe<Int>.error(testError).value }
    }

    @Test func completableValue() async throws {
        let done = AsyncTestBox(false)
        try await Completable.create { observer in
            done.update { $0 = true }
            observer(.completed)
            return Disposables.create()
        }.value
        #expect(done.value)
        await #expect(throws: TestError.boom) { try await Completable.error(testError).value }
    }

    @Test func cancellingTheWaitingTaskDisposesAndThrowsCancellation() async {
        let disposed = AsyncTestBox(false)
        let subscribed = AsyncTestBox(false)
        let never = Single<Int>.create { _ in
            subscribed.update { $0 = true }
            return Disposables.create { disposed.update { $0 = true } }
        }
        let waiter = Task { try await never.value }
        #expect(await asyncWaitUntil { subscribed.value })
        waiter.cancel()
        let result = await waiter.result
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(disposed.value)
    }

    @Test func anAlreadyCancelledTaskStillGetsTheOutcomeOfASequenceThatEndsAtOnce() async throws {
        // As RxSwift: the wait subscribes even when its task is cancelled; what ends during the
        // subscription gives its outcome, what does not is disposed with CancellationError.
        let subscribed = AsyncTestBox(0)
        let single = Single<Int>.create { observer in
            subscribed.update { $0 += 1 }
            observer(.success(1))
            return Disposables.create()
        }
        let immediate = await Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await single.value
        }.result
        #expect(try immediate.get() == 1)
        let empty = await Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await Maybe<Int>.empty().value
        }.result
        #expect(try empty.get() == nil)
        let completed: Result<Void, Error> = await Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await Completable.empty().value
        }.result
        try completed.get()
        let disposed = AsyncTestBox(false)
        let pending = await Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await Single<Int>.create { _ in Disposables.create { disposed.update { $0 = true } } }.value
        }.result
        #expect(throws: CancellationError.self) { try pending.get() }
        #expect(disposed.value)
        #expect(subscribed.value == 1)
    }
}
