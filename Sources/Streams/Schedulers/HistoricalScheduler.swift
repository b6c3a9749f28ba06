import Foundation

/// A virtual-time scheduler whose clock is a date: for replaying recorded events at the times
/// they happened, as RxSwift's `HistoricalScheduler`.
///
///     let scheduler = HistoricalScheduler(initialClock: Date(timeIntervalSince1970: 0))
///     _ = scheduler.scheduleAbsoluteVirtual((), time: Date(timeIntervalSince1970: 60)) { _ in
///         print(scheduler.now)   // 1970-01-01 00:01:00 +0000
///         return Disposables.create()
///     }
///     scheduler.start()
public class HistoricalScheduler: VirtualTimeScheduler<HistoricalSchedulerTimeConverter>, @unchecked Sendable {
    /// Creates a scheduler whose clock starts at `initialClock` (the epoch by default).
    public init(initialClock: RxTime = Date(timeIntervalSince1970: 0)) {
        super.init(initialClock: initialClock, converter: HistoricalSchedulerTimeConverter())
    }
}

/// The converter of ``HistoricalScheduler``: virtual time is a date, a virtual interval is
/// seconds, so conversions are the identity.
public struct HistoricalSchedulerTimeConverter: VirtualTimeConverterType, Sendable {
    /// A virtual time is a date.
    public typealias VirtualTimeUnit = RxTime
    /// A virtual interval is seconds.
    public typealias VirtualTimeIntervalUnit = TimeInterval

    /// Creates the converter.
    public init() {}

    /// The date itself.
    public func convertFromVirtualTime(_ virtualTime: RxTime) -> RxTime { virtualTime }
    /// The date itself.
    public func convertToVirtualTime(_ time: RxTime) -> RxTime { time }
    /// The seconds themselves.
    public func convertFromVirtualTimeInterval(_ virtualTimeInterval: TimeInterval) -> TimeInterval { virtualTimeInterval }
    /// The seconds themselves.
    public func convertToVirtualTimeInterval(_ timeInterval: TimeInterval) -> TimeInterval { timeInterval }
    /// `time` moved by `offset` seconds.
    public func offsetVirtualTime(_ time: RxTime, offset: TimeInterval) -> RxTime { time.addingTimeInterval(offset) }
    /// The order of two dates.
    public func compareVirtualTime(_ lhs: RxTime, _ rhs: RxTime) -> VirtualTimeComparison {
        lhs < rhs ? .lessThan : (lhs == rhs ? .equal : .greaterThan)
    }
}
