import Locking
extension ObservableType {
    /// Splits the elements into groups by key: the first element of each key opens a
    /// ``GroupedObservable`` with that ``GroupedObservable/key``, sent on the result, and every
    /// element goes to its group.
    ///
    ///     --1--2--3--4--|
    ///     groupBy(keySelector: { $0 % 2 }).flatMap { group in group.map { group.key * 10 + $0 } }
    ///     --A--B--C--D--|
    ///     where A = 11, B = 2, C = 13, D = 4
    ///
    /// The groups share the one subscription to the source. It lasts while the result or any
    /// group is subscribed: disposing the result ends no group that is still listened to, and
    /// the source is disposed only when the result and every group subscription are gone. A
    /// group is hot: it sends only what arrives after it is subscribed (subscribe to it when it
    /// is sent), and once the source has terminated, a late subscriber receives the terminal
    /// event at once. The source's completion or error — or an error thrown by `keySelector` —
    /// ends every group, then the result.
    ///
    /// - Parameter keySelector: The key of an element.
    /// - Returns: The sequence of groups.
    public func groupBy<Key: Hashable>(keySelector: @escaping (Element) throws -> Key) -> Observable<GroupedObservable<Key, Element>> {
        GroupBy(source: asObservable(), keySelector: keySelector)
    }
}

/// One group of ``ObservableType/groupBy(keySelector:)``: the elements of one key.
public struct GroupedObservable<Key, Element>: ObservableType {
    /// The key every element of the group has.
    public let key: Key
    private let source: Observable<Element>

    /// A group of `source`'s elements under `key`.
    ///
    /// - Parameters:
    ///   - key: The group's key.
    ///   - source: The group's elements.
    public init(key: Key, source: Observable<Element>) {
        self.key = key
        self.source = source
    }

    /// Subscribes `observer` to the group's elements.
    ///
    /// - Parameter observer: The observer.
    /// - Returns: The subscription.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        source.subscribe(observer)
    }

    /// The group as an observable sequence.
    public func asObservable() -> Observable<Element> { source }
}

final class GroupBy<Key: Hashable, Element>: Producer<GroupedObservable<Key, Element>>, @unchecked Sendable {
    typealias KeySelector = (Element) throws -> Key

    private let source: Observable<Element>
    private let keySelector: KeySelector

    init(source: Observable<Element>, keySelector: @escaping KeySelector) {
        self.source = source
        self.keySelector = keySelector
    }

    override func connect<Observer: ObserverType>(_ observer: Observer, handle: SinkDisposer?) -> Disposable where Observer.Element == GroupedObservable<Key, Element> {
        let sourceSubscription = SingleAssignmentDisposable()
        // The result's subscription is one reference; each group subscription takes another.
        let shared = RefCountDisposable(disposable: sourceSubscription)
        let sink = GroupBySink(keySelector: keySelector, shared: shared, sourceSubscription: sourceSubscription, observer: observer, handle: handle)
        sourceSubscription.setDisposable(source.subscribe(sink))
        sink.setUpstream(shared)
        return sink
    }
}

private final class GroupBySink<Key: Hashable, Element, Observer: ObserverType>: Sink<Observer>, ObserverType, @unchecked Sendable
where Observer.Element == GroupedObservable<Key, Element> {
    private let keySelector: (Element) throws -> Key
    private let shared: RefCountDisposable
    private let sourceSubscription: Disposable
    private let lock = Lock()
    /// The subject of each key seen so far, under `lock` (the source's events arrive one at a
    /// time, but a terminal event may race a late element of a misbehaving source); events are
    /// delivered outside the lock.
    private var groups: [Key: PublishSubject<Element>] = [:]
    /// Set by the terminal event, after which no group is opened.
    private var finished = false

    init(keySelector: @escaping (Element) throws -> Key, shared: RefCountDisposable, sourceSubscription: Disposable, observer: Observer, handle: SinkDisposer?) {
        self.keySelector = keySelector
        self.shared = shared
        self.sourceSubscription = sourceSubscription
        super.init(observer: observer, handle: handle)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element):
            let key: Key
            do {
                key = try keySelector(element)
            } catch {
                finish(.error(error))
                return
            }
            let (subject, opened) = lock.withLock { () -> (PublishSubject<Element>?, Bool) in
                if finished { return (nil, false) }
                if let existing = groups[key] { return (existing, false) }
                let subject = PublishSubject<Element>()
                groups[key] = subject
                return (subject, true)
            }
            guard let subject else { return }
            if opened {
                let shared = shared
                let group = Observable<Element>.create { observer in
                    // Holding a reference keeps the source subscribed while the group is.
                    let reference = shared.retain()
                    let subscription = subject.subscribe(observer)
                    return Disposables.create(subscription, reference)
                }
                forwardNext(GroupedObservable(key: key, source: group))
            }
            subject.onNext(element)
        case .error, .completed:
            finish(event)
        }
    }

    /// Ends every group with `event`, then the result.
    private func finish(_ event: Event<Element>) {
        let subjects = lock.withLock { () -> [PublishSubject<Element>] in
            if finished { return [] }
            finished = true
            defer { groups = [:] }
            return Array(groups.values)
        }
        for subject in subjects { subject.on(event) }
        switch event {
        case .error(let error): forwardOn(.error(error))
        default: forwardOn(.completed)
        }
        dispose()
        // The source has ended (or must end, after a thrown key): drop it even if groups are
        // still subscribed — they have received their terminal event.
        sourceSubscription.dispose()
    }
}
