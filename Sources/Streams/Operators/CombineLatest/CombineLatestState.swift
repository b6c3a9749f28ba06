/// The rules of `combineLatest`, as a value: which sources have sent an element, which have
/// completed, and whether the sequence has ended; each event of a source is one mutating call
/// that returns what the sink must do.
///
/// Both engines keep one of these under their sink's lock and carry its decisions out — the
/// collection one in its ``CombineLatestCollectionRules``, the typed one in its
/// ``CombineLatestTypedSink``: they store the element, render and deliver combinations outside
/// the lock, and dispose subscriptions. The per-source part (``Source``) lives with each
/// source's other state and is passed in, so the typed engine keeps its states and values in
/// one allocation. The value knows nothing of threads, elements or observers, so the rules are
/// tested on their own (`CombineLatestStateTests`).
///
/// What happens when sources complete, the same for `zip`, is the ``SourcesEnd`` inside.
struct CombineLatestState: Equatable {
    /// What one source has done so far.
    struct Source: Equatable {
        /// Whether the source has sent an element (the sink holds its latest).
        var hasValue = false
        /// Whether the source has completed.
        var isDone = false
    }

    /// What the sink does with an element a source sent.
    enum OnNext: Equatable {
        /// The sequence has ended: drop the element.
        case ignore
        /// Keep the element as the source's latest; some source has sent nothing yet.
        case wait
        /// Keep the element as the source's latest and emit the combination of every latest.
        case emit
        /// Keep the element, and complete: every other source has completed and one of them
        /// never sent an element, so no combination can ever be made.
        case complete
    }

    /// What the sink does when a source completes.
    typealias OnCompleted = SourcesEnd.OnCompleted

    /// How many sources have completed, and whether the sequence has ended.
    private(set) var end: SourcesEnd
    /// The number of sources.
    var count: Int { end.count }
    /// How many sources have sent an element.
    private(set) var valueCount = 0
    /// How many sources have completed.
    var doneCount: Int { end.doneCount }
    /// `true` once a terminal event has been decided.
    var isStopped: Bool { end.isStopped }

    /// The rules for `count` sources.
    init(count: Int) {
        end = SourcesEnd(count: count)
    }

    /// `source` sent an element.
    @inline(__always)
    mutating func next(_ source: inout Source) -> OnNext {
        if isStopped { return .ignore }
        if !source.hasValue {
            source.hasValue = true
            valueCount += 1
        }
        if valueCount == count { return .emit }
        if doneCount - (source.isDone ? 1 : 0) == count - 1 {
            // Every other source has completed and one of them never sent a value.
            end.endNow()
            return .complete
        }
        return .wait
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
