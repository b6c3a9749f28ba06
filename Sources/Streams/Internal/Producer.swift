import Synchronization

/// The base of every operator, and its one shape: a subclass overrides ``connect(_:handle:)``,
/// which makes the stage's sink for an observer and subscribes it upstream (handing the
/// upstream subscription to ``Sink/setUpstream(_:)``). The sink is the stage's disposer: a
/// stage costs its sink, and no separate disposer object.
///
/// `subscribe` makes sure the current thread's trampoline (``CurrentThreadScheduler``) runs, so
/// synchronous sources that schedule recursively never grow the stack. A sink subscribed by a
/// sink downstream (``Observable/subscribeUpstream(_:)``) is what that sink keeps and disposes.
/// A sink subscribed by anyone else is handed out behind a ``SinkDisposer``: the sink disposes
/// it when it ends, so the subscriber's handle lets go of the sink, and of the observer the
/// sink holds, as soon as the subscription is over.
///
/// A source that keeps no sink (`just`, `empty`, `never`, `error`, `share`'s subscription)
/// derives from ``SinklessProducer``, which hands out what its `connect` returns, with no
/// handle to make. (`connect` is the one method a subclass must write, and Swift has no
/// abstract class to say so: a subclass that forgets it stops with "Abstract method" at its
/// first subscription, which every operator's tests make.)
@usableFromInline
class Producer<Element>: Observable<Element>, @unchecked Sendable {
    override init() { super.init() }

    override final func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        CurrentThreadScheduler.runInTrampoline { subscribeNow(observer) }
    }

    /// Called from inside an operator's subscription, with the trampoline running: no need to
    /// look for it again, and no handle: the sink downstream keeps this stage's sink.
    override final func subscribeUpstream<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        connect(observer, handle: nil)
    }

    /// Subscribes `observer` with the current thread's trampoline running.
    ///
    /// - Returns: What the subscriber keeps: disposing it disposes the subscription, and the
    ///   subscription lets go of it once it has ended.
    func subscribeNow<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        let handle = SinkDisposer()
        let sink = connect(observer, handle: handle)
        handle.setSink(sink)
        return handle
    }

    /// Creates the sink for `observer`, created with `handle`, and subscribes it upstream
    /// (handing the upstream subscription to ``Sink/setUpstream(_:)``).
    ///
    /// - Parameters:
    ///   - observer: The observer downstream.
    ///   - handle: The subscriber's handle, which the sink disposes when it ends; `nil` when a
    ///     sink downstream subscribed (it keeps what this returns).
    /// - Returns: The sink (or, for a source that keeps none, its subscription).
    func connect<Observer: ObserverType>(_ observer: Observer, handle: SinkDisposer?) -> Disposable where Observer.Element == Element {
        abstractMethod()
    }
}

/// A source that keeps no sink (`just`, `empty`, `never`, `error`, `share`'s subscription):
/// what ``connect(_:handle:)`` returns is handed to the subscriber as it is, with no handle to
/// make, since there is no sink for a handle to let go of.
@usableFromInline
class SinklessProducer<Element>: Producer<Element>, @unchecked Sendable {
    override init() { super.init() }

    override final func subscribeNow<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        connect(observer, handle: nil)
    }
}

/// The subscriber's handle on an operator's sink (``Producer/subscribeNow(_:)``): disposing
/// it disposes the sink, even when the dispose arrives while `connect` is still in progress.
///
/// One atomic word decides, with no lock to allocate: `setSink` stores the sink and then sets
/// the assigned bit; `dispose` sets the disposed bit. Whichever call comes second sees the
/// other's bit and disposes the sink, so it is disposed exactly once. The field is written
/// before the assigned bit is published and read only after it was seen, and each side
/// touches it only when the other cannot.
@usableFromInline
final class SinkDisposer: Cancelable, @unchecked Sendable {
    private static let disposedBit = 1
    private static let assignedBit = 2

    private let state = Atomic<Int>(0)
    @exclusivity(unchecked) private var sink: Disposable?

    @usableFromInline var isDisposed: Bool { state.load(ordering: .acquiring) & Self.disposedBit != 0 }

    /// Keeps `sink`, made by `connect`; disposes it at once if the handle was disposed
    /// meanwhile. Called once.
    func setSink(_ sink: Disposable) {
        self.sink = sink
        let previous = state.bitwiseOr(Self.assignedBit, ordering: .acquiringAndReleasing).oldValue
        precondition(previous & Self.assignedBit == 0, "The sink is assigned once")
        if previous & Self.disposedBit != 0 {
            self.sink = nil
            sink.dispose()
        }
    }

    @usableFromInline func dispose() {
        let previous = state.bitwiseOr(Self.disposedBit, ordering: .acquiringAndReleasing).oldValue
        guard previous & Self.disposedBit == 0, previous & Self.assignedBit != 0 else { return }
        self.sink.take()?.dispose()
    }
}

