/// A value that can be seen as an ``Infallible``: a sequence that never fails.
///
/// Infallible's operators are defined on this protocol, so they read the same whichever
/// conforming type they start from.
public protocol InfallibleType<Element>: ObservableConvertibleType {}

/// A sequence that sends elements and may complete, but never fails (RxSwift 6's `Infallible`).
///
/// Unlike ``Driver`` and ``Signal`` it does not move delivery to the main scheduler and does not
/// share its subscription: it is an ``Observable`` whose type promises that no error comes.
/// Make one from a sequence that may fail by saying what replaces the error:
///
///     let names: Infallible<[String]> = api.names().asInfallible(onErrorJustReturn: [])
///     names.subscribe(onNext: { print($0) })      // no `onError`: there is none to handle
///
/// or build it directly with ``create(subscribe:)``, ``InfallibleType/just(_:)``, ``of(_:scheduler:)``…
public struct Infallible<Element>: InfallibleType {
    private let source: Observable<Element>

    /// Wraps `source`; the caller guarantees that it never fails.
    init(_ source: Observable<Element>) {
        self.source = source
    }

    /// The sequence as an ``Observable`` (which, in fact, never fails).
    ///
    /// - Returns: The wrapped observable.
    public func asObservable() -> Observable<Element> { source }
}

extension Infallible: @unchecked Sendable {}

/// What an ``Infallible`` can send: an element or its completion, never an error.
public enum InfallibleEvent<Element> {
    /// An element.
    case next(Element)
    /// The end of the sequence.
    case completed
}

extension InfallibleEvent: EventConvertible {
    /// The same event as an ``Event``.
    public var event: Event<Element> {
        switch self {
        case .next(let element): .next(element)
        case .completed: .completed
        }
    }
}

extension InfallibleEvent: Equatable where Element: Equatable {}

extension Infallible {
    /// The observer an ``Infallible`` creator calls with each event.
    public typealias InfallibleObserver = (InfallibleEvent<Element>) -> Void

    /// Creates an ``Infallible`` from a subscribe function, which can send elements and
    /// completion but has no way to send an error.
    ///
    ///     let ticks = Infallible<Int>.create { observer in
    ///         observer(.next(1))
    ///         observer(.next(2))
    ///         observer(.completed)
    ///         return Disposables.create()
    ///     }
    ///     // --1--2--|
    ///
    /// As with `Observable.create`, nothing sent after `.completed` reaches the subscriber.
    ///
    /// - Parameter subscribe: Called for each subscription; returns the clean-up.
    /// - Returns: The infallible sequence.
    public static func create(subscribe: @escaping (@escaping InfallibleObserver) -> Disposable) -> Infallible<Element> {
        Infallible(Observable<Element>.create { observer in
            subscribe { event in
                switch event {
                case .next(let element): observer.onNext(element)
                case .completed: observer.onCompleted()
                }
            }
        })
    }
}

extension InfallibleType {
    /// Subscribes a closure that receives every event.
    ///
    /// An infallible sequence has no error to deliver; if one fails anyway (a throwing closure
    /// given to one of its operators threw), the error is reported to
    /// ``Hooks/programmingErrorHandler`` and the subscription ends.
    ///
    /// - Parameter on: Called for each element and for the completion.
    /// - Returns: The subscription.
    public func subscribe(_ on: @escaping (InfallibleEvent<Element>) -> Void) -> Disposable {
        asObservable().subscribe { (event: Event<Element>) in
            switch event {
            case .next(let element): on(.next(element))
            case .completed: on(.completed)
            case .error(let error): Hooks.reportProgrammingError("an Infallible failed: \(error)")
            }
        }
    }

    /// Subscribes closures for elements, completion and disposal; there is no error closure
    /// because there is no error.
    ///
    ///     Infallible.of(1, 2).subscribe(onNext: { print($0) })   // prints 1, 2
    ///
    /// - Parameters:
    ///   - onNext: Called for each element.
    ///   - onCompleted: Called once if the sequence completes.
    ///   - onDisposed: Called once when the subscription ends, for any reason.
    /// - Returns: The subscription.
    public func subscribe(
        onNext: ((Element) -> Void)? = nil,
        onCompleted: (() -> Void)? = nil,
        onDisposed: (() -> Void)? = nil
    ) -> Disposable {
        asObservable().subscribe(
            onNext: onNext,
            onError: { error in Hooks.reportProgrammingError("an Infallible failed: \(error)") },
            onCompleted: onCompleted,
            onDisposed: onDisposed
        )
    }

    /// Subscribes closures that also receive `object`, held weakly: once it is gone, events are
    /// ignored and no closure is called.
    ///
    ///     names.subscribe(with: self, onNext: { owner, names in owner.show(names) })
    ///
    /// - Parameters:
    ///   - object: The object handed to each closure, held weakly.
    ///   - onNext: Called with the object and each element.
    ///   - onCompleted: Called with the object if the sequence completes.
    ///   - onDisposed: Called with the object when the subscription ends.
    /// - Returns: The subscription.
    public func subscribe<Object: AnyObject>(
        with object: Object,
        onNext: ((Object, Element) -> Void)? = nil,
        onCompleted: ((Object) -> Void)? = nil,
        onDisposed: ((Object) -> Void)? = nil
    ) -> Disposable {
        subscribe(
            onNext: { [weak object] element in if let object { onNext?(object, element) } },
            onCompleted: { [weak object] in if let object { onCompleted?(object) } },
            onDisposed: { [weak object] in if let object { onDisposed?(object) } }
        )
    }
}
