extension ObservableType where Element: FixedWidthInteger {
    /// Emits `0`, `1`, `2`, … every `period`, the first one `period` after subscription.
    ///
    ///     interval(.seconds(10))
    ///     -0-1-2-3-4…
    ///
    /// The sequence never ends; dispose the subscription (or use `take`) to stop it.
    ///
    /// - Parameters:
    ///   - period: The time between elements.
    ///   - scheduler: The scheduler that runs the timer.
    /// - Returns: The counting sequence.
    public static func interval(_ period: RxTimeInterval, scheduler: SchedulerType) -> Observable<Element> {
        TimerProducer(dueTime: period, period: period, scheduler: scheduler)
    }
}
