/// The rules of `flatMapLatest` and `switchLatest` as a value: each inner gets an id, only the
/// latest one's events pass, and the whole completes once the outer sequence and the latest
/// inner have. The sink keeps one under its lock and acts on what each call returns after
/// releasing it; tests drive it with no thread (`SwitchStateTests`).
///
///     innerArrived → 1   innerArrived → 2   isLatest(1) → false
///     outerCompleted() → false (inner 2 runs)   innerEnded(2, failed: false) → complete
struct SwitchState {
    /// What the end of an inner leads to.
    enum InnerEnd: Equatable {
        /// The inner was replaced: its end changes nothing.
        case ignore
        /// The latest inner failed: the whole fails with its error.
        case fail
        /// The latest inner completed after the outer did: the whole completes.
        case complete
        /// The latest inner completed; the outer still runs.
        case `continue`
    }

    /// The id of the latest inner (0 before the first).
    private(set) var latest: UInt64 = 0
    /// Whether the latest inner is still running.
    private(set) var hasLatest = false
    /// Whether the outer sequence completed.
    private(set) var outerStopped = false

    /// A new inner replaces the latest: its id. `running` is `false` for an inner that sends its
    /// one element and completes at once (`just`), which is never waited for.
    @inline(__always)
    mutating func innerArrived(running: Bool) -> UInt64 {
        latest &+= 1
        hasLatest = running
        return latest
    }

    /// Whether inner `id` is the latest (only its elements pass).
    @inline(__always)
    func isLatest(_ id: UInt64) -> Bool { id == latest }

    /// Inner `id` ended, with an error or not.
    @inline(__always)
    mutating func innerEnded(_ id: UInt64, failed: Bool) -> InnerEnd {
        guard id == latest else { return .ignore }
        if failed { return .fail }
        hasLatest = false
        return outerStopped ? .complete : .continue
    }

    /// The outer sequence completed: `true` when no inner runs, so the whole completes now.
    @inline(__always)
    mutating func outerCompleted() -> Bool {
        outerStopped = true
        return !hasLatest
    }
}
