import Dispatch
import Streams
import TestSupport
import Testing
import Locking

/// The typed `zip` with every source on its own thread: the queues are filled from four threads
/// at once, combinations go out one at a time in order, and disposal from another thread races
/// the sources. (With each source on one thread, the thread that completes the n-th combination
/// is the one whose (n+1)-th element the next needs, so element decisions do not overlap here;
/// a decision taken during a delivery is covered by ZipArityTests' re-entrancy tests.) Named for
/// CI's thread-sanitizer run.
@Suite(.resourceCheck) struct ZipStressTests {
    @Test func fourSourcesOnFourThreadsAreDeliveredOneAtATimeInOrder() {
        let perSource = 2_000
        for round in 0 ..< 10 {
            let subjects = (0 ..< 4).map { _ in PublishSubject<Int>() }
            let log = Locked<(values: [[Int]], inside: Bool, overlapped: Bool, completions: Int)>(([], false, false, 0))
            let subscription = Observable.zip(subjects[0], subjects[1], subjects[2], subjects[3]) { [$0, $1, $2, $3] }
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
            // The n-th combination holds every source's n-th element, in delivery order.
            #expect(delivered == (1 ... perSource).map { [$0, $0, $0, $0] }, "round \(round)")
            subscription.dispose()
        }
    }

    @Test func disposalFromAnotherThreadWhileSourcesSendReleasesEverything() {
        final class Token {}
        for _ in 0 ..< 50 {
            let subjects = (0 ..< 4).map { _ in PublishSubject<Token>() }
            nonisolated(unsafe) let subscription = Observable.zip(subjects[0], subjects[1], subjects[2], subjects[3])
                .subscribe(onNext: { blackHole($0) })
            let group = DispatchGroup()
            for (index, subject) in subjects.enumerated() {
                DispatchQueue.global().async(group: group) {
                    // Uneven rates, so that queues grow while others are taken from.
                    for _ in 0 ..< 200 * (index + 1) { subject.onNext(Token()) }
                }
            }
            DispatchQueue.global().async(group: group) { subscription.dispose() }
            group.wait()
            subscription.dispose()
            for subject in subjects { #expect(!subject.hasObservers) }
        }
    }
}

@inline(never)
private func blackHole<T>(_ value: T) { withExtendedLifetime(value) {} }
