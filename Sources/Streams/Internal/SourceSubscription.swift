/// One source's subscription in a combining sink (the typed `combineLatest` and `zip`), kept
/// under the sink's lock. The sink may decide to dispose it before it arrives — a source that
/// completes while it is being subscribed, or a sink disposed meanwhile — and then it is
/// disposed on arrival. Both calls return what to dispose once the lock is released.
struct SourceSubscription {
    private var subscription: Disposable?
    private var isDisposed = false

    /// Keeps `subscription`, or returns it to be disposed at once if this source's
    /// subscription was disposed already.
    mutating func attach(_ subscription: Disposable) -> Disposable? {
        if isDisposed { return subscription }
        self.subscription = subscription
        return nil
    }

    /// Marks the subscription disposed and returns it to dispose; `nil` if it has not arrived
    /// (it will be disposed on arrival) or was taken already.
    mutating func take() -> Disposable? {
        if isDisposed { return nil }
        isDisposed = true
        defer { subscription = nil }
        return subscription
    }
}
