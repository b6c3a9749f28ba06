import Benchmark
import OpenCombine
import Streams

// 7 nested `zip` of 4: each level zips the subject three times with the level below (the
// innermost with the subject itself) and keeps the value from below, so every element pumped
// fills one place of each of the 22 queues and goes out through all 7 levels. OpenCombine's
// peer is its `Zip4`.

private let levels = 7

private func oursZips(_ source: Observable<Int>) -> Observable<Int> {
    var chain = source
    for _ in 0..<levels {
        chain = Observable.zip(source, source, source, chain) { _, _, _, value in value }
    }
    return chain
}

private func openCombineZips(_ source: PassthroughSubject<Int, Never>, _ sum: Total) -> AnyCancellable {
    var chain = source.eraseToAnyPublisher()
    for _ in 0..<levels {
        chain = Publishers.Zip4(source, source, source, chain).map { $0.3 }.eraseToAnyPublisher()
    }
    return chain.sink { sum.value &+= $0 }
}

/// The baseline: each level keeps a first-in first-out queue per input (an array and the index
/// of its head); an element goes into the three side queues of every level, outermost first as
/// the subject's subscribers are, then up from the innermost level, each passing the head of
/// its four queues on once all four have one.
private func closureZips(sink: @escaping (Int) -> Void) -> (Int) -> Void {
    final class Queue {
        var items: [Int] = []
        var head = 0
        var isEmpty: Bool { head == items.count }
        func append(_ value: Int) { items.append(value) }
        func removeFirst() -> Int {
            let value = items[head]
            head += 1
            if head == items.count {
                items.removeAll(keepingCapacity: true)
                head = 0
            }
            return value
        }
    }
    final class Level {
        let queues = [Queue(), Queue(), Queue(), Queue()]
    }
    let chain = (0..<levels).map { _ in Level() }
    // Level 0 is the outermost: its output goes to the sink.
    var up: [(Int) -> Void] = Array(repeating: sink, count: levels)
    for index in stride(from: levels - 1, through: 0, by: -1) {
        let level = chain[index]
        let downstream: (Int) -> Void = index == 0 ? sink : { value in up[index - 1](value) }
        up[index] = { value in
            level.queues[3].append(value)
            if level.queues.allSatisfy({ !$0.isEmpty }) {
                _ = level.queues[0].removeFirst()
                _ = level.queues[1].removeFirst()
                _ = level.queues[2].removeFirst()
                downstream(level.queues[3].removeFirst())
            }
        }
    }
    let entries = up
    return { value in
        for level in chain {
            level.queues[0].append(value)
            level.queues[1].append(value)
            level.queues[2].append(value)
        }
        entries[levels - 1](value)
    }
}

// The same chain with the collection form of `zip` (its sources boxed as `Any`, one engine for
// every count), against the same peer and baseline.
private func oursCollectionZips(_ source: Observable<Int>) -> Observable<Int> {
    var chain = source
    for _ in 0..<levels {
        chain = Observable.zip([source, source, source, chain]) { values in values[3] }
    }
    return chain
}

func registerZipBenchmarks() {
    registerPumpingAndCreating(
        "zip of 4, 7 nested,",
        ours: oursZips,
        openCombine: openCombineZips,
        baseline: closureZips
    )
    registerPumpingAndCreating(
        "zip of a collection of 4, 7 nested,",
        ours: oursCollectionZips,
        openCombine: openCombineZips,
        baseline: closureZips
    )
}
