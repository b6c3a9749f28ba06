import Benchmark
import OpenCombine
import Streams

// Sharing, creating: a source, `share(replay: 1)`, two subscribers, one event, both disposed —
// the life of a shared sequence a view model builds and tears down. OpenCombine has no
// replaying share; `share()` stands in (the replay buffer is not read: both subscribers are in
// place before the event).

func registerSharingBenchmarks() {
    let creating = "share(replay: 1) creating, 2 subscribers"

    scenario(creating, .ours, operations: createCount) { benchmark in
        var sum = 0
        benchmark.startMeasurement()
        for value in 0..<createCount {
            let subject = PublishSubject<Int>()
            let shared = subject.share(replay: 1)
            let first = shared.subscribe(onNext: { sum &+= $0 })
            let second = shared.subscribe(onNext: { sum &+= $0 })
            subject.onNext(value)
            first.dispose()
            second.dispose()
        }
        benchmark.stopMeasurement()
        blackHole(sum)
    }

    scenario(creating, .openCombine, operations: createCount) { benchmark in
        var sum = 0
        benchmark.startMeasurement()
        for value in 0..<createCount {
            let subject = PassthroughSubject<Int, Never>()
            let shared = subject.share()
            let first = shared.sink { sum &+= $0 }
            let second = shared.sink { sum &+= $0 }
            subject.send(value)
            first.cancel()
            second.cancel()
        }
        benchmark.stopMeasurement()
        blackHole(sum)
    }

    scenario(creating, .baseline, operations: createCount) { benchmark in
        var sum = 0
        benchmark.startMeasurement()
        for value in 0..<createCount {
            // The source and the shared stage, each a list of closures; the shared stage keeps
            // the last value as its replay.
            let subject = ClosureSubject<Int>()
            let shared = ClosureSubject<Int>()
            var replay: Int?
            let connection = subject.subscribe { value in
                replay = value
                shared.send(value)
            }
            let first = shared.subscribe { sum &+= $0 }
            let second = shared.subscribe { sum &+= $0 }
            subject.send(value)
            shared.remove(first)
            shared.remove(second)
            subject.remove(connection)
            blackHole(replay)
        }
        benchmark.stopMeasurement()
        blackHole(sum)
    }
}
