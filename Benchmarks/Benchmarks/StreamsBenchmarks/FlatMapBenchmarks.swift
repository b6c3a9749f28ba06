import Benchmark
import OpenCombine
import Streams

// 5 chained `flatMap { just($0) }` and 5 chained `flatMapLatest { just($0) }`: every element
// subscribes 5 inner sequences, so these scenarios allocate per element by nature (the inner
// sequences and their subscriptions); the figure to watch is how many.

private let depth = 5

private func oursFlatMaps(_ source: Observable<Int>) -> Observable<Int> {
    var chain = source
    for _ in 0..<depth { chain = chain.flatMap { Observable.just($0) } }
    return chain
}

private func oursFlatMapLatests(_ source: Observable<Int>) -> Observable<Int> {
    var chain = source
    for _ in 0..<depth { chain = chain.flatMapLatest { Observable.just($0) } }
    return chain
}

private func openCombineFlatMaps(_ source: PassthroughSubject<Int, Never>) -> some Publisher<Int, Never> {
    source
        .flatMap { Just($0) }
        .flatMap { Just($0) }
        .flatMap { Just($0) }
        .flatMap { Just($0) }
        .flatMap { Just($0) }
}

private func openCombineSwitchToLatests(_ source: PassthroughSubject<Int, Never>) -> some Publisher<Int, Never> {
    source
        .map { Just($0) }.switchToLatest()
        .map { Just($0) }.switchToLatest()
        .map { Just($0) }.switchToLatest()
        .map { Just($0) }.switchToLatest()
        .map { Just($0) }.switchToLatest()
}

/// The baseline of `flatMap { just($0) }`: per element, a stage makes an inner source (a
/// closure that emits the element) and runs it into the next stage.
private func closureFlatMaps(sink: @escaping (Int) -> Void) -> (Int) -> Void {
    var next = sink
    for _ in 0..<depth {
        let downstream = next
        next = { value in
            let inner: ((Int) -> Void) -> Void = { $0(value) }
            inner(downstream)
        }
    }
    return next
}

/// The baseline of `flatMapLatest { just($0) }`: as ``closureFlatMaps(sink:)``, and each stage
/// keeps its latest inner source, replacing the previous one.
private func closureFlatMapLatests(sink: @escaping (Int) -> Void) -> (Int) -> Void {
    final class Latest { var inner: (((Int) -> Void) -> Void)? }
    var next = sink
    for _ in 0..<depth {
        let downstream = next
        let latest = Latest()
        next = { value in
            latest.inner = { $0(value) }
            latest.inner?(downstream)
        }
    }
    return next
}

func registerFlatMapBenchmarks() {
    registerPumpingAndCreating(
        "flatMap x5",
        ours: oursFlatMaps,
        openCombine: { subject, sum in openCombineFlatMaps(subject).sink { sum.value &+= $0 } },
        baseline: closureFlatMaps
    )
}

func registerFlatMapLatestBenchmarks() {
    registerPumpingAndCreating(
        "flatMapLatest x5",
        ours: oursFlatMapLatests,
        openCombine: { subject, sum in openCombineSwitchToLatests(subject).sink { sum.value &+= $0 } },
        baseline: closureFlatMapLatests
    )
}

/// A running total shared with subscription closures.
final class Total {
    var value = 0
}

/// Registers "<name> pumping" and "<name> creating" for the flavours of a chain on a subject:
/// `ours` builds our chain on the subject, `openCombine` (nil when OpenCombine has no
/// equivalent) subscribes its chain adding each element to the total, `baseline` builds the
/// plain-closure chain in front of a sink.
func registerPumpingAndCreating(
    _ name: String,
    ours: @escaping (Observable<Int>) -> Observable<Int>,
    openCombine: ((PassthroughSubject<Int, Never>, Total) -> AnyCancellable)?,
    baseline: @escaping (@escaping (Int) -> Void) -> (Int) -> Void
) {
    scenario("\(name) pumping", .ours, operations: pumpCount) { benchmark in
        let subject = PublishSubject<Int>()
        let sum = Total()
        let subscription = ours(subject.asObservable()).subscribe(onNext: { sum.value &+= $0 })
        benchmark.startMeasurement()
        for value in 0..<pumpCount { subject.onNext(value) }
        benchmark.stopMeasurement()
        subscription.dispose()
        blackHole(sum.value)
    }

    if let openCombine {
        scenario("\(name) pumping", .openCombine, operations: pumpCount) { benchmark in
            let subject = PassthroughSubject<Int, Never>()
            let sum = Total()
            let subscription = openCombine(subject, sum)
            benchmark.startMeasurement()
            for value in 0..<pumpCount { subject.send(value) }
            benchmark.stopMeasurement()
            subscription.cancel()
            blackHole(sum.value)
        }
    }

    scenario("\(name) pumping", .baseline, operations: pumpCount) { benchmark in
        let subject = ClosureSubject<Int>()
        let sum = Total()
        subject.subscribe(baseline { sum.value &+= $0 })
        benchmark.startMeasurement()
        for value in 0..<pumpCount { subject.send(value) }
        benchmark.stopMeasurement()
        blackHole(sum.value)
    }

    scenario("\(name) creating", .ours, operations: createCount) { benchmark in
        let sum = Total()
        benchmark.startMeasurement()
        for value in 0..<createCount {
            let subject = PublishSubject<Int>()
            let subscription = ours(subject.asObservable()).subscribe(onNext: { sum.value &+= $0 })
            subject.onNext(value)
            subscription.dispose()
        }
        benchmark.stopMeasurement()
        blackHole(sum.value)
    }

    if let openCombine {
        scenario("\(name) creating", .openCombine, operations: createCount) { benchmark in
            let sum = Total()
            benchmark.startMeasurement()
            for value in 0..<createCount {
                let subject = PassthroughSubject<Int, Never>()
                let subscription = openCombine(subject, sum)
                subject.send(value)
                subscription.cancel()
            }
            benchmark.stopMeasurement()
            blackHole(sum.value)
        }
    }

    scenario("\(name) creating", .baseline, operations: createCount) { benchmark in
        let sum = Total()
        benchmark.startMeasurement()
        for value in 0..<createCount {
            let subject = ClosureSubject<Int>()
            let key = subject.subscribe(baseline { sum.value &+= $0 })
            subject.send(value)
            subject.remove(key)
        }
        benchmark.stopMeasurement()
        blackHole(sum.value)
    }
}
