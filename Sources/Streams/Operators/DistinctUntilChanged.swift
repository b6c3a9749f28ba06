extension ObservableType where Element: Equatable {
    /// Drops elements equal to the one before them.
    ///
    ///     --1--1--2--2--1--|
    ///     distinctUntilChanged()
    ///     --1-----2-----1--|
    public func distinctUntilChanged() -> Observable<Element> {
        distinctUntilChanged({ $0 }, comparer: { $0 == $1 })
    }
}

extension ObservableType {
    /// Drops elements whose key equals the key of the element before them.
    ///
    /// - Parameter keySelector: Extracts the compared key; a thrown error ends the sequence.
    public func distinctUntilChanged<Key: Equatable>(_ keySelector: @escaping (Element) throws -> Key) -> Observable<Element> {
        distinctUntilChanged(keySelector, comparer: { $0 == $1 })
    }

    /// Drops elements that `comparer` says equal the element before them.
    ///
    /// - Parameter comparer: Returns `true` when two elements count as equal.
    public func distinctUntilChanged(_ comparer: @escaping (Element, Element) throws -> Bool) -> Observable<Element> {
        distinctUntilChanged({ $0 }, comparer: comparer)
    }

    /// Drops elements whose key `comparer` says equals the previous element's key.
    ///
    /// - Parameters:
    ///   - keySelector: Extracts the compared key.
    ///   - comparer: Returns `true` when two keys count as equal.
    public func distinctUntilChanged<Key>(_ keySelector: @escaping (Element) throws -> Key, comparer: @escaping (Key, Key) throws -> Bool) -> Observable<Element> {
        DistinctUntilChanged(source: asObservable(), selector: keySelector, comparer: comparer)
    }

    /// Drops elements whose value at `keyPath` equals the previous element's.
    ///
    /// - Parameter keyPath: The compared property.
    public func distinctUntilChanged<Property: Equatable>(at keyPath: KeyPath<Element, Property>) -> Observable<Element> {
        distinctUntilChanged({ $0[keyPath: keyPath] }, comparer: { $0 == $1 })
    }
}

final class DistinctUntilChanged<Element, Key>: Producer<Element>, @unchecked Sendable {
    typealias KeySelector = (Element) throws -> Key
    typealias Comparer = (Key, Key) throws -> Bool

    private let source: Observable<Element>
    let selector: KeySelector
    let comparer: Comparer

    init(source: Observable<Element>, selector: @escaping KeySelector, comparer: @escaping Comparer) {
        self.source = source
        self.selector = selector
        self.comparer = comparer
    }

    override func connect<Observer: ObserverType>(_ observer: Observer, handle: SinkDisposer?) -> Disposable where Observer.Element == Element {
        let sink = DistinctUntilChangedSink(parent: self, observer: observer, handle: handle)
        sink.setUpstream(source.subscribeUpstream(sink))
        return sink
    }
}

private final class DistinctUntilChangedSink<Observer: ObserverType, Key>: Sink<Observer>, ObserverType, @unchecked Sendable {
    typealias Element = Observer.Element

    private let parent: DistinctUntilChanged<Element, Key>
    private var currentKey: Key?

    init(parent: DistinctUntilChanged<Element, Key>, observer: Observer, handle: SinkDisposer?) {
        self.parent = parent
        super.init(observer: observer, handle: handle)
    }

    func onNext(_ value: Element) {
        do {
            let key = try parent.selector(value)
            if let currentKey, try parent.comparer(currentKey, key) { return }
            currentKey = key
        } catch {
            forwardErrorAndDispose(error)
            return
        }
        forwardNext(value)
    }

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let value):
            onNext(value)
        case .error, .completed:
            forwardOn(event)
            dispose()
        }
    }
}
