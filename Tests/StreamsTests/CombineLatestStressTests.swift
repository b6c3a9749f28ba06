import Dispatch
import Streams
import TestSupport
import Testing
import Locking

/// The typed `combineLatest` with every source on its own thread: combinations decided while
/// another thread delivers are queued by value and delivered after it, one at a time, in the
/// order they were decided. Named for CI's thread-sanitizer run.
@Suite(.resourceCheck) struct CombineLatestStressTests {
    @Test func fourSourcesOnFourThreadsAreDeliveredOneAtATimeInDecisionOrder() {
        let perSource = 2_000
        for round in 0 ..< 10 {
            let subjects = (0 ..< 4).map { _ in PublishSubject<Int>() }
            let log = Locked<(values: [[Int]], inside: Bool, overlapped: Bool, completions: Int)>(([], false, false, 0))
            let subscription = Observable.combineLatest(subjects[0], subjects[1], subjects[2], subjects[3]) { [$0, $1, $2, $3] }
                .subscribe(onNext: { values in
                    log.withLock { state in
                        if state.inside { state.overlapped = true }
                        state.inside = true
                        state.values.append(values)
                    }
                    // Stay a moment, so that other threads decide while this one delivers.
                    for _ in 0 ..< 100 { blackHole(values) }
                    log.withLock { $0.inside = false }
                }, onCompleted: {
                    log.withLock { $0.completions += 1 }
                })
            for subject in subjects { subject.onNext(0) }
            // The four threads start together, so that they overlap even on few cores.
            let ready = DispatchGroup()
            let start = DispatchSemaphore(value: 0)
            let group = DispatchGroup()
            for subject in subjects {
                ready.enter()
                DispatchQueue.global().async(group: group) {
                    ready.leave()
                    start.wait()
                    for value in 1 ... perSource { subject.onNext(value) }
                    subject.onCompleted()
                }
            }
            ready.wait()
            for _ in subjects { start.signal() }
            group.wait()
            let (delivered, overlapped, completions) = log.withLock { ($0.values, $0.overlapped, $0.completions) }
            #expect(!overlapped, "round \(round): two elements at once")
            #expect(completions == 1, "round \(round)")
            #expect(delivered.count == 1 + 4 * perSource, "round \(round)")
            #expect(delivered.last == [perSource, perSource, perSource, perSource], "round \(round)")
            // Each source's latest only moves forward in decision order, so in delivery order too.
            var previous = [0, 0, 0, 0]
            var ordered = true
            for values in delivered {
                if zip(values, previous).contains(where: { $0 < $1 }) { ordered = false }
                previous = values
            }
            #expect(ordered, "round \(round): a combination was delivered out of decision order")
            subscription.dispose()
        }
    }
}

@inline(never)
private func blackHole<T>(_ value: T) { withExtendedLifetime(value) {} }
