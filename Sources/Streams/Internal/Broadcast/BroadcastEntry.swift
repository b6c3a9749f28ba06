import Locking
/// What subjects (``SubjectCore``) and the dedicated `share` (``ShareConnection``) have in
/// common: each sends every event it accepts to a list of observers, numbers the events as it
/// accepts them, and lets an observer that joins with a replay receive it on its own thread
/// while the events accepted meanwhile wait in the observer's catch-up. The entries below are
/// how both keep their observers, and the functions after them how both deliver to a snapshot
/// of those entries, after unlocking.

/// The part of an observer's subscription to a subject or a shared connection that does not
/// depend on the element type: what the element path reads, so that walking the observers
/// needs no runtime type lookup.
class BroadcastEntry: @unchecked Sendable {
    /// The sequence number of the first event this observer may receive.
    final let firstSequence: UInt64
    /// Set by the first `dispose`.
    private let disposed = AtomicFlag()
    /// Set once the observer has caught up with its replay.
    private let live = AtomicFlag()
    /// `true` while the catch-up holds events, as a plain flag (reading the generic array would
    /// cost a runtime type lookup); guarded by the owner's lock.
    @exclusivity(unchecked) final var hasCatchUp = false

    /// An entry receiving the events numbered `firstSequence` and later.
    init(firstSequence: UInt64) {
        self.firstSequence = firstSequence
    }

    /// `true` once the subscription was disposed.
    @inline(__always)
    final var isDisposed: Bool { disposed.isSet }

    /// `true` once the observer has caught up: from then on deliverers call it directly.
    @inline(__always)
    final var isLive: Bool { live.isSet }

    /// Marks the observer caught up (under the owner's lock, or before the entry is published).
    final func goLive() { _ = live.setOnce() }

    /// Marks the subscription disposed; `true` only the first time.
    final func markDisposed() -> Bool { disposed.setOnce() }
}

/// One observer's subscription, as its subject or shared connection keeps it.
class BroadcastSubscription<Element>: BroadcastEntry, @unchecked Sendable {
    /// The observer. (A constant: calling an observer stored in a variable would copy it for
    /// every element.)
    final let observer: any ObserverType<Element>
    /// Events accepted while the observer was still receiving its replay, in a box made for the
    /// first one (so creating and deallocating a subscription builds no array of a type made
    /// from the element type: a runtime metadata lookup each); guarded by the owner's lock.
    private var catchUp: BroadcastCatchUp<Element>?

    /// `observer`'s subscription, from event number `firstSequence` on.
    init<Observer: ObserverType>(observer: Observer, firstSequence: UInt64) where Observer.Element == Element {
        self.observer = observer
        super.init(firstSequence: firstSequence)
        Resources.increment()
    }

    deinit { Resources.decrement() }

    /// Passes `event` to the observer.
    @inline(__always)
    final func receive(_ event: Event<Element>) {
        observer.on(event)
    }

    /// Adds `event` to the catch-up (under the owner's lock).
    @inline(never)
    final func appendCatchUp(_ event: Event<Element>) {
        if catchUp == nil { catchUp = BroadcastCatchUp() }
        catchUp?.events.append(event)
        hasCatchUp = true
    }

    /// Takes the catch-up (under the owner's lock).
    @inline(never)
    final func takeCatchUp() -> [Event<Element>] {
        hasCatchUp = false
        guard let catchUp else { return [] }
        defer { catchUp.events = [] }
        return catchUp.events
    }
}

/// The catch-up of a ``BroadcastSubscription``.
final class BroadcastCatchUp<Element> {
    /// The events, oldest first.
    var events: [Event<Element>] = []
}

/// Passes element number `sequence` to the observers of `snapshot` that are still subscribed
/// and joined before it was accepted; one still receiving its replay gets it in its catch-up.
/// Called after releasing `lock`, the owner's lock.
///
/// Each live observer is called from here with `element` itself: this code is not specialised
/// for the element type, so the element travels by reference and no observer's call copies it
/// (a call through a non-generic entry method would copy it, through the element type's value
/// witnesses, once per observer). The unchecked downcast of an entry asks the runtime for
/// nothing, and the flags are read on the non-generic base class.
@inline(__always)
func broadcastNext<Element>(_ element: Element, sequence: UInt64, to snapshot: ContiguousArray<BroadcastEntry>, lock: Lock) {
    // `snapshot` keeps every entry alive: read them unretained.
    snapshot.withUnsafeBufferPointer { entries in
        for index in entries.indices {
            Unmanaged.passUnretained(entries[index])._withUnsafeGuaranteedRef { entry in
                if entry.isDisposed || entry.firstSequence > sequence { return }
                if entry.isLive {
                    unsafeDowncast(entry, to: BroadcastSubscription<Element>.self).observer.onNext(element)
                } else {
                    broadcastNextToCatchingUp(entry, element, lock: lock)
                }
            }
        }
    }
}

