/// How long the subject behind `share(replay:scope:)` lives.
public enum SubjectLifetimeScope: Sendable {
    /// The subject and its replay buffer live while the source is connected: after every
    /// observer has left, or after the source ended, the next observer starts a fresh
    /// subscription with an empty buffer.
    case whileConnected
    /// One subject for the life of the shared sequence: later observers receive its replay
    /// buffer (and, once the source ended, its terminal event).
    case forever
}

extension ObservableType {
    /// Shares one subscription to the source among all observers, replaying the last `replay`
    /// elements to each new observer.
    ///
    ///     source:     --1--2--3--
    ///     share(replay: 1); A subscribes at 0, B after 2
    ///     A:          --1--2--3--
    ///     B:                (2)3--
    ///
    /// The source is subscribed when the first observer arrives and disposed when the last
    /// one leaves.
    ///
    /// - Parameters:
    ///   - replay: How many past elements each new observer receives.
    ///   - scope: The lifetime of the replay buffer; see ``SubjectLifetimeScope``.
    public func share(replay: Int = 0, scope: SubjectLifetimeScope = .whileConnected) -> Observable<Element> {
        precondition(replay >= 0, "replay must not be negative")
        switch scope {
        case .forever:
            if replay == 0 {
                return multicast(PublishSubject()).refCount()
            }
            return multicast(ReplaySubject.create(bufferSize: replay)).refCount()
        case .whileConnected:
            if replay == 0 {
                return multicast(makeSubject: { PublishSubject() }).refCount()
            }
            return multicast(makeSubject: { ReplaySubject.create(bufferSize: replay) }).refCount()
        }
    }

    /// The RxSwift 3 spelling used by the Pizzaiolo app: the same as
    /// `share(replay: bufferSize, scope: .forever)`.
    ///
    /// - Parameter bufferSize: How many past elements each new observer receives.
    public func shareReplay(_ bufferSize: Int) -> Observable<Element> {
        share(replay: bufferSize, scope: .forever)
    }
}
