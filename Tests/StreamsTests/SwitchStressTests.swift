import Dispatch
import Foundation
import Streams
import Testing
import Locking

/// flatMapLatest with inners that emit from other threads while the outer switches: an element
/// of a replaced inner never arrives after one of its successor, elements never overlap, each
/// inner's elements stay in order. Named for CI's thread-sanitizer run.
///
/// What it cannot show: disposing the replaced inner already stops its elements before they
/// reach the switch, so a switch that checked "is this inner still the latest" apart from
/// queueing the element (or not at all) passed this test too when tried. That ordering rests on
/// `SwitchSink` deciding and queueing in one lock step (`SerializingSink.sendNext(_:if:)`).
@Suite(.resourceCheck) struct SwitchStressTests {
    @Test func anElementOfAReplacedInnerNeverFollowsOneOfItsSuccessor() {
        let workers = DispatchQueue(label: "switch.stress.inners", attributes: .concurrent)
        for round in 0..<10 {
            let log = Locked<(pairs: [(inner: Int, index: Int)], inside: Int, overlapped: Bool)>(([], 0, false))
            let done = DispatchSemaphore(value: 0)
            let outer = Observable<Int>.create { observer in
                DispatchQueue.global().async {
                    // Each switch happens while the previous inner is busy emitting.
                    for inner in 0..<60 {
                        observer.onNext(inner)
                        usleep(300)
                    }
                    usleep(2_000)
                    observer.onCompleted()
                }
                return Disposables.create()
            }
            let subscription = outer.flatMapLatest { inner in
                Observable<(inner: Int, index: Int)>.create { observer in
                    let stop = Locked(false)
                    // The first element synchronously, on the outer's thread, right after the
                    // switch; the rest from a worker thread.
                    observer.onNext((inner, 0))
                    workers.async {
                        var index = 1
                        while !stop.withLock({ $0 }), index < 100_000 {
                            observer.onNext((inner, index))
                            index += 1
                        }
                        observer.onCompleted()
                    }
                    return Disposables.create { stop.withLock { $0 = true } }
                }
            }.subscribe(onNext: { pair in
                log.withLock { state in
                    if state.inside > 0 { state.overlapped = true }
                    state.inside += 1
                }
                log.withLock { state in
                    state.pairs.append(pair)
                    state.inside -= 1
                }
            }, onCompleted: { done.signal() })
            #expect(done.wait(timeout: .now() + 20) == .success, "round \(round) did not complete")
            let state = log.withLock { $0 }
            #expect(!state.overlapped, "round \(round): two elements at once")
            var latestInner = -1
            var lastIndex: [Int: Int] = [:]
            for pair in state.pairs {
                #expect(pair.inner >= latestInner, "round \(round): inner \(pair.inner) after inner \(latestInner)")
                latestInner = max(latestInner, pair.inner)
                #expect(pair.index > lastIndex[pair.inner, default: -1], "round \(round): inner \(pair.inner) out of order")
                lastIndex[pair.inner] = pair.index
            }
            subscription.dispose()
        }
    }
}
