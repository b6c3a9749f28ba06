import Synchronization
import Foundation

/// Converts between a virtual clock and real time for a ``VirtualTimeScheduler``.
public protocol VirtualTimeConverterType {
    /// The virtual time type (for example `Int` ticks).
    associatedtype VirtualTimeUnit
    /// The virtual time interval type.
    associatedtype VirtualTimeIntervalUnit

    /// The real time of a virtual time.
    func convertFromVirtualTime(_ virtualTime: VirtualTimeUnit) -> RxTime
    /// The virtual time of a real time.
    func convertToVirtualTime(_ time: RxTime) -> VirtualTimeUnit
    /// The length in seconds of a virtual interval.
    func convertFromVirtualTimeInterval(_ virtualTimeInterval: VirtualTimeIntervalUnit) -> TimeInterval
    /// The virtual interval of a real interval in seconds.
    func convertToVirtualTimeInterval(_ timeInterval: TimeInterval) -> VirtualTimeIntervalUnit
    /// `time` moved by `offset`.
    func offsetVirtualTime(_ time: VirtualTimeUnit, offset: VirtualTimeIntervalUnit) -> VirtualTimeUnit
    /// The order of two virtual times.
    func compareVirtualTime(_ lhs: VirtualTimeUnit, _ rhs: VirtualTimeUnit) -> VirtualTimeComparison
}

/// The result of comparing two virtual times.
public enum VirtualTimeComparison: Sendable {
    /// The left time is earlier.
    case lessThan
    /// Both times are equal.
    case equal
    /// The left time is later.
    case greaterThan
}

/// A scheduler whose clock only moves when told to: work runs in due-time order (and in
/// scheduling order for equal times) as ``start()`` or ``advanceTo(_:)`` move the clock.
///
/// Used by tests to make time-based operators deterministic. Not meant for concurrent use.
open class VirtualTimeScheduler<Converter: VirtualTimeConverterType>: SchedulerType, @unchecked Sendable {
    /// The virtual time type.
    public typealias VirtualTime = Converter.VirtualTimeUnit
    /// The virtual interval type.
    public typealias VirtualTimeInterval = Converter.VirtualTimeIntervalUnit

    private var running = false
    private var currentClock: VirtualTime
    private var schedulerQueue: [VirtualSchedulerItem<VirtualTime>] = []
    private var nextId = 0
    private let converter: Converter

    /// Creates a scheduler whose clock starts at `initialClock`.
    public init(initialClock: VirtualTime, converter: Converter) {
        self.currentClock = initialClock
        self.converter = converter
    }

    /// The virtual clock.
    public var clock: VirtualTime { currentClock }

    /// The real time that the virtual clock stands for.
    public var now: RxTime { converter.convertFromVirtualTime(clock) }

    /// Schedules `action` at the current virtual time.
    public func schedule<StateType>(_ state: StateType, action: @escaping (StateType) -> Disposable) -> Disposable {
        scheduleRelative(state, dueTime: .microseconds(0), action: action)
    }

    /// Schedules `action` after `dueTime` of virtual time.
    public func scheduleRelative<StateType>(_ state: StateType, dueTime: RxTimeInterval, action: @escaping (StateType) -> Disposable) -> Disposable {
        if dueTime == .never { return Disposables.create() }
        let time = now.adding(dueTime)
        let absoluteTime = converter.convertToVirtualTime(time)
        let adjustedTime = adjustScheduledTime(absoluteTime)
        return scheduleAbsoluteVirtual(state, time: adjustedTime, action: action)
    }

    /// Schedules `action` after a virtual interval.
    public func scheduleRelativeVirtual<StateType>(_ state: StateType, dueTime: VirtualTimeInterval, action: @escaping (StateType) -> Disposable) -> Disposable {
        let time = converter.offsetVirtualTime(clock, offset: dueTime)
        return scheduleAbsoluteVirtual(state, time: time, action: action)
    }

    /// Schedules `action` at an absolute virtual time.
    public func scheduleAbsoluteVirtual<StateType>(_ state: StateType, time: VirtualTime, action: @escaping (StateType) -> Disposable) -> Disposable {
        let item = VirtualSchedulerItem(action: { action(state) }, time: time, id: nextId)
        nextId += 1
        insert(item)
        return item
    }

    /// Lets subclasses move a due time (the test scheduler adds a processing delay).
    open func adjustScheduledTime(_ time: VirtualTime) -> VirtualTime { time }

    /// Runs scheduled work in order until none is left or ``stop()`` is called.
    public func start() {
        guard !running else { return }
        running = true
        while running, let next = findNext() {
            if converter.compareVirtualTime(next.time, clock) == .greaterThan {
                currentClock = next.time
            }
            next.invoke()
        }
        running = false
    }

    /// Stops ``start()`` after the current action.
    public func stop() { running = false }

    /// Runs every action due up to `virtualTime`, then sets the clock to it.
    ///
    /// - Parameter virtualTime: The time to move to; moving back is an error.
    public func advanceTo(_ virtualTime: VirtualTime) {
        guard !running else { return }
        precondition(converter.compareVirtualTime(clock, virtualTime) != .greaterThan, "Can't advance the virtual clock backwards")
        running = true
        while running, let next = peekNext() {
            if converter.compareVirtualTime(next.time, virtualTime) == .greaterThan { break }
            removeFirst()
            if converter.compareVirtualTime(next.time, clock) == .greaterThan {
                currentClock = next.time
            }
            next.invoke()
        }
        currentClock = virtualTime
        running = false
    }

