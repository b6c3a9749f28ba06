import Locking
/// An observable sequence that subscribes to its source only when ``connect()`` is called,
/// and shares that one subscription among all its observers through a subject.
///
/// Made by ``ObservableType/multicast(_:)``, ``ObservableType/multicast(makeSubject:)``,
/// ``ObservableType/publish()``, ``ObservableType/replay(_:)`` and
/// ``ObservableType/replayAll()``; write a connectable of your own by conforming to
/// ``ConnectableObservableType``.
public final class ConnectableObservable<Element>: Observable<Element>, ConnectableObservableType, @unchecked Sendable {
    /// The subject, the connections and the decisions between them.
    private let multicaster: any Multicasting<Element>

    init(_ multicaster: any Multicasting<Element>) {
        self.multicaster = multicaster
        super.init()
    }

    /// Subscribes the shared subject to the source; calling again while connected returns the
    /// same connection.
    ///
    /// - Returns: The connection; disposing it unsubscribes from the source.
    public func connect() -> Disposable { multicaster.connect() }

    /// Subscribes `observer` to the current subject; it receives what the source sends once
    /// connected.
    ///
    /// - Parameter observer: The observer that receives the events.
    /// - Returns: Disposing it unsubscribes `observer` from the subject.
    public override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        multicaster.subscribe(observer)
    }

    /// The sequence `refCount()` returns: it decides joins and connections with the
    /// connection itself.
    func referenceCounted() -> Observable<Element> { multicaster.referenceCounted() }
}

/// What a ``ConnectableObservable`` does, for the one engine, ``Multicaster``, whatever its
/// subject's type.
protocol Multicasting<Element>: AnyObject, Sendable {
    associatedtype Element
    /// Connects the source (or returns the live connection).
    func connect() -> Disposable
    /// Subscribes `observer` to the current subject.
    func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element
    /// The `refCount()` of this connectable.
    func referenceCounted() -> Observable<Element>
}

/// A sequence whose source subscription starts with ``connect()``.
public protocol ConnectableObservableType<Element>: ObservableType {
    /// Subscribes the shared subject to the source; calling again while connected returns the
    /// same connection.
    func connect() -> Disposable
}

extension ObservableType {
    /// Shares one subscription through `subject` once connected. The same subject serves every
    /// connection: after a disconnect and a reconnect, its observers keep receiving.
    ///
    ///     source:   --1--2--3--|
    ///     multicast(subject), connected at frame 0
    ///     observer:     -2--3--|
    ///
    /// - Parameter subject: The subject every observer subscribes to.
    public func multicast<Subject: SubjectType>(_ subject: Subject) -> ConnectableObservable<Subject.Element> where Subject.Observer.Element == Element {
        ConnectableObservable(Multicaster(source: asObservable(), subject: subject))
    }

    /// Shares one subscription through a subject made anew for each connection: observers of a
    /// connection that ended (by its source's terminal event or by disposing it) receive nothing
    /// from the next one.
    ///
    ///     source:   --1--2--3--|
    ///     multicast(makeSubject: { PublishSubject() }), connected at frame 0
    ///     observer:     -2--3--|
    ///
    /// - Parameter makeSubject: Makes the subject of a connection.
    public func multicast<Subject: SubjectType>(makeSubject: @escaping () -> Subject) -> ConnectableObservable<Subject.Element> where Subject.Observer.Element == Element {
        ConnectableObservable(Multicaster(source: asObservable(), makeSubject: makeSubject))
    }

    /// Multicasts through a selector: the selector receives a shared view of the source, and
    /// the source is connected for each subscription to the result.
    ///
    ///     source: --1--2--|
    ///     multicast({ PublishSubject() }, selector: { shared in shared.map { $0 * 3 } })
    ///             --3--6--|
    ///
    /// - Parameters:
    ///   - subjectSelector: Makes the subject of each subscription.
    ///   - selector: Builds the result from the shared view of the source.
    public func multicast<Subject: SubjectType, Result>(_ subjectSelector: @escaping () throws -> Subject, selector: @escaping (Observable<Subject.Element>) throws -> Observable<Result>) -> Observable<Result> where Subject.Observer.Element == Element {
        let source = asObservable()
        return Observable.create { observer in
            do {
                let subject = try subjectSelector()
                let connectable = ConnectableObservable(Multicaster(source: source, subject: subject))
                let observable = try selector(connectable)
                let subscription = observable.subscribe(observer)
                let connection = connectable.connect()
                return Disposables.create(subscription, connection)
            } catch {
                observer.onError(error)
                return Disposables.create()
            }
        }
    }

