/// The concurrency rules of `merge`, `flatMap` and `concatMap` as a value: how many inners run,
/// which wait their turn (in arrival order), and when the whole sequence completes. The sink
/// keeps one under its lock and does what each call returns after releasing it; tests drive it
/// with no thread and no subscription (`MergeStateTests`).
///
///     maxConcurrent 1:  innerArrived(a) → start   innerArrived(b) → wait
///                       innerCompleted() → start(b)   outerCompleted() → false
///                       innerCompleted() → complete
struct MergeState<Inner> {
    /// What follows the completion of a running inner.
    enum AfterInner {
        /// Start this waiting inner (it takes the finished one's place).
        case start(Inner)
        /// Every inner and the outer sequence are done: complete.
        case complete
        /// Nothing to do.
        case none
    }

    /// The most inners running at once.
    let maxConcurrent: Int
    /// Inners subscribed and not completed.
    private(set) var active = 0
    /// Whether the outer sequence completed.
    private(set) var outerStopped = false
    /// The inners waiting their turn from `waitingHead` on; a slot is emptied when its inner
    /// starts, so an inner that has started (and later finished) is not kept alive by the queue
    /// while others still wait behind it.
    private var waiting: [Inner?] = []
    private var waitingHead = 0

    @inline(__always)
    init(maxConcurrent: Int) { self.maxConcurrent = maxConcurrent }

    /// How many inners wait their turn.
    @inline(__always)
    var waitingCount: Int { waiting.count - waitingHead }

    /// An inner arrived: `true` to subscribe it now (it counts as running), `false` when it
    /// was queued behind the running ones.
    @inline(__always)
    mutating func innerArrived(_ inner: Inner) -> Bool {
        if active < maxConcurrent {
            active += 1
            return true
        }
        waiting.append(inner)
        return false
    }

    /// An inner that ends as soon as it starts arrived (`just`, which sends its one element
    /// first, or `empty`): `true` to deliver it now (it never counts as running), `false` when
    /// it was queued behind the running ones, to be started in its turn. (An `of` inner, whose
    /// elements may be delivered over several steps, arrives through ``innerArrived(_:)`` and
    /// counts as running until it completes.)
    @inline(__always)
    mutating func immediateInnerArrived(_ inner: Inner) -> Bool {
        if active < maxConcurrent { return true }
        waiting.append(inner)
        return false
    }

    /// A running inner completed.
    @inline(__always)
    mutating func innerCompleted() -> AfterInner {
        if waitingHead < waiting.count {
            let next = waiting[waitingHead].take()!
            waitingHead += 1
            if waitingHead == waiting.count {
                waiting.removeAll(keepingCapacity: true)
                waitingHead = 0
            }
            return .start(next)
        }
        active -= 1
        return outerStopped && active == 0 ? .complete : .none
    }

    /// The outer sequence completed: `true` when nothing runs or waits, so the whole completes.
    @inline(__always)
    mutating func outerCompleted() -> Bool {
        outerStopped = true
        return active == 0 && waitingHead == waiting.count
    }
}
