import Streams
import TestSupport
import Testing

@Suite(.resourceCheck) struct ObservableTaskTests {
    @Test func sendsElementsAndCompletesWhenTheBodyReturns() async throws {
        let numbers = Observable<Int>.task { observer in
            for value in 1...3 {
                await Task.yield()
                observer.onNext(value)
            }
        }
        var collected: [Int] = []
        for try await value in numbers.values { collected.append(value) }
        #expect(collected == [1, 2, 3])
    }

    @Test func failsWithTheThrownError() async {
        let failing = Observable<Int>.task { observer in
            observer.onNext(1)
            throw testError
        }
        var collected: [Int] = []
        await #expect(throws: TestError.boom) {
            for try await value in failing.values { collected.append(value) }
        }
        #expect(collected == [1])
    }

    @Test func disposingCancelsTheTask() async {
        let cancelled = AsyncTestBox(false)
        let started = AsyncTestBox(false)
        let events = AsyncTestBox<[String]>([])
        let sleeper = Observable<Int>.task { observer in
            started.update { $0 = true }
            do {
                try await Task.sleep(nanoseconds: 60_000_000_000)
            } catch {
                cancelled.update { $0 = error is CancellationError }
                observer.onNext(99)
                throw error
            }
        }
        let subscription = sleeper.subscribe(
            onNext: { value in events.update { $0.append("next \(value)") } },
            onError: { _ in events.update { $0.append("error") } },
            onCompleted: { events.update { $0.append("completed") } }
        )
        #expect(await asyncWaitUntil { started.value })
        subscription.dispose()
        #expect(await asyncWaitUntil { cancelled.value })
        #expect(events.value == [])
    }

    @Test func bodyMayEndTheSequenceItself() async throws {
        let early = Observable<Int>.task { observer in
            observer.onNext(1)
            observer.onCompleted()
            observer.onNext(2)
        }
        var collected: [Int] = []
        for try await value in early.values { collected.append(value) }
        #expect(collected == [1])
    }
}
