import Streams

/// An observer that applies each event to a main-actor object, on the main actor: at once
/// when the event arrives there (as a `Driver`'s elements do), otherwise through the main
/// dispatch queue. The target is held weakly, also by an event waiting in the main queue:
/// events after it is gone are dropped.
///
/// Unlike a `Binder`, which schedules each element on the main scheduler and so, inside a
/// delivery of the main scheduler (every `Driver` element), queues it for the next drain, this
/// sets the state during the delivery: a reader sees the element when the driver sends it.
struct MainActorUpdate<Target: AnyObject & Sendable, Element>: ObserverType {
    private weak var target: Target?
    private let update: UncheckedSendable<@MainActor (Target, Event<Element>) -> Void>

    init(_ target: Target, update: @escaping @MainActor (Target, Event<Element>) -> Void) {
        self.target = target
        self.update = UncheckedSendable(update)
    }

    func on(_ event: Event<Element>) {
        guard let target else { return }
        if MainScheduler.isOnMainActor {
            // The common case, every element of a Driver: applied in place. Nothing is packed
            // for a hop (a tuple of generic values would have its type looked up at run time
            // on every element, and the closure allocated).
            // The event goes to one place, the main actor, where this code already runs.
            nonisolated(unsafe) let event = event
            let apply = update.value
            MainActor.assumeIsolated { apply(target, event) }
            return
        }
        hop(event, to: target)
    }

    /// Hands `event` to the main dispatch queue, which applies it if the target still exists.
    /// Out of line: the tuple it packs has its type looked up at run time, which only events
    /// that take this path should pay for.
    @inline(never)
    private func hop(_ event: Event<Element>, to target: Target) {
        // Events are not Sendable: they go to one place, the main actor, and are not touched
        // here again.
        let handOver = UncheckedSendable((event, update.value))
        MainScheduler.performOnMainActor { [weak target] in
            guard let target else { return }
            handOver.value.1(target, handOver.value.0)
        }
    }
}
