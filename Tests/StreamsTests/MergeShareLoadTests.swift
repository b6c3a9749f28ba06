import Foundation
import Streams
import Testing
import TestSupport

/// Load: 10 threads push events through `merge` + `share(replay:)` into 100 subscribers at once.
///
/// Each thread owns one source and sends `perSource` numbered events; every subscriber must see
/// every event exactly once, each source's events in the order they were sent, then one
/// `completed`. The default `perSource` keeps a debug build on 2 cores at a few seconds;
/// (5,000 per thread) `REACTIVEMVVM_FULL_LOAD=1` runs the full 100,000 events per thread from issue 9.
@Suite(.resourceCheck) struct MergeShareLoadTests {
    static let threads = 10
    static let subscribers = 100
    static let perSource = ProcessInfo.processInfo.environment["REACTIVEMVVM_FULL_LOAD"] == "1" ? 100_000 : 5_000

    /// What one subscriber saw. The grammar says a subscription's observer is never called
    /// concurrently; the lock is there so that a violation shows up as a failed check, not a crash.
    final class Recorder: @unchecked Sendable {
        let lock = NSLock()
        var next: [[Int]] = Array(repeating: [], count: MergeShareLoadTests.threads)
        var completed = 0
        var errors = 0
        var afterTerminal = 0
        var inside = false
        var overlapping = 0

        func on(_ event: Event<Int>) {
            lock.lock()
            if inside { overlapping += 1 }
            inside = true
            if completed > 0 || errors > 0 { afterTerminal += 1 }
            switch event {
            case .next(let value): next[value % 16].append(value / 16)
            case .error: errors += 1
            case .completed: completed += 1
            }
            inside = false
            lock.unlock()
        }
    }

    @Test func mergeShareReplayDeliversEverythingOnceInOrder() throws {
        let sources = (0..<Self.threads).map { _ in PublishSubject<Int>() }
        let shared = Observable.merge(sources.map { $0.asObservable() }).share(replay: 1)
        let recorders = (0..<Self.subscribers).map { _ in Recorder() }
        let subscriptions = recorders.map { recorder in shared.subscribe { recorder.on($0) } }

        let group = DispatchGroup()
        for (index, source) in sources.enumerated() {
            group.enter()
            let thread = Thread {
                for sequence in 0..<Self.perSource { source.onNext(sequence * 16 + index) }
                source.onCompleted()
                group.leave()
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
        #expect(group.wait(timeout: .now() + 600) == .success, "the sending threads did not finish")

        let expected = Array(0..<Self.perSource)
        for (number, recorder) in recorders.enumerated() {
            recorder.lock.lock()
            defer { recorder.lock.unlock() }
            #expect(recorder.completed == 1, "subscriber \(number) completed \(recorder.completed) times")
            #expect(recorder.errors == 0)
            #expect(recorder.afterTerminal == 0, "subscriber \(number) got events after completed")
            #expect(recorder.overlapping == 0, "subscriber \(number) was called concurrently")
            for source in 0..<Self.threads where recorder.next[source] != expected {
                let got = recorder.next[source]
                Issue.record("subscriber \(number), source \(source): \(got.count) of \(expected.count) events, first difference at index \(got.indices.first { $0 >= expected.count || got[$0] != expected[$0] } ?? got.count)")
            }
        }
        subscriptions.forEach { $0.dispose() }
    }

    @Test func lateSubscriberGetsTheReplayedLatestThenTheRest() {
        // A subscriber joining while the threads run gets the latest element first, then a
        // gap-free, ordered continuation from each source.
        let sources = (0..<Self.threads).map { _ in PublishSubject<Int>() }
        let shared = Observable.merge(sources.map { $0.asObservable() }).share(replay: 1)
        let early = Recorder()
        let earlySubscription = shared.subscribe { early.on($0) }
        let late = Recorder()
        let lateSubscription = SingleAssignmentDisposable()

        let group = DispatchGroup()
        for (index, source) in sources.enumerated() {
            group.enter()
            Thread {
                for sequence in 0..<Self.perSource {
                    if index == 0 && sequence == Self.perSource / 2 {
                        lateSubscription.setDisposable(shared.subscribe { late.on($0) })
                    }
                    source.onNext(sequence * 16 + index)
                }
                source.onCompleted()
                group.leave()
            }.start()
        }
        #expect(group.wait(timeout: .now() + 600) == .success, "the sending threads did not finish")

        let expected = Array(0..<Self.perSource)
        #expect(early.completed == 1 && late.completed == 1)
        #expect(early.overlapping == 0 && late.overlapping == 0)
        for source in 0..<Self.threads {
            #expect(early.next[source] == expected, "early subscriber, source \(source)")
            // The late one's events from each source are a contiguous, ordered tail, except that
            // the replayed element may come from any source and may precede a newer one.
            let got = late.next[source]
            let tail = got.count > 1 && got[0] + 1 != got[1] ? Array(got.dropFirst()) : got
            if let first = tail.first {
                #expect(tail == Array(first..<Self.perSource), "late subscriber, source \(source)")
            }
        }
        #expect(late.next[0].contains(Self.perSource - 1), "the late subscriber saw the end of the source that subscribed it")
        earlySubscription.dispose()
        lateSubscription.dispose()
    }
}
