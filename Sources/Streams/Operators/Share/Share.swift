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
    ///     source:   --1--2--3--|
    ///     share(replay: 1), a first observer at frame 0, this one at frame 4
    ///     observer:     12--3--|
    ///
    /// The source is subscribed when the first observer arrives and disposed when the last
    /// one leaves. Whether a new observer joins the running subscription or starts one is
    /// decided in one step under a lock, so under any interleaving every observer receives
    /// the events of exactly one subscription to the source — from its replay through its
    /// terminal event — or starts a new one.
    ///
    /// With `.whileConnected` a subscription is over when its source terminates, before the
    /// terminal event is passed on: an observer that arrives afterwards (even from inside an
    /// `onCompleted` handler) subscribes the source again, with an empty buffer. With
    /// `.forever` one subject serves every subscription: once the source has terminated,
    /// later observers receive the replay and the terminal event without the source being
    /// subscribed again.
    ///
    /// - Parameters:
    ///   - replay: How many past elements each new observer receives.
    ///   - scope: The lifetime of the replay buffer; see ``SubjectLifetimeScope``.
    public func share(replay: Int = 0, scope: SubjectLifetimeScope = .whileConnected) -> Observable<Element> {
        precondition(replay >= 0, "replay must not be negative")
        switch (scope, replay) {
        case (.forever, 0):
            return multicast(PublishSubject()).refCount()
        case (.forever, _):
            return multicast(ReplaySubject.create(bufferSize: replay)).refCount()
        case (.whileConnected, 0):
            return ShareWhileConnected(source: asObservable(), replaysLast: false)
        case (.whileConnected, 1):
            return ShareWhileConnected(source: asObservable(), replaysLast: true)
        case (.whileConnected, _):
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
