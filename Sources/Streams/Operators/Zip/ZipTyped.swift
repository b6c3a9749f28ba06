import Locking

/// How many elements of each source a typed `zip` keeps in its own allocation before it moves
/// that source's queue to one of its own.
let zipInlineCapacity = 2

/// The state of one source of a typed `zip`, guarded by the sink's lock: a ring of waiting
/// elements (of the source's type, which only the code that knows it touches) and the state of
/// the subscription.
struct ZipSlotState: TypedSlotState {
    /// Where the ring is: in the sink's allocation at first, in one of its own once grown.
    var buffer: UnsafeMutableRawPointer
    /// How many elements the ring holds.
    var capacity = 0
    /// The index of the oldest element in the ring.
    var head = 0
    /// How many elements the ring holds, from `head` on (wrapping).
    var count = 0
    /// What the source has done, for the rules: how many of the ring's elements no decision
    /// has claimed yet (the others wait to be delivered), and whether it has completed.
    var source = ZipState.Source()
    /// Whether `buffer` is an allocation of its own, to free.
    var isGrown = false
    /// The source's subscription.
    var subscription = SourceSubscription()
}

/// A typed `zip` sink: the rules (a ``ZipState``, whose decisions it carries out) over the
/// lock, per-source states and raw values of a ``TypedSlotsSink``, and the delivery loop. What
/// depends on the sources' element types — laying them out, taking the heads of the rings and
/// rendering them — is its ``ZipTypedElements``, which it calls once per combination.
///
/// Each source has a ring of waiting elements in raw memory, and one place in `rendering` that
/// the delivering thread renders from. So the element path touches no `Optional` of a generic
/// type and no generic queue, whose type metadata would be looked up at run time for every
/// element (the code is not specialised for the caller's types).
///
/// The sink and its sources' observers are generic over the observer alone, and reach the
/// element types through an existential: every call through a type generic over the element
/// types passes them all. (Measured on the nested `zip` benchmark, in instructions per element,
/// against the former base class with overridden methods: with the sink and its observers
/// generic over the element types, 3 % more; generic over an `Elements` parameter, or calling
/// the element types twice per combination, 3 to 5 % more; this shape, 1 % fewer, and 1 %
/// fewer per subscription, whose typed part is made once per operator.)
///
/// A combination is decided under the lock once every source has an element no earlier
/// decision claimed. The thread that decides while no other delivers moves the heads of the
/// rings into `rendering` and delivers; a decision taken meanwhile (by another thread, or by a
/// selector or observer that feeds a source again) is only counted, and the delivering thread
/// takes the heads for it afterwards: the rings are first in, first out, so the n-th decision
/// always takes the n-th elements.
final class ZipTypedSink<Observer: ObserverType>: TypedSlotsSink<Observer, ZipSlotState>, TypedSlotsSubscribing, @unchecked Sendable {
    /// The sources' element types and the result selector (its ``ZipTypedSources``, shared by
    /// every subscription of the operator).
    private let elements: any ZipTypedElements<Observer.Element>
    /// The heads taken for the combination being delivered, at `offsets`: moved in under the
    /// lock, moved out (or destroyed) by the delivering thread.
    var rendering: UnsafeMutableRawPointer { values }
    // The variables are only touched under `lock`, so their accesses skip the run-time
    // exclusivity checks, which cost as much as the rest of the per-element bookkeeping.
    /// The rules: how many sources have an unclaimed element and have completed, and whether
    /// a terminal event has been decided (or the sink disposed).
    @exclusivity(unchecked) private var state: ZipState
    /// `true` while one thread delivers; others count what they decide.
    @exclusivity(unchecked) private var draining = false
    /// Combinations decided while a thread delivered, not yet taken.
    @exclusivity(unchecked) private var pending = 0
    /// A terminal event decided while a thread delivered: completion if `pendingError` is `nil`.
    @exclusivity(unchecked) private var hasPendingEnd = false
    @exclusivity(unchecked) private var pendingError: Swift.Error?

    init(elements: any ZipTypedElements<Observer.Element>, observer: Observer, handle: SinkDisposer?) {
        self.elements = elements
        // The places and rings are laid out, the storage made, then each one's offset noted.
        var layout = TypedSlotsLayout()
        elements.place(&layout)
        state = ZipState(count: layout.count, completesWhenStarved: false)
        super.init(count: layout.count, size: layout.size, alignment: layout.alignment, slot: { ZipSlotState(buffer: $0) }, observer: observer, handle: handle)
        elements.note(offsets: offsets, slots: slots, values: values)
    }

    deinit {
        elements.destroyQueued(ZipCursor(slots: slots, offsets: offsets))
        for index in 0 ..< count where slots[index].isGrown {
            slots[index].buffer.deallocate()
        }
    }

    /// Subscribes to `source`, whose elements go to slot `index`.
    ///
    /// A `just` or an `empty` (or `from(optional:)` with no scheduler) is not subscribed: its
    /// element and completion are taken at once, as its subscription would send them (as the
    /// typed `combineLatest` does, through ``Observable/innerShortcut``).
    func subscribe<Source: ObservableType>(_ source: Source, at index: Int) {
        let observable = source.asObservable()
        switch observable.innerShortcut {
        case .element:
            next(observable.shortcutElement, at: index)
            complete(at: index)
        case .completion:
            complete(at: index)
        case .subscribe, .steps:
            attach(source.subscribe(ZipSlotObserver<Source.Element, Observer>(sink: self, index: index)), at: index)
        }
    }

