import Benchmark
import OpenCombine
import Streams

// Subject pumping (1 and 2 subscribers) and subject creating (create + subscribe + 1 event +
// dispose).

func registerSubjectBenchmarks() {
    for subscribers in [1, 2] {
        let name = "Subject pumping, \(subscribers) subscriber\(subscribers == 1 ? "" : "s")"

        scenario(name, .ours, operations: pumpCount) { benchmark in
            let subject = PublishSubject<Int>()
            var sum = 0
            let subscriptions = (0..<subscribers).map { _ in subject.subscribe(onNext: { sum &+= $0 }) }
            benchmark.startMeasurement()
            for value in 0..<pumpCount { subject.onNext(value) }
            benchmark.stopMeasurement()
            subscriptions.forEach { $0.dispose() }
            blackHole(sum)
        }

        scenario(name, .openCombine, operations: pumpCount) { benchmark in
            let subject = PassthroughSubject<Int, Never>()
            var sum = 0
            let subscriptions = (0..<subscribers).map { _ in subject.sink { sum &+= $0 } }
            benchmark.startMeasurement()
            for value in 0..<pumpCount { subject.send(value) }
            benchmark.stopMeasurement()
            subscriptions.forEach { $0.cancel() }
            blackHole(sum)
        }

        scenario(name, .baseline, operations: pumpCount) { benchmark in
            let subject = ClosureSubject<Int>()
            var sum = 0
            for _ in 0..<subscribers { subject.subscribe { sum &+= $0 } }
            benchmark.startMeasurement()
            for value in 0..<pumpCount { subject.send(value) }
            benchmark.stopMeasurement()
            blackHole(sum)
        }
    }

    let creating = "Subject creating"

    scenario(creating, .ours, operations: createCount) { benchmark in
        var sum = 0
        benchmark.startMeasurement()
        for value in 0..<createCount {
            let subject = PublishSubject<Int>()
            let subscription = subject.subscribe(onNext: { sum &+= $0 })
            subject.onNext(value)
            subscription.dispose()
        }
        benchmark.stopMeasurement()
        blackHole(sum)
    }

    scenario(creating, .openCombine, operations: createCount) { benchmark in
        var sum = 0
        benchmark.startMeasurement()
        for value in 0..<createCount {
            let subject = PassthroughSubject<Int, Never>()
            let subscription = subject.sink { sum &+= $0 }
            subject.send(value)
            subscription.cancel()
        }
        benchmark.stopMeasurement()
        blackHole(sum)
    }

    scenario(creating, .baseline, operations: createCount) { benchmark in
        var sum = 0
        benchmark.startMeasurement()
        for value in 0..<createCount {
            let subject = ClosureSubject<Int>()
            let key = subject.subscribe { sum &+= $0 }
            subject.send(value)
            subject.remove(key)
        }
        benchmark.stopMeasurement()
        blackHole(sum)
    }
}