/// Passes event number `sequence` to the observers of `snapshot` that are still subscribed and
/// joined before it was accepted, as ``broadcastNext(_:sequence:to:lock:)`` does an element.
@inline(__always)
func broadcast<Element>(_ event: Event<Element>, sequence: UInt64, to snapshot: ContiguousArray<BroadcastEntry>, lock: Lock) {
    for entry in snapshot where !entry.isDisposed && entry.firstSequence <= sequence {
        if entry.isLive {
            unsafeDowncast(entry, to: BroadcastSubscription<Element>.self).receive(event)
        } else {
            broadcastToCatchingUp(entry, event, lock: lock)
        }
    }
}

/// ``broadcastToCatchingUp(_:_:lock:)`` for an element: apart, so that building the `Event`
/// stays out of the element path.
@inline(never)
func broadcastNextToCatchingUp<Element>(_ entry: BroadcastEntry, _ element: Element, lock: Lock) {
    broadcastToCatchingUp(entry, Event.next(element), lock: lock)
}

/// Adds `event` to the catch-up of an observer still receiving its replay, unless it has just
/// gone live (then passes it on: its subscriber is done calling it).
@inline(never)
func broadcastToCatchingUp<Element>(_ entry: BroadcastEntry, _ event: Event<Element>, lock: Lock) {
    let entry = unsafeDowncast(entry, to: BroadcastSubscription<Element>.self)
    lock.lock()
    if !entry.isLive {
        entry.appendCatchUp(event)
        lock.unlock()
        return
    }
    lock.unlock()
    entry.receive(event)
}

/// Takes the catch-up of each of `entries`, which finished their replay while a deliverer was
/// at work, and makes them live (under the owner's lock): the deliverer passes the catch-ups on
/// with ``deliverCatchUps(_:_:)`` after unlocking, before anything queued later.
func takeCatchUpsLocked<Element>(_ entries: [BroadcastSubscription<Element>]) -> [[Event<Element>]] {
    entries.map { entry in
        let batch = entry.takeCatchUp()
        entry.goLive()
        return batch
    }
}

/// Passes each catch-up that ``takeCatchUpsLocked(_:)`` took to its observer, unless it was
/// disposed meanwhile.
func deliverCatchUps<Element>(_ entries: [BroadcastSubscription<Element>], _ batches: [[Event<Element>]]) {
    for (entry, events) in zip(entries, batches) {
        for event in events where !entry.isDisposed {
            entry.receive(event)
        }
    }
}

/// What a subject or a shared connection keeps only once it needs it: events accepted while a
/// deliverer was at work, and observers handed over to it with their catch-up. One that is
/// created, subscribed and released without either never makes one, so neither its creation
/// nor its release touches a value of a type built from the element type (each such value
/// costs a runtime metadata lookup: the code is not specialised). Guarded by the owner's lock.
final class BroadcastBacklog<Element> {
    /// Events accepted while a deliverer was at work, with their sequence numbers, in order.
    final var pending: [(event: Event<Element>, sequence: UInt64)] = []
    /// Observers that finished their replay while a deliverer was at work; the deliverer passes
    /// their catch-up on and makes them live before it stops.
    final var handedOver: [BroadcastSubscription<Element>] = []
    /// A subject's terminal event, once accepted, for subscribers that arrive after it.
    final var stopEvent: Event<Element>?

    /// An empty backlog.
    init() {}

    /// Takes the backlog (call under `lock`, the owner's lock; returns after unlocking) and
    /// delivers it: first the handed-over catch-ups, whose events were accepted before anything
    /// still pending, then the pending events, each to the observers `targets` names for it
    /// (called under `lock`). Events accepted meanwhile queue anew, so the catch-ups no longer
    /// grow.
    final func drainLocked(lock: Lock, targets: (Event<Element>) -> ContiguousArray<BroadcastEntry>) {
        let entries = handedOver
        handedOver = []
        let batches = takeCatchUpsLocked(entries)
        let queued = pending
        pending = []
        lock.unlock()
        deliverCatchUps(entries, batches)
        for item in queued {
            let snapshot = lock.withLock { targets(item.event) }
            broadcast(item.event, sequence: item.sequence, to: snapshot, lock: lock)
        }
    }

    /// Takes `entry` out of the hand-over (under the owner's lock), if it is there.
    ///
    /// - Returns: The entry, if it was handed over.
    @discardableResult
    final func removeHandedOver(_ entry: ObjectIdentifier) -> BroadcastSubscription<Element>? {
        guard let index = handedOver.firstIndex(where: { ObjectIdentifier($0) == entry }) else { return nil }
        return handedOver.remove(at: index)
    }
}
