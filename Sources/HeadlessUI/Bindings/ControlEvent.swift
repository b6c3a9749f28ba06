import Streams

/// A UI event sequence (RxCocoa's protocol; ``ControlEvent`` is the one conformance).
public protocol ControlEventType: ObservableType {
    /// The sequence as a ``ControlEvent``.
    func asControlEvent() -> ControlEvent<Element>
}

/// A sequence of UI events (taps, edits, selections): never errors, completes when the
/// control is deallocated, delivers on the main scheduler, and sends no initial value.
///
///     button.rx.tap.subscribe(onNext: { print("tapped") })
public struct ControlEvent<PropertyType>: ObservableType, ControlEventType {
    /// The type of the events.
    public typealias Element = PropertyType

    private let events: Observable<PropertyType>

    /// Wraps `events`, which must follow the rules of a control event.
    ///
    /// - Parameter events: The sequence of events.
    public init<Ev: ObservableType>(events: Ev) where Ev.Element == Element {
        self.events = events.asObservable()
    }

    /// Subscribes `observer` to the events.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        events.subscribe(observer)
    }

    /// The events as an observable sequence.
    public func asObservable() -> Observable<Element> { events }

    /// Returns `self`.
    public func asControlEvent() -> ControlEvent<Element> { self }
}
