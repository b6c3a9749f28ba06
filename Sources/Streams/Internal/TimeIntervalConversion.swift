import Foundation

extension DispatchTimeInterval {
    /// An interval from seconds, rounded up to whole nanoseconds so timers never fire early;
    /// an infinite or too-large value is `.never`.
    static func rounded(seconds: TimeInterval) -> DispatchTimeInterval {
        guard seconds.isFinite else { return .never }
        let nanoseconds = (seconds * 1_000_000_000).rounded(.up)
        if nanoseconds >= Double(Int.max) { return .never }
        return .nanoseconds(max(Int(nanoseconds), 0))
    }
}
