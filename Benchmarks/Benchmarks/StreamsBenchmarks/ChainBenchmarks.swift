import Benchmark
import OpenCombine
import Streams

// A 12-stage chain, map and filter alternating (6 of each), on a subject: pumping elements
// through a live chain, and creating (build + subscribe + 1 event + dispose).

private let stageCount = 12

/// Our 12-stage chain on `source`.
private func oursChain(_ source: Observable<Int>) -> Observable<Int> {
    var chain = source
    for stage in 0..<stageCount {
        chain = stage.isMultiple(of: 2) ? chain.map(increment) : chain.filter(isNonNegative)
    }
    return chain
}

/// OpenCombine's 12-stage chain on `source`, spelled out so every stage keeps its concrete type.
private func openCombineChain(_ source: PassthroughSubject<Int, Never>) -> some Publisher<Int, Never> {
    source
        .map(increment).filter(isNonNegative)
        .map(increment).filter(isNonNegative)
        .map(increment).filter(isNonNegative)
        .map(increment).filter(isNonNegative)
        .map(increment).filter(isNonNegative)
        .map(increment).filter(isNonNegative)
}

func registerChainBenchmarks() {
    let pumping = "Map/filter chain of 12 pumping"

    scenario(pumping, .ours, operations: pumpCount) { benchmark in
        let subject = PublishSubject<Int>()
        var sum = 0
        let subscription = oursChain(subject.asObservable()).subscribe(onNext: { sum &+= $0 })
        benchmark.startMeasurement()
        for value in 0..<pumpCount { subject.onNext(value) }
        benchmark.stopMeasurement()
        subscription.dispose()
        blackHole(sum)
    }

    scenario(pumping, .openCombine, operations: pumpCount) { benchmark in
        let subject = PassthroughSubject<Int, Never>()
        var sum = 0
        let subscription = openCombineChain(subject).sink { sum &+= $0 }
        benchmark.startMeasurement()
        for value in 0..<pumpCount { subject.send(value) }
        benchmark.stopMeasurement()
        subscription.cancel()
        blackHole(sum)
    }

    scenario(pumping, .baseline, operations: pumpCount) { benchmark in
        let subject = ClosureSubject<Int>()
        var sum = 0
        subject.subscribe(closureChain(stages: stageCount) { sum &+= $0 })
        benchmark.startMeasurement()
        for value in 0..<pumpCount { subject.send(value) }
        benchmark.stopMeasurement()
        blackHole(sum)
    }

    let creating = "Map/filter chain of 12 creating"

    scenario(creating, .ours, operations: createCount) { benchmark in
        var sum = 0
        benchmark.startMeasurement()
        for value in 0..<createCount {
            let subject = PublishSubject<Int>()
            let subscription = oursChain(subject.asObservable()).subscribe(onNext: { sum &+= $0 })
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
            let subscription = openCombineChain(subject).sink { sum &+= $0 }
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
            let key = subject.subscribe(closureChain(stages: stageCount) { sum &+= $0 })
            subject.send(value)
            subject.remove(key)
        }
        benchmark.stopMeasurement()
        blackHole(sum)
    }
}
