/// The part of the rules of `combineLatest` and `zip` that both share: how many of their
/// sources have completed, whether the sequence has ended, and what a source's completion or
/// the end of the sequence for any other reason does. ``CombineLatestState`` and ``ZipState``
/// each keep one and add their own rules for elements.
struct SourcesEnd: Equatable {
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
    /// How many sources have completed.
    private(set) var doneCount = 0
    /// `true` once a terminal event has been decided.
    private(set) var isStopped = false

    /// The end of a sequence of `count` sources, none completed yet.
    init(count: Int) {
        self.count = count
    }

    /// A source completed; `isDone` is its own flag.
    @inline(__always)
    mutating func completed(_ isDone: inout Bool) -> OnCompleted {
        if isStopped || isDone { return .ignore }
        isDone = true
        doneCount += 1
        if doneCount < count { return .detach }
        isStopped = true
        return .complete
    }

    /// The sequence ends for a reason the element rules decided.
    @inline(__always)
    mutating func endNow() {
        isStopped = true
    }

    /// The sequence ends otherwise (a source failed, there is no source, or the sink is
    /// disposed): `true` when it was still running, so the caller sends its terminal event.
    mutating func stop() -> Bool {
        if isStopped { return false }
        isStopped = true
        return true
    }
}
