import Benchmark
import OpenCombine
import Streams

// `Variable` fan-out: one variable, 1,000 observers, n value changes (so 1,000 × n deliveries).
// OpenCombine's peer is `CurrentValueSubject`.

private let observerCount = 1_000
private let changeCount = 100

func registerFanOutBenchmarks() {
    let name = "Variable fan-out to 1000 observers, pumping"

    scenario(name, .ours, operations: changeCount) { benchmark in
        let variable = Variable(0)
        var sum = 0
        let subscriptions = (0..<observerCount).map { _ in
            variable.asObservable().subscribe(onNext: { sum &+= $0 })
        }
        benchmark.startMeasurement()
        for value in 1...changeCount { variable.value = value }
        benchmark.stopMeasurement()
        subscriptions.forEach { $0.dispose() }
        blackHole(sum)
    }

    scenario(name, .openCombine, operations: changeCount) { benchmark in
        let subject = CurrentValueSubject<Int, Never>(0)
        var sum = 0
        let subscriptions = (0..<observerCount).map { _ in subject.sink { sum &+= $0 } }
        benchmark.startMeasurement()
        for value in 1...changeCount { subject.value = value }
        benchmark.stopMeasurement()
        subscriptions.forEach { $0.cancel() }
        blackHole(sum)
    }

    scenario(name, .baseline, operations: changeCount) { benchmark in
        let variable = ClosureVariable(0)
        var sum = 0
        for _ in 0..<observerCount { variable.subscribe { sum &+= $0 } }
        benchmark.startMeasurement()
        for value in 1...changeCount { variable.value = value }
        benchmark.stopMeasurement()
        blackHole(sum)
    }
}