    /// Shares one subscription through a ``PublishSubject``, a new one per connection:
    /// observers get only the events sent after they subscribed.
    ///
    ///     source:   --1--2--3--|
    ///     publish(), connected at frame 0
    ///     observer:     -2--3--|
    public func publish() -> ConnectableObservable<Element> {
        multicast(makeSubject: { PublishSubject() })
    }

    /// Shares one subscription through a ``ReplaySubject`` of `bufferSize`, a new one per
    /// connection.
    ///
    ///     source:   --1--2--3--|
    ///     replay(1), connected at frame 0
    ///     observer:     12--3--|
    ///
    /// - Parameter bufferSize: How many past elements new observers receive.
    public func replay(_ bufferSize: Int) -> ConnectableObservable<Element> {
        multicast(makeSubject: { ReplaySubject.create(bufferSize: bufferSize) })
    }

    /// Shares one subscription through an unbounded ``ReplaySubject``, a new one per connection.
    ///
    ///     source:   --1--2-----3--|
    ///     replayAll(), connected at frame 0
    ///     observer:        (12)3--|
    public func replayAll() -> ConnectableObservable<Element> {
        multicast(makeSubject: { ReplaySubject.createUnbounded() })
    }
}

extension ConnectableObservableType {
    /// Connects when the first observer subscribes and disconnects when the last one leaves.
    /// A connection that ended with its source's terminal event is over before the event is
    /// passed on: the next observer (even one subscribing from inside `onCompleted`) connects
    /// anew, unless the subject is kept (``ObservableType/multicast(_:)``) and already
    /// finished, which it then only replays.
    ///
    ///     source:   --1--2--3--|
    ///     publish().refCount(), a first observer at frame 0, this one at frame 4
    ///     observer:     -2--3--|
    public func refCount() -> Observable<Element> {
        if let connectable = self as? ConnectableObservable<Element> {
            return connectable.referenceCounted()
        }
        return RefCount(source: self)
    }
}

/// The engine behind `multicast`, `publish`, `replay`, `replayAll`, their `connect()` and
/// `refCount()`, and `share(replay:scope:)` (except `share(replay: 0 | 1, scope:
/// .whileConnected)`, which ``ShareWhileConnected`` implements without a subject).
///
/// Every decision — which subject a new observer joins, whether it starts a connection — is one
/// call on a ``SharingState`` under `lock`; subscribing to the subject, subscribing the source
/// and disposing happen after unlocking, so no observer code runs under the lock. A
/// reference-counted observer subscribes to the subject of the connection it joined, so it
/// receives that connection's events through its terminal event, even when the connection ends
/// between the decision and the subscription; one that arrives after the end starts a new
/// connection.
final class Multicaster<Subject: SubjectType>: Multicasting, @unchecked Sendable {
    typealias Element = Subject.Element
    typealias Source = Subject.Observer.Element

    private let source: Observable<Source>
    private let makeSubject: () -> Subject
    private let lock = Lock()
    private var state: SharingState
    /// The subject new observers join: the live connection's, or the next connection's.
    private var subject: Subject?
    /// The live connection, the one `state.live` names.
    private var connection: MulticastConnection<Subject>?

    /// A subject made anew for each connection.
    init(source: Observable<Source>, makeSubject: @escaping () -> Subject) {
        self.source = source
        self.makeSubject = makeSubject
        state = SharingState(keepsSubject: false)
    }

    /// One subject for every connection.
    init(source: Observable<Source>, subject: Subject) {
        self.source = source
        self.makeSubject = { subject }
        self.subject = subject
        state = SharingState(keepsSubject: true)
    }

    /// The current subject, made if needed (call under `lock`).
    private func currentSubject() -> Subject {
        if let subject { return subject }
        let made = makeSubject()
        subject = made
        return made
    }

    /// Starts connection `generation` (call under `lock`).
    private func startConnection(_ generation: UInt64) -> MulticastConnection<Subject> {
        let started = MulticastConnection(parent: self, subject: currentSubject(), generation: generation)
        connection = started
        return started
    }

    func connect() -> Disposable {
        let (connection, isNew) = lock.withLock { () -> (MulticastConnection<Subject>, Bool) in
            let (generation, isNew) = state.connect()
            return isNew ? (startConnection(generation), true) : (self.connection!, false)
        }
        if isNew { connection.attach(source.subscribe(connection)) }
        return connection
    }

