import Streams
import TestSupport
import Testing

@Suite(.resourceCheck) struct AsyncSequenceObservableTests {
    @Test func sendsElementsThenCompletes() async throws {
        let stream = AsyncStream<Int> { continuation in
            for value in 1...3 { continuation.yield(value) }
            continuation.finish()
        }
        var collected: [Int] = []
        for try await value in stream.asObservable().map({ $0 * 10 }).values { collected.append(value) }
        #expect(collected == [10, 20, 30])
    }

    @Test func fromAsyncSequenceForwardsTheError() async {
        let stream = AsyncThrowingStream<Int, Error> { continuation in
            continuation.yield(1)
            continuation.finish(throwing: testError)
        }
        var collected: [Int] = []
        await #expect(throws: TestError.boom) {
            for try await value in Observable.from(stream).values { collected.append(value) }
        }
        #expect(collected == [1])
    }

    @Test func theIteratingTaskRunsAtTheGivenPriorityAndOffTheCallersActor() async throws {
        struct Priorities: AsyncSequence, AsyncIteratorProtocol {
            var sent = false
            mutating func next() async -> TaskPriority? {
                defer { sent = true }
                return sent ? nil : Task.currentPriority
            }
            func makeAsyncIterator() -> Priorities { self }
        }
        var seen: [TaskPriority?] = []
        for try await priority in Priorities().asObservable(priority: .low).values { seen.append(priority) }
        #expect(seen == [.low])
        let onMain = await MainActor.run { Priorities().asObservable() }
        var elements = 0
        for try await _ in onMain.values { elements += 1 }
        #expect(elements == 1)
    }

    @Test func aCancellationErrorFromTheSequenceCompletesTheObservable() async throws {
        let stream = AsyncThrowingStream<Int, Error> { continuation in
            continuation.yield(1)
            continuation.finish(throwing: CancellationError())
        }
        var collected: [Int] = []
        // As RxSwift's: the sequence's own CancellationError ends the observable normally.
        for try await value in stream.asObservable().values { collected.append(value) }
        #expect(collected == [1])
    }

    @Test func disposingCancelsTheIteratingTask() async {
        let terminated = AsyncTestBox(false)
        let (stream, continuation) = AsyncStream<Int>.makeStream()
        continuation.onTermination = { _ in terminated.update { $0 = true } }
        let received = AsyncTestBox<[Int]>([])
        let completed = AsyncTestBox(false)
        let subscription = stream.asObservable().subscribe(
            onNext: { value in received.update { $0.append(value) } },
            onCompleted: { completed.update { $0 = true } }
        )
        continuation.yield(1)
        #expect(await asyncWaitUntil { received.value == [1] })
        subscription.dispose()
        #expect(await asyncWaitUntil { terminated.value })
        continuation.yield(2)
        continuation.finish()
        #expect(received.value == [1])
        #expect(!completed.value)
    }

    @Test func eachSubscriptionIteratesAFreshSequence() async throws {
        let numbers = Observable.from(AsyncRange(count: 3))
        var first: [Int] = []
        for try await value in numbers.values { first.append(value) }
        var second: [Int] = []
        for try await value in numbers.values { second.append(value) }
        #expect(first == [0, 1, 2])
        #expect(second == [0, 1, 2])
    }
}

/// A small restartable asynchronous sequence of `0..<count`.
private struct AsyncRange: AsyncSequence {
    typealias Element = Int
    let count: Int

    struct AsyncIterator: AsyncIteratorProtocol {
        var current = 0
        let count: Int
        mutating func next() async -> Int? {
            guard current < count else { return nil }
            defer { current += 1 }
            await Task.yield()
            return current
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(count: count) }
}
