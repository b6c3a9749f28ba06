/// A type that receives the events of an observable sequence.
///
/// An observer is called for one subscription at a time and never concurrently for that
/// subscription; after a terminal event it receives nothing more.
public protocol ObserverType<Element> {
    /// The type of the elements received.
    associatedtype Element

    /// Receives one event of the sequence.
    ///
    /// - Parameter event: The next element, an error, or completion.
    func on(_ event: Event<Element>)

    /// Receives the next element: the same as `on(.next(element))`, which the default
    /// implementation calls.
    ///
    /// The library's own observers implement it to pass elements along without wrapping each in
    /// an ``Event``: their code is generic and not specialised for the element type, so building
    /// and taking apart an `Event<Element>` costs runtime type lookups on every element. An
    /// observer that implements it must behave exactly as its `on(.next(element))`.
    ///
    /// - Parameter element: The element.
    func onNext(_ element: Element)
}

extension ObserverType {
    /// Sends `.next(element)`.
    @inlinable
    public func onNext(_ element: Element) { on(.next(element)) }

    /// Sends `.completed`.
    @inlinable
    public func onCompleted() { on(.completed) }

    /// Sends `.error(error)`.
    @inlinable
    public func onError(_ error: Swift.Error) { on(.error(error)) }

    /// Wraps this observer in a type-erased ``AnyObserver``.
    public func asObserver() -> AnyObserver<Element> { AnyObserver(self) }

    /// An observer that transforms elements with `transform` before passing them to this one.
    ///
    /// - Parameter transform: Applied to each element; a thrown error becomes `.error`.
    public func mapObserver<Result>(_ transform: @escaping (Result) throws -> Element) -> AnyObserver<Result> {
        AnyObserver { event in self.on(event.map(transform)) }
    }
}

/// A type-erased observer that forwards every event to a closure or to another observer.
public struct AnyObserver<Element>: ObserverType {
    /// The closure type that handles events.
    public typealias EventHandler = (Event<Element>) -> Void

    @usableFromInline
    let observer: EventHandler

    /// Creates an observer that calls `eventHandler` for each event.
    ///
    /// - Parameter eventHandler: The closure that receives events.
    public init(eventHandler: @escaping EventHandler) {
        self.observer = eventHandler
    }

    /// Creates an observer that forwards every event to `observer`.
    ///
    /// - Parameter observer: The observer that receives the events.
    public init<Observer: ObserverType>(_ observer: Observer) where Observer.Element == Element {
        if let erased = observer as? AnyObserver<Element> {
            self = erased
        } else {
            self.observer = observer.on
        }
    }

    /// Forwards `event` to the wrapped handler.
    @inlinable
    public func on(_ event: Event<Element>) { observer(event) }

    /// Returns `self`.
    public func asObserver() -> AnyObserver<Element> { self }
}

extension AnyObserver: @unchecked Sendable {}

/// The observer behind `subscribe(onNext:onError:onCompleted:onDisposed:)` and `subscribe(_:)`:
/// it holds the subscriber's closures itself, so that the handler of `subscribe(onNext:…)`,
/// built by the `@inlinable` method for the caller's element type, captures nothing and costs
/// no closure context.
///
/// It counts itself in ``Resources/total`` while alive, and hands each event that arrives
/// through ``on(_:)``, with itself, to its handler. The handler, not this class, stops at the
/// first terminal event (``isStopped``, ``stop()``). Elements that arrive through
/// ``onNext(_:)`` go straight to the element closure, with no `Event` built, or, for
/// `subscribe(_:)`, which has none, to the handler. The handlers are compiled for the caller's
/// element type: inspecting an event there costs nothing, where doing it here (generic code, not
/// specialised) would ask the runtime for the event type's metadata on every element.
@usableFromInline
final class ClosureObserver<Element>: ObserverType, @unchecked Sendable {
    @usableFromInline
    typealias Handler = (ClosureObserver<Element>, Event<Element>) -> Void

    /// Called for each element that arrives through ``onNext(_:)`` until a terminal event.
    @usableFromInline let elementHandler: ((Element) -> Void)?
    /// Called once if the sequence fails; `nil` sends the error to the default error handler.
    @usableFromInline let errorHandler: ((Swift.Error) -> Void)?
    /// Called once if the sequence completes.
    @usableFromInline let completionHandler: (() -> Void)?
    /// Disposed after a terminal event has been handled (it runs the `onDisposed` closure).
    @usableFromInline let disposal: Cancelable?
    /// Where the subscription was made, for the default error handler (empty unless recorded).
    @usableFromInline let callStack: [String]
    private let handler: Handler
    /// Whether elements that arrive through ``onNext(_:)`` go to the handler (`subscribe(_:)`)
    /// rather than to ``elementHandler``.
    private let handlesElements: Bool
    @usableFromInline
    let stopped = AtomicFlag()

    /// - Parameters:
    ///   - onNext: Called for each element.
    ///   - onError: Called if the sequence fails.
    ///   - onCompleted: Called if the sequence completes.
    ///   - onDisposed: Disposed once the handler has handled a terminal event.
    ///   - callStack: The subscription's call stack, for the default error handler.
    ///   - handlesElements: Whether elements that arrive through ``onNext(_:)`` go to
    ///     `handler`, as `.next` events, instead of to `onNext`.
    ///   - handler: Called for every event that arrives through ``on(_:)``.
    @usableFromInline
    init(
        onNext: ((Element) -> Void)?,
        onError: ((Swift.Error) -> Void)?,
        onCompleted: (() -> Void)?,
        onDisposed: Cancelable?,
        callStack: [String],
        handlesElements: Bool = false,
        _ handler: @escaping Handler
    ) {
        self.elementHandler = onNext
        self.errorHandler = onError
        self.completionHandler = onCompleted
        self.disposal = onDisposed
        self.callStack = callStack
        self.handler = handler
        self.handlesElements = handlesElements
        Resources.increment()
    }

    deinit { Resources.decrement() }

    @usableFromInline
    func on(_ event: Event<Element>) {
        handler(self, event)
    }

    @usableFromInline
    func onNext(_ element: Element) {
        if handlesElements { return handleNext(element) }
        if stopped.isSet { return }
        elementHandler?(element)
    }

    /// Hands an element to `handler` as `.next`: apart from `onNext`, so that building the
    /// `Event` does not cost `onNext` a runtime type lookup on every call.
    @inline(never)
    private func handleNext(_ element: Element) {
        handler(self, .next(element))
    }

    /// `true` once a terminal event was accepted.
    @inlinable
    var isStopped: Bool { stopped.isSet }

    /// Accepts a terminal event; `true` only the first time.
    @inlinable
    func stop() -> Bool { stopped.setOnce() }
}
