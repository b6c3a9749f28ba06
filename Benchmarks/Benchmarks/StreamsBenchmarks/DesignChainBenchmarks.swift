import Benchmark
import OpenCombine
import Streams

// The design's chain (PizzaManager.all()):
//     Observable.of(a, b).merge().filter(…).distinctUntilChanged().share(replay: 1)
// with two subscribers. Elements alternate between `a` and `b`; the value is `i / 2`, so the
// filter passes everything and distinctUntilChanged drops every second element: n elements in,
// n / 2 delivered to each subscriber.
//
// OpenCombine 0.14 has no `Merge`: `[a, b].publisher.flatMap { $0 }` is the literal equivalent
// of `Observable.of(a, b).merge()`. It has no replaying share either; `share()` stands in (the
// replay buffer is not read here: both subscribers are in place before the first element).

func registerDesignChainBenchmarks() {
    let name = "Design chain merge/filter/distinct/share(replay: 1), 2 subscribers, pumping"

    scenario(name, .ours, operations: pumpCount) { benchmark in
        let a = PublishSubject<Int>()
        let b = PublishSubject<Int>()
        let shared = Observable.of(a, b).merge()
            .filter(isNonNegative)
            .distinctUntilChanged()
            .share(replay: 1)
        var sum = 0
        let first = shared.subscribe(onNext: { sum &+= $0 })
        let second = shared.subscribe(onNext: { sum &+= $0 })
        benchmark.startMeasurement()
        for value in 0..<pumpCount {
            (value.isMultiple(of: 2) ? a : b).onNext(value >> 1)
        }
        benchmark.stopMeasurement()
        first.dispose()
        second.dispose()
        blackHole(sum)
    }

    scenario(name, .openCombine, operations: pumpCount) { benchmark in
        let a = PassthroughSubject<Int, Never>()
        let b = PassthroughSubject<Int, Never>()
        let shared = [a, b].publisher.flatMap { $0 }
            .filter(isNonNegative)
            .removeDuplicates()
            .share()
        var sum = 0
        let first = shared.sink { sum &+= $0 }
        let second = shared.sink { sum &+= $0 }
        benchmark.startMeasurement()
        for value in 0..<pumpCount {
            (value.isMultiple(of: 2) ? a : b).send(value >> 1)
        }
        benchmark.stopMeasurement()
        first.cancel()
        second.cancel()
        blackHole(sum)
    }

    scenario(name, .baseline, operations: pumpCount) { benchmark in
        let a = ClosureSubject<Int>()
        let b = ClosureSubject<Int>()
        let output = ClosureSubject<Int>()
        var last: Int?
        var replay: Int?
        let merged: (Int) -> Void = { value in
            guard isNonNegative(value), value != last else { return }
            last = value
            replay = value
            output.send(value)
        }
        a.subscribe(merged)
        b.subscribe(merged)
        var sum = 0
        output.subscribe { sum &+= $0 }
        output.subscribe { sum &+= $0 }
        benchmark.startMeasurement()
        for value in 0..<pumpCount {
            (value.isMultiple(of: 2) ? a : b).send(value >> 1)
        }
        benchmark.stopMeasurement()
        blackHole(sum)
        blackHole(replay)
    }
}