    /// Queues `element` in slot `index` and emits a combination when every source has an
    /// unclaimed element.
    @inline(__always)
    func next<Element>(_ element: Element, at index: Int) {
        lock.lock()
        // Once the sequence has ended the rings are emptied without the lock (see `dispose`):
        // leave the slot untouched (the rules' own `.ignore` would still write it back).
        if state.isStopped {
            lock.unlock()
            return
        }
        let slot = slots + index
        let action = state.next(&slot.pointee.source)
        if slot.pointee.count == slot.pointee.capacity {
            grow(Element.self, slot)
        }
        var tail = slot.pointee.head + slot.pointee.count
        if tail >= slot.pointee.capacity { tail -= slot.pointee.capacity }
        (slot.pointee.buffer + tail * MemoryLayout<Element>.stride).initializeMemory(as: Element.self, to: element)
        slot.pointee.count += 1
        switch action {
        case .emit:
            // Claim one element of each source.
            for source in 0 ..< count {
                state.claim(&slots[source].source)
            }
            emitLockedThenUnlock()
        case .complete:
            // Not taken by this engine, whose rules do not complete on starvation.
            endLockedThenUnlock(nil)
        case .wait, .ignore:
            lock.unlock()
        }
    }

    /// Moves slot `slot`'s ring, full, to an allocation twice its size.
    @inline(never)
    private func grow<Element>(_: Element.Type, _ slot: UnsafeMutablePointer<ZipSlotState>) {
        let old = slot.pointee
        let capacity = max(2 * old.capacity, 4)
        let stride = MemoryLayout<Element>.stride
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity * stride, alignment: MemoryLayout<Element>.alignment)
        let oldElements = old.buffer.assumingMemoryBound(to: Element.self)
        let firstPart = min(old.count, old.capacity - old.head)
        buffer.moveInitializeMemory(as: Element.self, from: oldElements + old.head, count: firstPart)
        (buffer + firstPart * stride).moveInitializeMemory(as: Element.self, from: oldElements, count: old.count - firstPart)
        if old.isGrown { old.buffer.deallocate() }
        slot.pointee.buffer = buffer
        slot.pointee.capacity = capacity
        slot.pointee.head = 0
        slot.pointee.isGrown = true
    }

    /// Fails the sequence with `error`.
    func fail(_ error: Swift.Error) {
        lock.lock()
        if !state.stop() {
            lock.unlock()
            return
        }
        endLockedThenUnlock(error)
    }

    /// Marks source `index` completed; completes the sequence when every source has.
    func complete(at index: Int) {
        lock.lock()
        // As in `next`: after the end, the slots belong to `dispose`.
        if state.isStopped {
            lock.unlock()
            return
        }
        switch state.completed(&slots[index].source) {
        case .ignore:
            lock.unlock()
        case .detach:
            detachLockedThenUnlock(at: index)
        case .complete:
            endLockedThenUnlock(nil)
        }
    }

    /// Also disposes every source's subscription, once, and then destroys the waiting
    /// elements. Nothing is queued or taken from the rings from the moment the sources are
    /// detached, so the rings are emptied without the lock (their elements' deinitializers may
    /// call anything).
    override func dispose() {
        super.dispose()
        let detached = detachSources {
            _ = state.stop()
            pending = 0
            hasPendingEnd = false
            pendingError = nil
        }
        if detached { elements.destroyQueued(ZipCursor(slots: slots, offsets: offsets)) }
    }

    /// Emits the combination of the heads of the rings, which it has claimed; called under the
    /// lock, which it releases.
    private func emitLockedThenUnlock() {
        if draining {
            pending += 1
            lock.unlock()
            return
        }
        draining = true
        elements.emitLockedThenUnlock(self)
        drainQueued()
    }

    /// Fails with `error`, or completes when it is `nil`; called under the lock, which it
    /// releases.
    private func endLockedThenUnlock(_ error: Swift.Error?) {
        if draining {
            hasPendingEnd = true
            pendingError = error
            lock.unlock()
            return
        }
        draining = true
        lock.unlock()
        end(error)
        drainQueued()
    }

    /// Sends the terminal event and disposes the sink.
    private func end(_ error: Swift.Error?) {
        if isDisposed { return }
        if let error {
            forwardErrorAndDispose(error)
        } else {
            forwardOn(.completed)
            dispose()
        }
    }

    /// Delivers what other threads (or re-entrant calls) decided while this thread delivered,
    /// until nothing is left; then no thread is delivering. Call without the lock held.
    ///
    /// The claim–queue–drain protocol of ``DeliveryQueue``, with a count in place of its queue:
    /// the values of a decision already wait, in order, in the rings (the n-th decision takes
    /// the n-th elements), so a decision taken while this thread delivers is one more to take,
    /// not an item to store; a `DeliveryQueue` would copy each combination out of the rings
    /// under the lock into an array of a type built from the sources' types.
    private func drainQueued() {
        lock.lock()
        while true {
            if isDisposed {
                pending = 0
                hasPendingEnd = false
                pendingError = nil
                break
            }
            if pending > 0 {
                pending -= 1
                elements.emitLockedThenUnlock(self)
                lock.lock()
                continue
            }
            if hasPendingEnd {
                hasPendingEnd = false
                let error = pendingError
                pendingError = nil
                lock.unlock()
                end(error)
                lock.lock()
                continue
            }
            break
        }
        draining = false
        lock.unlock()
    }
}

/// The observer of one source of a typed `zip`: queues into its slot.
private struct ZipSlotObserver<Element, Observer: ObserverType>: ObserverType {
    let sink: ZipTypedSink<Observer>
    let index: Int

    func on(_ event: Event<Element>) {
        switch event {
        case .next(let element): sink.next(element, at: index)
        case .error(let error): sink.fail(error)
        case .completed: sink.complete(at: index)
        }
    }

    func onNext(_ element: Element) { sink.next(element, at: index) }
}