/// The base of an operator's per-subscription state: it forwards to the downstream observer
/// until disposed, and counts itself in ``Resources/total`` while alive.
///
/// The sink of a ``Producer`` is its own disposer: it keeps its upstream subscription
/// (``setUpstream(_:)``) and disposing the sink disposes it. One atomic word decides, as in
/// ``SinkDisposer``: the upstream subscription is disposed exactly once, by whichever of
/// `setUpstream` and the first release (``dispose()`` or ``disposeUpstream()``) comes second,
/// even when the sink is disposed while it is still subscribing upstream.
class Sink<Observer: ObserverType>: Disposable, @unchecked Sendable {
    // Constants of a non-generic type: a static of this generic class would be a call to fetch
    // the class's metadata on every element.
    private typealias Bits = SinkStateBits

    final let observer: Observer
    /// What disposing the sink disposes besides its upstream: the subscriber's handle; `nil`
    /// for a sink that a sink downstream keeps.
    private let handle: SinkDisposer?
    private let state = Atomic<Int>(0)
    @exclusivity(unchecked) private var upstream: Disposable?

    /// A sink of a ``Producer``: disposing it disposes its upstream subscription and
    /// `handle`, the subscriber's handle (if a subscriber other than a sink holds it).
    init(observer: Observer, handle: SinkDisposer?) {
        self.observer = observer
        self.handle = handle
        Resources.increment()
    }

    deinit { Resources.decrement() }

    /// Forwards `event` downstream unless the sink has been disposed.
    @inline(__always)
    final func forwardOn(_ event: Event<Observer.Element>) {
        if isDisposed { return }
        observer.on(event)
    }

    /// Forwards the next element downstream unless the sink has been disposed, without wrapping
    /// it in an ``Event`` (see ``ObserverType/onNext(_:)``).
    @inline(__always)
    final func forwardNext(_ element: Observer.Element) {
        if isDisposed { return }
        observer.onNext(element)
    }

    /// Forwards `error` downstream and disposes the sink: the failure path of an `onNext`,
    /// kept out of line so that the code building the `Event` stays out of the element path.
    @inline(never)
    final func forwardErrorAndDispose(_ error: Swift.Error) {
        forwardOn(.error(error))
        dispose()
    }

    /// `true` once ``dispose()`` has run.
    @inline(__always)
    final var isDisposed: Bool { state.load(ordering: .acquiring) & Bits.disposed != 0 }

    /// Keeps `subscription`, the sink's upstream subscription, to dispose with the sink; disposes
    /// it at once if the sink, or its upstream, was released meanwhile. Called once.
    final func setUpstream(_ subscription: Disposable) {
        upstream = subscription
        let previous = state.bitwiseOr(Bits.assigned, ordering: .acquiringAndReleasing).oldValue
        if previous & (Bits.disposed | Bits.upstreamReleased) != 0 {
            upstream = nil
            subscription.dispose()
        }
    }

    /// Disposes the upstream subscription (now, or when it is set) and keeps the sink running:
    /// for a sink that goes on after its source has ended.
    final func disposeUpstream() {
        let previous = state.bitwiseOr(Bits.upstreamReleased, ordering: .acquiringAndReleasing).oldValue
        if previous & (Bits.disposed | Bits.upstreamReleased) == 0, previous & Bits.assigned != 0 {
            upstream.take()?.dispose()
        }
    }

    /// Stops forwarding and disposes the upstream subscription.
    func dispose() {
        let previous = state.bitwiseOr(Bits.disposed, ordering: .acquiringAndReleasing).oldValue
        if previous & Bits.disposed != 0 { return }
        if previous & (Bits.assigned | Bits.upstreamReleased) == Bits.assigned {
            upstream.take()?.dispose()
        }
        handle?.dispose()
    }

    /// An observer that forwards to this sink's downstream observer (used by `forwardOn` helpers
    /// of operators that subscribe an inner sequence straight to the output).
    final func forwarder() -> SinkForward<Observer> { SinkForward(forward: self) }
}

/// The bits of a ``Sink``'s state word.
private enum SinkStateBits {
    /// The sink was disposed.
    static let disposed = 1
    /// The upstream subscription was set.
    static let assigned = 2
    /// The upstream subscription was released before the sink (``Sink/disposeUpstream()``).
    static let upstreamReleased = 4
}

/// Forwards every event to a sink's downstream observer, disposing the sink on a terminal event.
struct SinkForward<Observer: ObserverType>: ObserverType {
    typealias Element = Observer.Element
    let forward: Sink<Observer>

    func on(_ event: Event<Element>) {
        switch event {
        case .next:
            forward.forwardOn(event)
        case .error, .completed:
            forward.forwardOn(event)
            forward.dispose()
        }
    }
}
