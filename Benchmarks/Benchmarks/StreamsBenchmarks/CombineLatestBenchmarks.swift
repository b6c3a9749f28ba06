import Benchmark
import Streams

// 7 nested `combineLatest` of 4: each level combines three `just(1)` with the level below (the
// innermost with the subject) and keeps the value from below. OpenCombine 0.14 has no
// `combineLatest`, so there is no peer row.

private let levels = 7

private func oursCombineLatests(_ source: Observable<Int>) -> Observable<Int> {
    var chain = source
    for _ in 0..<levels {
        chain = Observable.combineLatest(Observable.just(1), Observable.just(1), Observable.just(1), chain) { _, _, _, value in value }
    }
    return chain
}

/// The baseline: each level keeps the latest value of its four inputs and, once all four have
/// one, passes the selected value on.
private func closureCombineLatests(sink: @escaping (Int) -> Void) -> (Int) -> Void {
    final class Latest { var values: (Int?, Int?, Int?, Int?) = (1, 1, 1, nil) }
    var next = sink
    for _ in 0..<levels {
        let downstream = next
        let latest = Latest()
        next = { value in
            latest.values.3 = value
            if let _ = latest.values.0, let _ = latest.values.1, let _ = latest.values.2, let last = latest.values.3 {
                downstream(last)
            }
        }
    }
    return next
}

// The same chain with the collection form of `combineLatest` (its sources boxed as `Any`, one
// engine for every count), against the same baseline.
private func oursCollectionCombineLatests(_ source: Observable<Int>) -> Observable<Int> {
    var chain = source
    for _ in 0..<levels {
        chain = Observable.combineLatest([Observable.just(1), Observable.just(1), Observable.just(1), chain]) { values in values[3] }
    }
    return chain
}

func registerCombineLatestBenchmarks() {
    registerPumpingAndCreating(
        "combineLatest of 4, 7 nested,",
        ours: oursCombineLatests,
        openCombine: nil,
        baseline: closureCombineLatests
    )
    registerPumpingAndCreating(
        "combineLatest of a collection of 4, 7 nested,",
        ours: oursCollectionCombineLatests,
        openCombine: nil,
        baseline: closureCombineLatests
    )
}
