/// An observable sequence that subscribes to its source only when ``connect()`` is called,
/// and shares that one subscription among all its observers through a subject.
public class ConnectableObservable<Element>: Observable<Element>, ConnectableObservableType, @unchecked Sendable {
    override init() { super.init() }

    /// Subscribes the shared subject to the source.
    ///
    /// - Returns: The connection; disposing it unsubscribes from the source.
    public func connect() -> Disposable { abstractMethod() }
}

/// A sequence whose source subscription starts with ``connect()``.
public protocol ConnectableObservableType<Element>: ObservableType {
    /// Subscribes the shared subject to the source; calling again while connected returns the
    /// same connection.
    func connect() -> Disposable
}

extension ObservableType {
    /// Shares one subscription through `subject` once connected.
    ///
    /// - Parameter subject: The subject every observer subscribes to.
    public func multicast<Subject: SubjectType>(_ subject: Subject) -> ConnectableObservable<Subject.Element> where Subject.Observer.Element == Element {
        ConnectableObservableAdapter(source: asObservable(), makeSubject: { subject })
    }

    /// Shares one subscription through a subject made anew for each connection.
    ///
    /// - Parameter makeSubject: Makes the subject of a connection.
    public func multicast<Subject: SubjectType>(makeSubject: @escaping () -> Subject) -> ConnectableObservable<Subject.Element> where Subject.Observer.Element == Element {
        ConnectableObservableAdapter(source: asObservable(), makeSubject: makeSubject)
    }

    /// Multicasts through a selector: the selector receives a shared view of the source, and
    /// the source is connected for each subscription to the result.
    public func multicast<Subject: SubjectType, Result>(_ subjectSelector: @escaping () throws -> Subject, selector: @escaping (Observable<Subject.Element>) throws -> Observable<Result>) -> Observable<Result> where Subject.Observer.Element == Element {
        let source = asObservable()
        return Observable.create { observer in
            do {
                let subject = try subjectSelector()
                let connectable = ConnectableObservableAdapter(source: source, makeSubject: { subject })
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

    /// Shares one subscription through a ``PublishSubject``: observers get only the events sent
    /// after they subscribed.
    ///
    ///     source:  --1--2--3--|
    ///     publish().connect() at 0; observer joins after 1
    ///     observer:   ---2--3--|
    public func publish() -> ConnectableObservable<Element> {
        multicast(PublishSubject())
    }

    /// Shares one subscription through a ``ReplaySubject`` of `bufferSize`.
    ///
    /// - Parameter bufferSize: How many past elements new observers receive.
    public func replay(_ bufferSize: Int) -> ConnectableObservable<Element> {
        multicast(ReplaySubject.create(bufferSize: bufferSize))
    }

    /// Shares one subscription through an unbounded ``ReplaySubject``.
    public func replayAll() -> ConnectableObservable<Element> {
        multicast(ReplaySubject.createUnbounded())
    }
}

extension ConnectableObservableType {
    /// Connects when the first observer subscribes and disconnects when the last one leaves.
    ///
    ///     source.publish().refCount()
    public func refCount() -> Observable<Element> {
        RefCount(source: self)
    }
}

final class ConnectableObservableAdapter<Subject: SubjectType>: ConnectableObservable<Subject.Element>, @unchecked Sendable {
    typealias Source = Subject.Observer.Element

    private let source: Observable<Source>
    private let makeSubject: () -> Subject
    private let lock = RecursiveLock()
    private var subject: Subject?
    private var connection: MulticastConnection<Subject>?

    init(source: Observable<Source>, makeSubject: @escaping () -> Subject) {
        self.source = source
        self.makeSubject = makeSubject
    }

    private var lazySubject: Subject {
        if let subject { return subject }
        let made = makeSubject()
        subject = made
        return made
    }

    override func connect() -> Disposable {
        lock.withLock {
            if let connection { return connection }
            let connection = MulticastConnection(parent: self, observer: lazySubject.asObserver())
            self.connection = connection
            connection.attach(source.subscribe(connection))
            return connection
        }
    }

    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Subject.Element {
        lock.withLock { lazySubject }.subscribe(observer)
    }

    func connectionEnded(_ ended: MulticastConnection<Subject>) {
        lock.withLock {
            if connection === ended {
                connection = nil
                subject = nil
            }
        }
    }
}

final class MulticastConnection<Subject: SubjectType>: ObserverType, Disposable, @unchecked Sendable {
    typealias Element = Subject.Observer.Element

    private weak var parent: ConnectableObservableAdapter<Subject>?
    private let observer: Subject.Observer
    private let subscription = SingleAssignmentDisposable()
    private let disposed = AtomicFlag()

    init(parent: ConnectableObservableAdapter<Subject>, observer: Subject.Observer) {
        self.parent = parent
        self.observer = observer
        Resources.increment()
    }

    deinit { Resources.decrement() }

    func attach(_ disposable: Disposable) { subscription.setDisposable(disposable) }

    func on(_ event: Event<Element>) {
        if disposed.isSet { return }
        observer.on(event)
        if event.isStopEvent { dispose() }
    }

    func onNext(_ element: Element) {
        if disposed.isSet { return }
        observer.onNext(element)
    }

    func dispose() {
        guard disposed.setOnce() else { return }
        parent?.connectionEnded(self)
        subscription.dispose()
    }
}

final class RefCount<Connectable: ConnectableObservableType>: Producer<Connectable.Element>, @unchecked Sendable {
    private let source: Connectable
    private let lock = RecursiveLock()
    private var count = 0
    private var connectionId = 0
    private var connection: Disposable?

    init(source: Connectable) { self.source = source }

    override func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) where Observer.Element == Element {
        let sink = RefCountSink(observer: observer, cancel: cancel)
        let subscription: Disposable = lock.withLock {
            let subscription = source.subscribe(sink)
            count += 1
            let id = connectionId
            if count == 1 {
                connection = source.connect()
            }
            // Holds the operator strongly: a subscriber may outlive every other reference to
            // it, and the connection must still be released when the last one leaves.
            return Disposables.create {
                subscription.dispose()
                self.release(connectionId: id)
            }
        }
        return (sink, subscription)
    }

    private func release(connectionId id: Int) {
        // The connection is disposed under the (recursive) lock, as `run` connects under it:
        // disposing after unlocking let a subscriber arriving in between join the connection
        // being torn down, and then receive nothing until every subscriber had left.
        lock.withLock {
            guard id == connectionId else { return }
            count -= 1
            guard count == 0 else { return }
            connectionId &+= 1
            let ending = connection
            connection = nil
            ending?.dispose()
        }
    }
}

final class RefCountSink<Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable {
    typealias Element = Observer.Element

    func on(_ event: Event<Element>) {
        forwardOn(event)
        if event.isStopEvent { dispose() }
    }

    func onNext(_ element: Element) { forwardNext(element) }
}
