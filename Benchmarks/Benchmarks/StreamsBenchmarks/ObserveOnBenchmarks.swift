import Benchmark
import Dispatch
import OpenCombine
import OpenCombineDispatch
import Streams

// `observe(on:)` hop throughput: n elements sent on the benchmark thread, each delivered on a
// serial dispatch queue; the measurement ends when the last one has arrived.
// OpenCombine's peer is `receive(on:)` a `DispatchQueue`; the baseline is `DispatchQueue.async`
// per element.

/// Counts deliveries on the receiving queue and signals when all have arrived.
private final class Arrivals: @unchecked Sendable {
    private let expected: Int
    private var count = 0
    let done = DispatchSemaphore(value: 0)

    init(expected: Int) { self.expected = expected }

    /// Called on the receiving queue only.
    func arrived() {
        count += 1
        if count == expected { done.signal() }
    }
}

func registerObserveOnBenchmarks() {
    let name = "observe(on:) serial queue hop, pumping"

    scenario(name, .ours, operations: pumpCount) { benchmark in
        let scheduler = SerialDispatchQueueScheduler(internalSerialQueueName: "benchmarks.observe-on")
        let subject = PublishSubject<Int>()
        let arrivals = Arrivals(expected: pumpCount)
        let subscription = subject.observe(on: scheduler).subscribe(onNext: { _ in arrivals.arrived() })
        benchmark.startMeasurement()
        for value in 0..<pumpCount { subject.onNext(value) }
        arrivals.done.wait()
        benchmark.stopMeasurement()
        subscription.dispose()
    }

    scenario(name, .openCombine, operations: pumpCount) { benchmark in
        let queue = DispatchQueue(label: "benchmarks.receive-on")
        let subject = PassthroughSubject<Int, Never>()
        let arrivals = Arrivals(expected: pumpCount)
        let subscription = subject.receive(on: queue.ocombine).sink { _ in arrivals.arrived() }
        benchmark.startMeasurement()
        for value in 0..<pumpCount { subject.send(value) }
        arrivals.done.wait()
        benchmark.stopMeasurement()
        subscription.cancel()
    }

    scenario(name, .baseline, operations: pumpCount) { benchmark in
        let queue = DispatchQueue(label: "benchmarks.async")
        let subject = ClosureSubject<Int>()
        let arrivals = Arrivals(expected: pumpCount)
        subject.subscribe { value in queue.async { blackHole(value); arrivals.arrived() } }
        benchmark.startMeasurement()
        for value in 0..<pumpCount { subject.send(value) }
        arrivals.done.wait()
        benchmark.stopMeasurement()
    }
}
