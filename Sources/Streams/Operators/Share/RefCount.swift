import Locking
/// `refCount()` of a connectable written outside the library, which can tell only through its
/// observers when a connection ended: a terminal event resets the count (under the lock, before
/// it is passed on), so the next observer connects anew. The library's own connectables use
/// ``ReferenceCountedShare`` instead, which decides joins and connections with the connection
/// itself.
final class RefCount<Connectable: ConnectableObservableType>: Producer<Connectable.Element>, @unchecked Sendable {
    fileprivate let source: Connectable
    /// Recursive: `connect()` runs under it, and a synchronous source may deliver (and an
    /// observer subscribe again) before it returns.
    fileprivate let lock = RecursiveLock()
    fileprivate var count = 0
    fileprivate var connectionId: UInt64 = 0
    fileprivate var connection: Disposable?

    init(source: Connectable) { self.source = source }

    override func connect<Observer: ObserverType>(_ observer: Observer, handle: SinkDisposer?) -> Disposable where Observer.Element == Element {
        let sink = RefCountSink(parent: self, observer: observer, handle: handle)
        sink.setUpstream(sink.run())
        return sink
    }
}

private final class RefCountSink<Connectable: ConnectableObservableType, Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable where Connectable.Element == Observer.Element {
    typealias Element = Observer.Element

    private let parent: RefCount<Connectable>
    /// The connection this observer counts in; `nil` until it joined one.
    private var joined: UInt64?

    init(parent: RefCount<Connectable>, observer: Observer, handle: SinkDisposer?) {
        self.parent = parent
        super.init(observer: observer, handle: handle)
    }

    func run() -> Disposable {
        let subscription = parent.source.subscribe(self)
        let parent = self.parent
        let id: UInt64? = parent.lock.withLock {
            // Already terminated by the subscription (a finished subject): nothing to join.
            if isDisposed { return nil }
            joined = parent.connectionId
            parent.count += 1
            if parent.count == 1 { parent.connection = parent.source.connect() }
            return parent.connectionId
        }
        guard let id else { return subscription }
        return Disposables.create {
            subscription.dispose()
            let ending: Disposable? = parent.lock.withLock {
                guard parent.connectionId == id else { return nil }
                parent.count -= 1
                guard parent.count == 0 else { return nil }
                parent.connectionId &+= 1
                defer { parent.connection = nil }
                return parent.connection
            }
            ending?.dispose()
        }
    }

    func on(_ event: Event<Element>) {
        if event.isStopEvent {
            let ending: Disposable? = parent.lock.withLock {
                guard let joined, joined == parent.connectionId else { return nil }
                parent.count = 0
                parent.connectionId &+= 1
                defer { parent.connection = nil }
                return parent.connection
            }
            ending?.dispose()
            forwardOn(event)
            dispose()
        } else {
            forwardOn(event)
        }
    }

    func onNext(_ element: Element) { forwardNext(element) }
}
