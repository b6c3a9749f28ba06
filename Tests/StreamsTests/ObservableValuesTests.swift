import Streams
import StreamsTesting
import TestSupport
import Testing

@Suite(.resourceCheck) struct ObservableValuesTests {
    @Test func yieldsElementsUntilCompletion() async throws {
        var collected: [Int] = []
        for try await value in Observable.of(1, 2, 3).values {
            collected.append(value)
        }
        #expect(collected == [1, 2, 3])
    }

    @Test func throwsTheSequenceError() async {
        let failing = Observable<Int>.create { observer in
            observer.onNext(1)
            observer.onError(testError)
            return Disposables.create()
        }
        var collected: [Int] = []
        await #expect(throws: TestError.boom) {
            for try await value in failing.values { collected.append(value) }
        }
        #expect(collected == [1])
    }

    @Test func buffersEverythingSentBeforeConsumption() async throws {
        let stream = Observable.from(Array(0..<1_000)).values
        var collected: [Int] = []
        for try await value in stream { collected.append(value) }
        #expect(collected == Array(0..<1_000))
    }

    @Test func cancellingTheConsumingTaskDisposesTheSubscription() async {
        let subject = PublishSubject<Int>()
        let received = AsyncTestBox<[Int]>([])
        let consumer = Task {
            for try await value in subject.values {
                received.update { $0.append(value) }
            }
        }
        #expect(await asyncWaitUntil { subject.hasObservers })
        subject.onNext(1)
        #expect(await asyncWaitUntil { received.value == [1] })
        consumer.cancel()
        #expect(await asyncWaitUntil { !subject.hasObservers })
        _ = await consumer.result
        subject.onNext(2)
        #expect(received.value == [1])
    }

    /// RxSwift's rule: a loop over a sequence that never ends, in a cancelled task, throws
    /// `CancellationError` instead of ending as if the sequence had completed.
    @Test func aCancelledTaskThrowsCancellationError() async {
        let consumer = Task { () -> String in
            do {
                for try await _ in Observable<Int>.never().values {}
                return "ended normally"
            } catch is CancellationError {
                return "CancellationError"
            } catch {
                return "\(error)"
            }
        }
        consumer.cancel()
        #expect(await consumer.value == "CancellationError")
        let waiting = Task { () -> String in
            do {
                for try await _ in PublishSubject<Int>().values {}
                return "ended normally"
            } catch {
                return error is CancellationError ? "CancellationError" : "\(error)"
            }
        }
        try? await Task.sleep(nanoseconds: 10_000_000)
        waiting.cancel()
        #expect(await waiting.value == "CancellationError")
    }

    @Test func completionIsNotCancellation() async throws {
        let task = Task { () -> [Int] in
            var values: [Int] = []
            for try await value in Observable.from(1...10).values { values.append(value) }
            return values
        }
        #expect(try await task.value == Array(1...10))
        task.cancel()
    }

    @Test func leavingTheLoopDisposesTheSubscription() async throws {
        let subject = BehaviorSubject(value: 7)
        var first: Int?
        for try await value in subject.values {
            first = value
            break
        }
        #expect(first == 7)
        #expect(await asyncWaitUntil { !subject.hasObservers })
    }

    @Test func driverValuesNeverThrow() async {
        let scheduler = TestScheduler(initialClock: 0)
        var collected: [Int] = []
        await SharingScheduler.mock(scheduler: scheduler) {
            let stream = Observable<Int>.create { observer in
                observer.onNext(1)
                observer.onError(testError)
                return Disposables.create()
            }.asDriver(onErrorJustReturn: -1).values
            scheduler.start()
            for await value in stream { collected.append(value) }
        }
        #expect(collected == [1, -1])
    }
}
