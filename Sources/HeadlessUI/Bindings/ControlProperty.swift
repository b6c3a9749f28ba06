import Streams

/// A two-way UI property: reading it gives the current value then every user change;
/// writing it (as an observer) sets the property on the main scheduler.
///
///     viewModel.name.asObservable().bind(to: textField.rx.text)   // model → view
///     textField.rx.text.orEmpty.bind(to: viewModel.name)          // view → model
public struct ControlProperty<PropertyType>: ObservableType, ObserverType {
    /// The type of the property.
    public typealias Element = PropertyType

    private let values: Observable<PropertyType>
    private let valueSink: AnyObserver<PropertyType>

    /// Creates a property from the sequence of its values and the observer that sets it.
    ///
    /// - Parameters:
    ///   - values: The current value on subscription, then each change.
    ///   - valueSink: Sets the property.
    public init<Values: ObservableType, Sink: ObserverType>(values: Values, valueSink: Sink) where Values.Element == PropertyType, Sink.Element == PropertyType {
        self.values = values.asObservable()
        self.valueSink = valueSink.asObserver()
    }

    /// Subscribes `observer` to the current value and later changes.
    public func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        values.subscribe(observer)
    }

    /// The values as an observable sequence.
    public func asObservable() -> Observable<Element> { values }

    /// The changes only, without the current value: `values.skip(1)`.
    public var changed: ControlEvent<PropertyType> {
        ControlEvent(events: values.skippingFirst())
    }

    /// Returns `self`.
    public func asControlProperty() -> ControlProperty<Element> { self }

    /// Sets the property to each element; an error is a programming error.
    public func on(_ event: Event<Element>) {
        switch event {
        case .next:
            valueSink.on(event)
        case .error(let error):
            HeadlessUIHooks.report("Binding error to a control property: \(error)")
        case .completed:
            valueSink.on(event)
        }
    }
}

/// A two-way UI property: the values it shows, and an observer that sets it (RxCocoa's
/// protocol; ``ControlProperty`` is the one conformance).
public protocol ControlPropertyType: ObservableType, ObserverType {
    /// The property as a ``ControlProperty``.
    func asControlProperty() -> ControlProperty<Element>
}

extension ControlProperty: ControlPropertyType {}

extension ControlPropertyType where Element == String? {
    /// The property with `nil` read as `""`: `textField.rx.text.orEmpty`.
    public var orEmpty: ControlProperty<String> {
        let original = asControlProperty()
        let values = original.asObservable().map { $0 ?? "" }
        let sink = AnyObserver<String> { event in original.on(event.map { Optional($0) }) }
        return ControlProperty<String>(values: values, valueSink: sink)
    }
}

extension ObservableType {
    /// Drops the first element (`skip(1)`), kept internal so Streams owns the public `skip`.
    func skippingFirst() -> Observable<Element> {
        Observable.create { observer in
            var first = true
            return self.subscribe { event in
                if case .next = event, first {
                    first = false
                    return
                }
                observer.on(event)
            }
        }
    }
}