    /// Moves the clock forward by `virtualInterval` without running anything.
    public func sleep(_ virtualInterval: VirtualTimeInterval) {
        let sleepTo = converter.offsetVirtualTime(clock, offset: virtualInterval)
        precondition(converter.compareVirtualTime(sleepTo, clock) != .lessThan, "Can't sleep to the past")
        currentClock = sleepTo
    }

    private func peekNext() -> VirtualSchedulerItem<VirtualTime>? {
        while let first = schedulerQueue.first {
            if first.isDisposed {
                removeFirst()
                continue
            }
            return first
        }
        return nil
    }

    private func findNext() -> VirtualSchedulerItem<VirtualTime>? {
        while let first = schedulerQueue.first {
            if first.isDisposed {
                removeFirst()
                continue
            }
            removeFirst()
            return first
        }
        return nil
    }

    // A binary min-heap ordered by (time, id).
    private func precedes(_ a: VirtualSchedulerItem<VirtualTime>, _ b: VirtualSchedulerItem<VirtualTime>) -> Bool {
        switch converter.compareVirtualTime(a.time, b.time) {
        case .lessThan: return true
        case .greaterThan: return false
        case .equal: return a.id < b.id
        }
    }

    private func insert(_ item: VirtualSchedulerItem<VirtualTime>) {
        schedulerQueue.append(item)
        var child = schedulerQueue.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            if precedes(schedulerQueue[child], schedulerQueue[parent]) {
                schedulerQueue.swapAt(child, parent)
                child = parent
            } else {
                break
            }
        }
    }

    private func removeFirst() {
        let last = schedulerQueue.count - 1
        schedulerQueue.swapAt(0, last)
        schedulerQueue.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1
            let right = left + 1
            var smallest = parent
            if left < schedulerQueue.count, precedes(schedulerQueue[left], schedulerQueue[smallest]) { smallest = left }
            if right < schedulerQueue.count, precedes(schedulerQueue[right], schedulerQueue[smallest]) { smallest = right }
            if smallest == parent { return }
            schedulerQueue.swapAt(parent, smallest)
            parent = smallest
        }
    }
}

extension VirtualTimeScheduler: CustomDebugStringConvertible {
    /// The virtual clock and the time it stands for, for debugging.
    public var debugDescription: String {
        "\(type(of: self)) at \(clock) (now \(now))"
    }
}

final class VirtualSchedulerItem<Time>: Cancelable, @unchecked Sendable {
    let time: Time
    let id: Int
    /// Handed out once, as `ScheduledItem`'s: a disposed item lets go of its closure at once.
    private let claimed = Atomic<Bool>(false)
    private var action: (() -> Disposable)?
    private let disposable = SingleAssignmentDisposable()

    init(action: @escaping () -> Disposable, time: Time, id: Int) {
        self.action = action
        self.time = time
        self.id = id
    }

    var isDisposed: Bool { disposable.isDisposed }

    func invoke() {
        guard let action = claim() else { return }
        disposable.setDisposable(action())
    }

    func dispose() {
        let released = claim()
        disposable.dispose()
        _ = released
    }

    private func claim() -> (() -> Disposable)? {
        guard !claimed.exchange(true, ordering: .acquiringAndReleasing) else { return nil }
        defer { action = nil }
        return action
    }
}

/// A ``VirtualTimeConverterType`` over `Int` ticks of `resolution` seconds each.
public struct IntegerVirtualTimeConverter: VirtualTimeConverterType, Sendable {
    /// Seconds per tick.
    public let resolution: Double

    /// Creates a converter where one tick lasts `resolution` seconds.
    public init(resolution: Double = 1.0) { self.resolution = resolution }

    /// Virtual time: a count of ticks.
    public typealias VirtualTimeUnit = Int

    /// A virtual duration: a count of ticks.
    public typealias VirtualTimeIntervalUnit = Int

    /// The date of a tick count.
    public func convertFromVirtualTime(_ virtualTime: Int) -> RxTime {
        Date(timeIntervalSince1970: TimeInterval(virtualTime) * resolution)
    }

    /// The tick count of a date, rounded.
    public func convertToVirtualTime(_ time: RxTime) -> Int {
        Int((time.timeIntervalSince1970 / resolution + 0.5).rounded(.down))
    }

    /// Seconds in `virtualTimeInterval` ticks.
    public func convertFromVirtualTimeInterval(_ virtualTimeInterval: Int) -> TimeInterval {
        TimeInterval(virtualTimeInterval) * resolution
    }

    /// Ticks in an interval of seconds, rounded.
    public func convertToVirtualTimeInterval(_ timeInterval: TimeInterval) -> Int {
        Int((timeInterval / resolution + 0.5).rounded(.down))
    }

    /// `time + offset`.
    public func offsetVirtualTime(_ time: Int, offset: Int) -> Int { time + offset }

    /// Orders two tick counts.
    public func compareVirtualTime(_ lhs: Int, _ rhs: Int) -> VirtualTimeComparison {
        lhs < rhs ? .lessThan : (lhs == rhs ? .equal : .greaterThan)
    }
}
