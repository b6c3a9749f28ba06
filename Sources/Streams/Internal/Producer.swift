import Synchronization

/// The base of every operator: `subscribe` creates the operator's sink through ``run(_:cancel:)``
/// and ties the sink and its upstream subscription to one ``SinkDisposer``.
///
/// Subscription runs inside the current thread's trampoline (``CurrentThreadScheduler``), so
/// synchronous sources that schedule recursively never grow the stack.
class Producer<Element>: Observable<Element>, @unchecked Sendable {
    override init() { super.init() }

    override func subscribe<Observer: ObserverType>(_ observer: Observer) -> Disposable where Observer.Element == Element {
        if !CurrentThreadScheduler.isScheduleRequired {
            let disposer = SinkDisposer()
            let sinkAndSubscription = run(observer, cancel: disposer)
            disposer.setSinkAndSubscription(sink: sinkAndSubscription.sink, subscription: sinkAndSubscription.subscription)
            return disposer
        }
        return CurrentThreadScheduler.instance.schedule(()) { _ in
            let disposer = SinkDisposer()
            let sinkAndSubscription = self.run(observer, cancel: disposer)
            disposer.setSinkAndSubscription(sink: sinkAndSubscription.sink, subscription: sinkAndSubscription.subscription)
            return disposer
        }
    }

    /// Creates the sink for `observer` and subscribes it upstream.
    ///
    /// - Returns: The sink and the upstream subscription, both disposed by `cancel`.
    func run<Observer: ObserverType>(_ observer: Observer, cancel: Cancelable) -> (sink: Disposable, subscription: Disposable) where Observer.Element == Element {
        abstractMethod()
    }
}

/// Holds a sink and its upstream subscription; disposing it disposes both, even when the
/// dispose arrives while `run` is still in progress.
///
/// One atomic word decides, with no lock to allocate: `setSinkAndSubscription` stores both and
/// then sets the assigned bit; `dispose` sets the disposed bit. Whichever call comes second
/// sees the other's bit and disposes the pair, so it is disposed exactly once. The fields are
/// written before the assigned bit is published and read only after it was seen, and each side
/// touches them only when the other cannot.
final class SinkDisposer: Cancelable, @unchecked Sendable {
    private static let disposedBit = 1
    private static let assignedBit = 2

    private let state = Atomic<Int>(0)
    private var sink: Disposable?
    private var subscription: Disposable?

    var isDisposed: Bool { state.load(ordering: .acquiring) & Self.disposedBit != 0 }

    func setSinkAndSubscription(sink: Disposable, subscription: Disposable) {
        self.sink = sink
        self.subscription = subscription
        let previous = state.bitwiseOr(Self.assignedBit, ordering: .acquiringAndReleasing).oldValue
        precondition(previous & Self.assignedBit == 0, "Sink and subscription are assigned once")
        if previous & Self.disposedBit != 0 {
            self.sink = nil
            self.subscription = nil
            sink.dispose()
            subscription.dispose()
        }
    }

    func dispose() {
        let previous = state.bitwiseOr(Self.disposedBit, ordering: .acquiringAndReleasing).oldValue
        guard previous & Self.disposedBit == 0, previous & Self.assignedBit != 0 else { return }
        let sink = self.sink
        let subscription = self.subscription
        self.sink = nil
        self.subscription = nil
        sink?.dispose()
        subscription?.dispose()
    }
}

/// The base of an operator's per-subscription state: it forwards to the downstream observer
/// until disposed, and counts itself in ``Resources/total`` while alive.
class Sink<Observer: ObserverType>: Disposable, @unchecked Sendable {
    final let observer: Observer
    final let cancel: Cancelable
    private let disposed = AtomicFlag()

    init(observer: Observer, cancel: Cancelable) {
        self.observer = observer
        self.cancel = cancel
        Resources.increment()
    }

    deinit { Resources.decrement() }

    /// Forwards `event` downstream unless the sink has been disposed.
    @inline(__always)
    final func forwardOn(_ event: Event<Observer.Element>) {
        if disposed.isSet { return }
        observer.on(event)
    }

    /// Forwards the next element downstream unless the sink has been disposed, without wrapping
    /// it in an ``Event`` (see ``ObserverType/onNext(_:)``).
    @inline(__always)
    final func forwardNext(_ element: Observer.Element) {
        if disposed.isSet { return }
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
    final var isDisposed: Bool { disposed.isSet }

    /// Stops forwarding and disposes the upstream subscription.
    func dispose() {
        if disposed.setOnce() { cancel.dispose() }
    }

    /// An observer that forwards to this sink's downstream observer (used by `forwardOn` helpers
    /// of operators that subscribe an inner sequence straight to the output).
    final func forwarder() -> SinkForward<Observer> { SinkForward(forward: self) }
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
            forward.cancel.dispose()
        }
    }
}
