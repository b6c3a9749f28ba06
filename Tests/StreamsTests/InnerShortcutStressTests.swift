import Dispatch
import Foundation
import Streams
import Testing
import Locking

/// `flatMap` with inner `just`s (delivered by the operator's shortcut, with no subscription)
/// alongside inner subjects, fed from four threads at once: every element arrives exactly once
/// and no two deliveries overlap, so the shortcut's elements go through the same serialised
/// delivery as the subjects'. Named for CI's thread-sanitizer run.
@Suite(.resourceCheck) struct InnerShortcutStressTests {
    @Test func justInnersFedFromFourThreadsAreDeliveredOnceWithoutOverlap() async {
        let perThread = 5_000
        // Two threads feed the outer (through `merge`, which serialises them); two feed inner
        // subjects, which deliver on their own threads while the `just`s arrive.
        let feeds = (0..<2).map { _ in PublishSubject<Int>() }
        let inners = (0..<2).map { _ in PublishSubject<Int>() }
        let log = Locked<(values: [Int], inside: Bool, overlapped: Bool)>(([], false, false))
        let subscription = Observable.merge(feeds.map { $0.asObservable() })
            .flatMap { value in value < 0 ? inners[-value - 1].asObservable() : Observable.just(value) }
            .subscribe(onNext: { value in
                log.withLock { state in
                    if state.inside { state.overlapped = true }
                    state.inside = true
                    state.values.append(value)
                }
                for _ in 0..<20 { _ = value &* 31 }
                log.withLock { $0.inside = false }
            })
        feeds[0].onNext(-1)
        feeds[0].onNext(-2)
        await withTaskGroup(of: Void.self) { group in
            for thread in 0..<4 {
                group.addTask {
                    let first = thread * perThread
                    for value in first..<(first + perThread) {
                        switch thread {
                        case 0, 1: feeds[thread].onNext(value)
                        default: inners[thread - 2].onNext(value)
                        }
                    }
                }
            }
        }
        subscription.dispose()
        let state = log.withLock { $0 }
        #expect(!state.overlapped, "two elements at once")
        #expect(state.values.count == 4 * perThread)
        #expect(state.values.sorted() == Array(0..<(4 * perThread)))
        // Each thread's elements keep their order.
        for thread in 0..<4 {
            let mine = state.values.filter { $0 / perThread == thread }
            #expect(mine == Array((thread * perThread)..<((thread + 1) * perThread)), "thread \(thread)")
        }
    }
}