    func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Subject.Element {
        lock.withLock { currentSubject() }.subscribe(observer)
    }

    func referenceCounted() -> Observable<Subject.Element> {
        ReferenceCountedShare(parent: self)
    }

    /// Subscribes a reference-counted observer: joins the live connection or starts one.
    ///
    /// - Returns: Disposing it unsubscribes the observer and, for the last one, disconnects.
    func subscribeCounted<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Subject.Element {
        let (subject, joined, started) = lock.withLock { () -> (Subject, MulticastConnection<Subject>?, MulticastConnection<Subject>?) in
            switch state.subscribe() {
            case .join:
                let live = connection!
                return (live.subject, live, nil)
            case .connect(let generation):
                let started = startConnection(generation)
                return (started.subject, started, started)
            case .replayFinished:
                return (currentSubject(), nil, nil)
            }
        }
        let subscription = subject.subscribe(observer)
        if let started { started.attach(source.subscribe(started)) }
        guard let joined else { return subscription }
        return Disposables.create {
            subscription.dispose()
            self.leave(joined)
        }
    }

    /// A reference-counted observer of `joined` leaves; the last one disconnects it.
    private func leave(_ joined: MulticastConnection<Subject>) {
        let disconnect = lock.withLock { () -> Bool in
            guard state.unsubscribe(generation: joined.generation) else { return false }
            connectionIsOver()
            return true
        }
        if disconnect { joined.dispose() }
    }

    /// Connection `ended` is over: its source terminated, or it was disposed. Called before the
    /// terminal event is passed on, so that an observer that subscribes again from its terminal
    /// handler starts a new connection.
    func connectionEnded(_ ended: MulticastConnection<Subject>, terminated: Bool) {
        lock.withLock {
            if state.end(generation: ended.generation, terminated: terminated) { connectionIsOver() }
        }
    }

    /// Lets go of the live connection and, unless the subject is kept, of its subject (call
    /// under `lock`).
    private func connectionIsOver() {
        connection = nil
        if !state.keepsSubject { subject = nil }
    }
}

/// One connection of a ``Multicaster``: the source's subscription, feeding the
/// connection's subject until the source terminates or the connection is disposed.
final class MulticastConnection<Subject: SubjectType>: ObserverType, Disposable, @unchecked Sendable {
    typealias Element = Subject.Observer.Element

    let subject: Subject
    let generation: UInt64
    private weak var parent: Multicaster<Subject>?
    private let observer: Subject.Observer
    private let subscription = SingleAssignmentDisposable()
    private let ended = AtomicFlag()

    init(parent: Multicaster<Subject>, subject: Subject, generation: UInt64) {
        self.parent = parent
        self.subject = subject
        self.observer = subject.asObserver()
        self.generation = generation
        Resources.increment()
    }

    deinit { Resources.decrement() }

    func attach(_ disposable: Disposable) { subscription.setDisposable(disposable) }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            onNext(element)
        case .error, .completed:
            guard ended.setOnce() else { return }
            // Over before the event is passed on (see `connectionEnded`).
            parent?.connectionEnded(self, terminated: true)
            observer.on(event)
            subscription.dispose()
        }
    }

    func onNext(_ element: Element) {
        if ended.isSet { return }
        observer.onNext(element)
    }

    func dispose() {
        guard ended.setOnce() else { return }
        parent?.connectionEnded(self, terminated: false)
        subscription.dispose()
    }
}

/// `refCount()` of a ``Multicaster``: each subscription is one decision of the
/// adapter (join, connect, or replay a finished subject).
final class ReferenceCountedShare<Subject: SubjectType>: Producer<Subject.Element>, @unchecked Sendable {
    private let parent: Multicaster<Subject>

    init(parent: Multicaster<Subject>) { self.parent = parent }

    override func connect<Observer: ObserverType>(_ observer: Observer, handle: SinkDisposer?) -> Disposable where Observer.Element == Element {
        let sink = ShareSink(observer: observer, handle: handle)
        sink.setUpstream(parent.subscribeCounted(sink))
        return sink
    }
}

/// Forwards a shared subject's events to one observer, and lets go of the subscription after
/// the terminal event.
private final class ShareSink<Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable {
    typealias Element = Observer.Element

    func on(_ event: Event<Element>) {
        forwardOn(event)
        if event.isStopEvent { dispose() }
    }

    func onNext(_ element: Element) { forwardNext(element) }
}
