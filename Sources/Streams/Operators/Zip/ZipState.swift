/// The rules of `zip`, as a value: how many elements of each source wait unclaimed, which
/// sources have completed, and whether the sequence has ended; each event of a source is one
/// mutating call that returns what the sink must do.
///
/// Both engines keep one of these under their sink's lock and carry its decisions out — the
/// collection one in its ``ZipCollectionRules``, the typed one in its ``ZipTypedSink``: they
/// queue the elements themselves (first in, first out), take the heads of the queues for each
/// combination, render and deliver outside the lock, and dispose subscriptions. The per-source
/// part (``Source``) lives with each source's queue and is passed in. The value knows
/// nothing of threads, elements or observers, so the rules are tested on their own
/// (`ZipStateTests`).
///
/// What happens when sources complete, the same for `combineLatest`, is the ``SourcesEnd`` inside.
struct ZipState: Equatable {
    /// What one source has done so far.
    struct Source: Equatable {
        /// How many of its elements wait for a combination (none has claimed them).
        var available = 0
        /// Whether the source has completed.
        var isDone = false
    }

    /// What the sink does with an element a source sent.
    enum OnNext: Equatable {
        /// The sequence has ended: drop the element.
        case ignore
        /// Queue the element; some source has nothing waiting.
        case wait
        /// Queue the element, then claim one element of every source (``claim(_:)`` on each,
        /// oldest first) and emit their combination.
        case emit
        /// Complete (`completesWhenStarved`): every other source has completed, so the element
        /// can never be matched.
        case complete
    }

    /// What the sink does when a source completes.
    typealias OnCompleted = SourcesEnd.OnCompleted

    /// How many sources have completed, and whether the sequence has ended.
    private(set) var end: SourcesEnd
    /// The number of sources.
    var count: Int { end.count }
    /// Whether an element that arrives while every other source has completed, and which
    /// makes no combination, completes the sequence (RxSwift's collection `zip`); otherwise
    /// the sequence completes only when every source has.
    let completesWhenStarved: Bool
    /// How many sources have an unclaimed element.
    private(set) var nonEmptyCount = 0
    /// How many sources have completed.
    var doneCount: Int { end.doneCount }
    /// `true` once a terminal event has been decided.
    var isStopped: Bool { end.isStopped }

    /// The rules for `count` sources.
    init(count: Int, completesWhenStarved: Bool) {
        end = SourcesEnd(count: count)
        self.completesWhenStarved = completesWhenStarved
    }

    /// `source` sent an element.
    @inline(__always)
    mutating func next(_ source: inout Source) -> OnNext {
        if isStopped { return .ignore }
        source.available += 1
        if source.available == 1 {
            nonEmptyCount += 1
            if nonEmptyCount == count { return .emit }
        }
        if completesWhenStarved && doneCount == count - 1 {
            end.endNow()
            return .complete
        }
        return .wait
    }

    /// Claims the oldest unclaimed element of `source` for the combination ``next(_:)``
    /// decided to emit; called once for every source.
    @inline(__always)
    mutating func claim(_ source: inout Source) {
        source.available -= 1
        if source.available == 0 { nonEmptyCount -= 1 }
    }

    /// `source` completed.
    mutating func completed(_ source: inout Source) -> OnCompleted {
        end.completed(&source.isDone)
    }

    /// The sequence ends otherwise (a source failed, there is no source, or the sink is
    /// disposed): `true` when it was still running, so the caller sends its terminal event.
    mutating func stop() -> Bool {
        end.stop()
    }
}
