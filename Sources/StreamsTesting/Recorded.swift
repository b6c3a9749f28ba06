import Streams

/// A virtual time in ticks of a ``TestScheduler``.
public typealias TestTime = Int

/// A value recorded at a virtual time: usually an `Event` seen by a ``TestableObserver`` or
/// scheduled by a ``TestableObservable``.
///
///     let expected: [Recorded<Event<Int>>] = [.next(210, 2), .completed(300)]
public struct Recorded<Value>: CustomDebugStringConvertible {
    /// The virtual time.
    public let time: TestTime
    /// The recorded value.
    public let value: Value

    /// Records `value` at `time`.
    public init(time: TestTime, value: Value) {
        self.time = time
        self.value = value
    }

    /// `value@time`.
    public var debugDescription: String { "\(value) @ \(time)" }
}

extension Recorded: Equatable where Value: Equatable {}

extension Recorded: Sendable where Value: Sendable {}

extension Recorded {
    /// A `.next(element)` event at `time`.
    public static func next<Element>(_ time: TestTime, _ element: Element) -> Recorded<Event<Element>> where Value == Event<Element> {
        Recorded(time: time, value: .next(element))
    }

    /// A `.completed` event at `time`; the element type may be given where it cannot be
    /// inferred (`.completed(300, Int.self)`).
    public static func completed<Element>(_ time: TestTime, _: Element.Type = Element.self) -> Recorded<Event<Element>> where Value == Event<Element> {
        Recorded(time: time, value: .completed)
    }

    /// An `.error(error)` event at `time`; the element type may be given where it cannot be
    /// inferred (`.error(300, error, Int.self)`).
    public static func error<Element>(_ time: TestTime, _ error: Swift.Error, _: Element.Type = Element.self) -> Recorded<Event<Element>> where Value == Event<Element> {
        Recorded(time: time, value: .error(error))
    }

    /// The events as an array, for readable expectations.
    public static func events<Element>(_ recordedEvents: Recorded<Event<Element>>...) -> [Recorded<Event<Element>>] where Value == Event<Element> {
        recordedEvents
    }

    /// The events as an array, for readable expectations.
    public static func events<Element>(_ recordedEvents: [Recorded<Event<Element>>]) -> [Recorded<Event<Element>>] where Value == Event<Element> {
        recordedEvents
    }
}

/// A subscription's lifetime in virtual time, as logged by a ``TestableObservable``.
///
///     #expect(xs.subscriptions == [Subscription(200, 1000)])
public struct Subscription: Hashable, Sendable, CustomDebugStringConvertible {
    /// When the subscription started.
    public let subscribe: TestTime
    /// When it was disposed; `Int.max` while still subscribed.
    public let unsubscribe: TestTime

    /// A subscription still alive, started at `subscribe`.
    public init(_ subscribe: TestTime) {
        self.subscribe = subscribe
        self.unsubscribe = .max
    }

    /// A subscription from `subscribe` to `unsubscribe`.
    public init(_ subscribe: TestTime, _ unsubscribe: TestTime) {
        self.subscribe = subscribe
        self.unsubscribe = unsubscribe
    }

    /// `(subscribe, unsubscribe)`, or `(subscribe, ∞)` while alive.
    public var debugDescription: String {
        let end = unsubscribe == .max ? "∞" : "\(unsubscribe)"
        return "(\(subscribe), \(end))"
    }
}
