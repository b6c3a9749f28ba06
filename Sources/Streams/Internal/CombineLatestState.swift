/// The rules of `combineLatest`, as a value: which sources have sent an element, which have
/// completed, and whether the sequence has ended; each event of a source is one mutating call
/// that returns what the sink must do.
///
/// Both engines — the collection one (``CombineLatestSink``) and the typed one
/// (``CombineLatestTypedSinkBase``) — keep one of these under their lock and carry its
/// decisions out: they store the element, render and deliver combinations outside the lock,
/// and dispose subscriptions. The per-source part (``Source``) lives with each source's other
/// state in the sink's storage and is passed in, so the typed engine keeps its single
/// allocation. The value knows nothing of threads, elements or observers, so the rules are
/// tested on their own (`CombineLatestStateTests`).
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
    enum OnCompleted: Equatable {
        /// The sequence has ended, or this source had completed already: nothing.
        case ignore
        /// Dispose this source's subscription; others still run.
        case detach
        /// Every source has completed: complete.
        case complete
    }

    /// The number of sources.
    let count: Int
    /// How many sources have sent an element.
    private(set) var valueCount = 0
    /// How many sources have completed.
    private(set) var doneCount = 0
    /// `true` once a terminal event has been decided.
    private(set) var isStopped = false

    /// The rules for `count` sources.
    init(count: Int) {
        self.count = count
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
            isStopped = true
            return .complete
        }
        return .wait
    }

    /// `source` completed.
    mutating func completed(_ source: inout Source) -> OnCompleted {
        if isStopped || source.isDone { return .ignore }
        source.isDone = true
        doneCount += 1
        if doneCount < count { return .detach }
        isStopped = true
        return .complete
    }

    /// The sequence ends otherwise (a source failed, there is no source, or the sink is
    /// disposed): `true` when it was still running, so the caller sends its terminal event.
    mutating func stop() -> Bool {
        if isStopped { return false }
        isStopped = true
        return true
    }
}
