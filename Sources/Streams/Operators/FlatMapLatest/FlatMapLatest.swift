extension ObservableType {
    /// Maps each element to a sequence with `selector` and forwards only the elements of the
    /// most recent one: a new element disposes the previous inner subscription.
    ///
    ///     source: --a-------b-----|
    ///     a:        1--2--3--4|
    ///     b:                5---6|
    ///     flatMapLatest { $0 }
    ///             --1--2--3-5---6-|
    ///
    /// Completes when the source and the latest inner sequence have completed; fails as soon
    /// as the source or the latest inner sequence fails, or `selector` throws.
    ///
    /// - Parameter selector: Makes the inner sequence for an element.
    /// - Returns: The elements of the latest inner sequence.
    public func flatMapLatest<Source: ObservableConvertibleType>(_ selector: @escaping (Element) throws -> Source) -> Observable<Source.Element> {
        Switch(source: asObservable(), selector: selector)
    }
}

/// The engine of `flatMapLatest` and `switchLatest`: one inner subscription at a time, each new
/// outer element replacing it; events of replaced inners are ignored.
///
/// The selector returns the caller's own sequence type (`Inner`), turned into an `Observable`
/// per element, so `flatMapLatest` keeps the user's closure without wrapping it (as `Merge`).
final class Switch<SourceElement, Inner: ObservableConvertibleType>: Producer<Inner.Element>, @unchecked Sendable {
    typealias Result = Inner.Element
    typealias Selector = (SourceElement) throws -> Inner

    private let source: Observable<SourceElement>
    private let selector: Selector

    init(source: Observable<SourceElement>, selector: @escaping Selector) {
        self.source = source
        self.selector = selector
    }

    override func connect<Observer: ObserverType>(_ observer: Observer, handle: SinkDisposer?) -> Disposable where Observer.Element == Result {
        let sink = SwitchSink<SourceElement, Inner, Observer>(selector: selector, observer: observer, handle: handle)
        sink.setUpstream(source.subscribeUpstream(sink))
        return sink
    }
}
