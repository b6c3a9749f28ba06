extension PrimitiveSequence {
    /// Fails with ``StreamsError/timeout`` unless this sequence ends within `dueTime`.
    ///
    ///     ------(1|)   timeout(.seconds(3), scheduler: scheduler)   ---#   fails with RxError.timeout
    ///
    /// - Parameters:
    ///   - dueTime: How long to wait for the outcome.
    ///   - scheduler: The scheduler that runs the timer.
    /// - Returns: The sequence with a deadline.
    public func timeout(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.timeout(dueTime, scheduler: scheduler))
    }

    /// Switches to `other` unless this sequence ends within `dueTime`.
    ///
    ///     ------(1|)   timeout(.seconds(3), other: .just(0), scheduler: scheduler)   ---(0|)
    ///
    /// - Parameters:
    ///   - dueTime: How long to wait for the outcome.
    ///   - other: The sequence to continue with after the deadline.
    ///   - scheduler: The scheduler that runs the timer.
    /// - Returns: The sequence with a deadline and a fallback.
    public func timeout(_ dueTime: RxTimeInterval, other: PrimitiveSequence<Trait, Element>, scheduler: SchedulerType) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.timeout(dueTime, other: other.asObservable(), scheduler: scheduler))
    }

    /// Delivers the outcome `dueTime` later (an error as well).
    ///
    ///     --(1|)   delay(.seconds(2), scheduler: scheduler)   ----(1|)
    ///
    /// - Parameters:
    ///   - dueTime: The delay.
    ///   - scheduler: The scheduler that runs the timer.
    /// - Returns: The delayed sequence.
    public func delay(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.delay(dueTime, scheduler: scheduler))
    }

    /// Subscribes `dueTime` after the subscription is made.
    ///
    ///     source:   --(1|)
    ///     delaySubscription(.seconds(2), scheduler: scheduler)
    ///             ----(1|)
    ///
    /// - Parameters:
    ///   - dueTime: The delay before subscribing.
    ///   - scheduler: The scheduler that runs the timer.
    /// - Returns: The sequence, subscribed later.
    public func delaySubscription(_ dueTime: RxTimeInterval, scheduler: SchedulerType) -> PrimitiveSequence<Trait, Element> {
        PrimitiveSequence(raw: source.delaySubscription(dueTime, scheduler: scheduler))
    }
}

extension SharedSequenceConvertibleType {
    /// Sends an element only after `dueTime` passed without another one, on the sharing
    /// scheduler.
    ///
    ///     -1-2------3----|   debounce(.seconds(3))   ------2------3-|
    ///
    /// - Parameter dueTime: The quiet time an element must be followed by.
    /// - Returns: The debounced shared sequence.
    public func debounce(_ dueTime: RxTimeInterval) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(asObservable().debounce(dueTime, scheduler: SharingStrategy.scheduler))
    }

    /// Sends at most one element per `dueTime`, on the sharing scheduler.
    ///
    ///     -1-2-------3-|   throttle(.seconds(4))   -1---2-----3-|
    ///
    /// - Parameters:
    ///   - dueTime: The window after each sent element.
    ///   - latest: Whether the last element of a window is sent when the window ends.
    /// - Returns: The throttled shared sequence.
    public func throttle(_ dueTime: RxTimeInterval, latest: Bool = true) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(asObservable().throttle(dueTime, latest: latest, scheduler: SharingStrategy.scheduler))
    }

    /// Delivers each element `dueTime` later, on the sharing scheduler.
    ///
    ///     -1-2-|   delay(.seconds(2))   ---1-2-|
    ///
    /// - Parameter dueTime: The delay.
    /// - Returns: The delayed shared sequence.
    public func delay(_ dueTime: RxTimeInterval) -> SharedSequence<SharingStrategy, Element> {
        SharedSequence(asObservable().delay(dueTime, scheduler: SharingStrategy.scheduler))
    }
}
