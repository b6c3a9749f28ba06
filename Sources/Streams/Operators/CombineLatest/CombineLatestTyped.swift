import Locking

/// The state of one source of a typed `combineLatest`, guarded by the sink's lock.
struct CombineLatestSlotState: TypedSlotState {
    /// What the source has done, for the rules: whether it has sent an element (its latest is
    /// initialized) and whether it has completed.
    var source = CombineLatestState.Source()
    /// The source's subscription.
    var subscription = SourceSubscription()
}

/// A typed `combineLatest` sink: the rules (a ``CombineLatestState``, whose decisions it
/// carries out) over the lock, states and raw values of a ``TypedSlotsSink``. What depends on
/// the sources' element types — laying the values out, rendering them, and the delivery, whose
/// queue holds values — is its ``CombineLatestTypedElements``, which it calls once a decision is
/// taken.
///
/// The values are there twice: the latest of each source (`latest`), and the copy that the
/// delivering thread renders from (`rendering`), at the same offsets; only the code that knows
/// a source's type touches them (through ``CombineLatestCursor``), so the element path touches
/// no `Optional` of a generic type and no generic slot class.
///
/// The sink and its sources' observers are generic over the observer alone, and reach the
/// element types through an existential, one call per decision: every call through a type
/// generic over the element types passes them all (see ``ZipTypedSink``, whose engine has the
/// same shape; on the nested `combineLatest` benchmark this shape takes 2 % fewer instructions
/// per element, and 3 % fewer per subscription, than the former base class with overridden
/// methods). The delivery's state (`draining`, the queue) is the sink's, so that the typed part
/// keeps none and is made once per operator.
final class CombineLatestTypedSink<Observer: ObserverType>: TypedSlotsSink<Observer, CombineLatestSlotState>, TypedSlotsSubscribing, @unchecked Sendable {
    /// The sources' element types and the result selector, and the delivery's code (its
    /// ``CombineLatestTypedSources``, shared by every subscription of the operator).
    private let elements: any CombineLatestTypedElements<Observer.Element>
    /// The latest element of each source, at its slot's offset.
    fileprivate var latest: UnsafeMutableRawPointer { values }
    /// A copy of the latest values that the delivering thread renders from, at the same
    /// offsets: made under the lock, and kept until the next rendering or the sink's end.
    fileprivate var rendering: UnsafeMutableRawPointer { values + renderingStart }
    /// Where `rendering` starts, from `values`.
    private let renderingStart: Int
    /// The rules: how many sources have sent an element and completed, and whether the
    /// sequence has ended. Only touched under `lock`, so its accesses skip the run-time
    /// exclusivity checks, which cost as much as the rest of the per-element bookkeeping.
    @exclusivity(unchecked) private var state: CombineLatestState
    // The delivery's state, read and written by the elements' code under `lock` (or by the one
    // delivering thread), also without run-time exclusivity checks.
    /// `true` while one thread delivers; others queue what they decide.
    @exclusivity(unchecked) fileprivate var draining = false
    /// Whether `rendering` holds values: from the first rendering on, it keeps those last
    /// rendered (overwriting them costs less than destroying them after each rendering).
    @exclusivity(unchecked) fileprivate var renderingInitialized = false
    /// Decisions taken while another thread delivered, in order: a ``CombineLatestQueue`` of
    /// the sources' values, which only the elements' code knows. Made on first use, so that a
    /// sink that never queues never looks up the queue's type.
    @exclusivity(unchecked) fileprivate var queue: AnyObject?
    /// Whether `queue` holds decisions, as a plain flag: the generic array is costly to test.
    @exclusivity(unchecked) fileprivate var hasQueued = false

    init(elements: any CombineLatestTypedElements<Observer.Element>, observer: Observer, handle: SinkDisposer?) {
        self.elements = elements
        // The values take their layout's size twice, `latest` then `rendering`.
        var layout = TypedSlotsLayout()
        elements.place(&layout)
        state = CombineLatestState(count: layout.count)
        let valueAlignment = max(layout.alignment, MemoryLayout<Int>.alignment)
        let valueBytes = (layout.size + valueAlignment - 1) / valueAlignment * valueAlignment
        renderingStart = valueBytes
        super.init(count: layout.count, size: 2 * valueBytes, alignment: layout.alignment, slot: { _ in CombineLatestSlotState() }, observer: observer, handle: handle)
        elements.note(offsets: offsets)
    }

    deinit {
        elements.destroyValues(slots: slots, offsets: offsets, latest: latest, rendering: renderingInitialized ? rendering : nil)
    }

    /// Subscribes to `source`, whose elements go to slot `index`.
    ///
    /// A `just` or an `empty` (or `from(optional:)` with no scheduler) is not subscribed: its
    /// element and completion are taken at once, as its subscription would send them, read from
    /// its ``Observable/innerShortcut`` as the flattening operators read an inner's. It is
    /// recognised through `asObservable()`, which costs less than a cast to `Observable`
    /// (for the library's sequences it is the sequence itself; a foreign `ObservableType` makes
    /// a wrapper that is dropped, and the source itself is subscribed).
    func subscribe<Source: ObservableType>(_ source: Source, at index: Int) {
        let observable = source.asObservable()
        switch observable.innerShortcut {
        case .element:
            next(observable.shortcutElement, at: index)
            complete(at: index)
        case .completion:
            complete(at: index)
        case .subscribe, .steps:
            attach(source.subscribe(CombineLatestSlotObserver<Source.Element, Observer>(sink: self, index: index)), at: index)
        }
    }

    /// Stores `element` as the latest of slot `index` and emits a combination, or completes
    /// when one can never be made.
    @inline(__always)
    func next<Element>(_ element: Element, at index: Int) {
        lock.lock()
        let slot = slots + index
        let hadValue = slot.pointee.source.hasValue
        let action = state.next(&slot.pointee.source)
        if action == .ignore {
            lock.unlock()
            return
        }
        if hadValue {
            (latest + offsets[index]).assumingMemoryBound(to: Element.self).pointee = element
        } else {
            // The first element binds the memory to its type.
            (latest + offsets[index]).initializeMemory(as: Element.self, to: element)
        }
        switch action {
        case .emit:
            elements.emitLockedThenUnlock(self)
        case .complete:
            elements.endLockedThenUnlock(nil, self)
        case .wait, .ignore:
            lock.unlock()
        }
    }

    /// Fails the sequence with `error`.
    func fail(_ error: Swift.Error) {
        lock.lock()
        if !state.stop() {
            lock.unlock()
            return
        }
        elements.endLockedThenUnlock(error, self)
    }

    /// Marks source `index` completed; completes the sequence when every source has.
    func complete(at index: Int) {
        lock.lock()
        switch state.completed(&slots[index].source) {
        case .ignore:
            lock.unlock()
        case .detach:
            detachLockedThenUnlock(at: index)
        case .complete:
            elements.endLockedThenUnlock(nil, self)
        }
    }

    /// Also disposes every source's subscription, once.
    override func dispose() {
        super.dispose()
        detachSources()
    }
}

/// What a ``CombineLatestTypedSink`` asks of the code that knows its sources' element types:
/// to lay the values out, and to deliver the combinations and the end it decides. A class, so
/// that each call is one call through the witness table to a method that finds the element
/// types in its own class metadata; it keeps no state (the delivery's is the sink's), so one
/// serves every subscription of the operator.
protocol CombineLatestTypedElements<Result>: AnyObject, Sendable {
    /// The element a combination renders to.
    associatedtype Result

    /// Places one value per source, counted as the sources'.
    func place(_ layout: inout TypedSlotsLayout)

    /// Notes where each source's value is, laid out as ``place(_:)`` did.
    func note(offsets: UnsafeMutablePointer<Int>)

    /// Emits the combination of the latest values; called under the sink's lock, which it
    /// releases.
    func emitLockedThenUnlock<Observer: ObserverType>(_ sink: CombineLatestTypedSink<Observer>) where Observer.Element == Result

    /// Fails with `error`, or completes when it is `nil`; called under the sink's lock, which it
    /// releases.
    func endLockedThenUnlock<Observer: ObserverType>(_ error: Swift.Error?, _ sink: CombineLatestTypedSink<Observer>) where Observer.Element == Result

    /// Destroys the values left in `latest` (those of the sources that sent one) and in
    /// `rendering` (unless `nil`), as the sink ends.
    func destroyValues(slots: UnsafeMutablePointer<CombineLatestSlotState>, offsets: UnsafeMutablePointer<Int>, latest: UnsafeMutableRawPointer, rendering: UnsafeMutableRawPointer?)
}

/// The sources' element types of a typed `combineLatest`, `E1`, `E2` and `E…` in that order,
/// its result selector, and its delivery.
///
/// An element decided while no other is being delivered is rendered from a copy of the latest
/// values taken under the lock; one decided meanwhile, by another thread or by a selector or
/// observer that feeds a source again, is queued as a tuple of values and delivered after it
/// by the delivering thread.
final class CombineLatestTypedSources<Result, E1, E2, each E>: CombineLatestTypedElements, @unchecked Sendable {
    typealias ResultSelector = (E1, E2, repeat each E) throws -> Result
    typealias Values = (E1, E2, (repeat each E))

    private let resultSelector: ResultSelector

    init(resultSelector: @escaping ResultSelector) {
        self.resultSelector = resultSelector
    }

    func place(_ layout: inout TypedSlotsLayout) {
        _ = layout.place(E1.self)
        _ = layout.place(E2.self)
        repeat _ = layout.place((each E).self)
    }

    func note(offsets: UnsafeMutablePointer<Int>) {
        // The same walk as `place`, noting where each value goes (instead of an array of
        // offsets to allocate).
        var layout = TypedSlotsLayout()
        func note<Value>(_ type: Value.Type) {
            let offset = layout.place(type)
            offsets[layout.count - 1] = offset
        }
        note(E1.self)
        note(E2.self)
        repeat note((each E).self)
    }

    func destroyValues(slots: UnsafeMutablePointer<CombineLatestSlotState>, offsets: UnsafeMutablePointer<Int>, latest: UnsafeMutableRawPointer, rendering: UnsafeMutableRawPointer?) {
        var cursor = CombineLatestCursor(offsets)
        func destroy<Value>(_: Value.Type, _ cursor: inout CombineLatestCursor) {
            let index = cursor.index
            if slots[index].source.hasValue {
                cursor.value(Value.self, in: latest).deinitialize(count: 1)
            }
            if let rendering {
                cursor.value(Value.self, in: rendering).deinitialize(count: 1)
            }
            cursor.advance()
        }
        destroy(E1.self, &cursor)
        destroy(E2.self, &cursor)
        repeat destroy((each E).self, &cursor)
    }

    func emitLockedThenUnlock<Observer: ObserverType>(_ sink: CombineLatestTypedSink<Observer>) where Observer.Element == Result {
        if sink.draining {
            enqueueLatestLockedThenUnlock(sink)
            return
        }
        sink.draining = true
        let initialized = sink.renderingInitialized
        let latest = sink.latest
        let rendering = sink.rendering
        var cursor = CombineLatestCursor(sink.offsets)
        cursor.copy(E1.self, from: latest, to: rendering, initialized: initialized)
        cursor.copy(E2.self, from: latest, to: rendering, initialized: initialized)
        repeat cursor.copy((each E).self, from: latest, to: rendering, initialized: initialized)
        sink.renderingInitialized = true
        sink.lock.unlock()
        if !sink.isDisposed {
            // Only this thread touches `rendering` until it stops delivering.
            cursor = CombineLatestCursor(sink.offsets)
            let element: Result
            do {
                element = try resultSelector(
                    cursor.read(E1.self, in: rendering),
                    cursor.read(E2.self, in: rendering),
                    repeat cursor.read((each E).self, in: rendering)
                )
            } catch {
                sink.forwardErrorAndDispose(error)
                drainQueued(sink)
                return
            }
            sink.forwardNext(element)
        }
        drainQueued(sink)
    }

    /// Queues the latest values for the delivering thread; kept out of line, so that the type
    /// metadata of the queue is not looked up on the common path.
    @inline(never)
    private func enqueueLatestLockedThenUnlock<Observer: ObserverType>(_ sink: CombineLatestTypedSink<Observer>) {
        var cursor = CombineLatestCursor(sink.offsets)
        let latest = sink.latest
        enqueueLocked(.value((
            cursor.read(E1.self, in: latest),
            cursor.read(E2.self, in: latest),
            (repeat cursor.read((each E).self, in: latest))
        )), sink)
        sink.lock.unlock()
    }

    func endLockedThenUnlock<Observer: ObserverType>(_ error: Swift.Error?, _ sink: CombineLatestTypedSink<Observer>) where Observer.Element == Result {
        if sink.draining {
            enqueueLocked(error.map { .error($0) } ?? .completed, sink)
            sink.lock.unlock()
            return
        }
        sink.draining = true
        sink.lock.unlock()
        if !sink.isDisposed {
            if let error {
                sink.forwardOn(.error(error))
            } else {
                sink.forwardOn(.completed)
            }
            sink.dispose()
        }
        drainQueued(sink)
    }

    /// The sink's queue, made by ``enqueueLocked(_:_:)``; called under the sink's lock when
    /// `hasQueued` says it holds decisions.
    private func queue<Observer: ObserverType>(of sink: CombineLatestTypedSink<Observer>) -> CombineLatestQueue<Values> {
        unsafeDowncast(sink.queue.unsafelyUnwrapped, to: CombineLatestQueue<Values>.self)
    }

    /// Queues `item`; called under the sink's lock.
    @inline(never)
    private func enqueueLocked<Observer: ObserverType>(_ item: OrderedDeliveryWork<Values>, _ sink: CombineLatestTypedSink<Observer>) {
        if sink.queue == nil { sink.queue = CombineLatestQueue<Values>() }
        queue(of: sink).items.append(item)
        sink.hasQueued = true
    }

    /// Delivers what other threads (or re-entrant calls) queued while this thread delivered,
    /// until nothing is left; then no thread is delivering. Call without the sink's lock held.
    ///
    /// The claim–queue–drain protocol of ``DeliveryQueue``, written out here because its parts
    /// cannot live together in one `DeliveryQueue<Item>`: the `draining` flag is read on every
    /// decision, and read inside a `DeliveryQueue` of the values it would ask the runtime for
    /// that queue's type (built from the sources' types: a metadata lookup per element in this
    /// unspecialised code); so the flag is a plain field, and the queue of values is made only
    /// once something is queued, in a box of its own, so that a sink that never queues never
    /// asks for the type of an array of its values.
    private func drainQueued<Observer: ObserverType>(_ sink: CombineLatestTypedSink<Observer>) where Observer.Element == Result {
        sink.lock.lock()
        while true {
            if !sink.hasQueued || sink.isDisposed {
                if sink.hasQueued {
                    queue(of: sink).items.removeAll()
                    sink.hasQueued = false
                }
                sink.draining = false
                sink.lock.unlock()
                return
            }
            let queue = queue(of: sink)
            let batch = queue.items
            queue.items = []
            sink.hasQueued = false
            sink.lock.unlock()
            deliver(batch, sink)
            sink.lock.lock()
        }
    }

    @inline(never)
    private func deliver<Observer: ObserverType>(_ batch: [OrderedDeliveryWork<Values>], _ sink: CombineLatestTypedSink<Observer>) where Observer.Element == Result {
        for item in batch {
            if sink.isDisposed { return }
            switch item {
            case .value(let values):
                let element: Result
                do {
                    element = try resultSelector(values.0, values.1, repeat each values.2)
                } catch {
                    sink.forwardErrorAndDispose(error)
                    return
                }
                sink.forwardNext(element)
            case .error(let error):
                sink.forwardErrorAndDispose(error)
                return
            case .completed:
                sink.forwardOn(.completed)
                sink.dispose()
                return
            }
        }
    }
}

/// The observer of one source of a typed `combineLatest`: stores into its slot.
private struct CombineLatestSlotObserver<Element, Observer: ObserverType>: ObserverType {
    let sink: CombineLatestTypedSink<Observer>
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

/// The queue of a ``CombineLatestTypedSink``, in a box of its own (see its `queue`).
final class CombineLatestQueue<Values> {
    /// The decisions, oldest first.
    var items: [OrderedDeliveryWork<Values>] = []
}

/// Walks the values of a ``CombineLatestTypedSink`` source by source, in order, each as its
/// own type (for its ``CombineLatestTypedSources``). (A struct with mutating methods, rather
/// than local functions that capture a counter: those accesses would be checked for
/// exclusivity at run time on every element.)
struct CombineLatestCursor {
    private var offset: UnsafeMutablePointer<Int>
    /// The index of the current source.
    private(set) var index = 0

    /// A cursor at the first source of a sink whose offsets are `offsets`.
    init(_ offsets: UnsafeMutablePointer<Int>) { offset = offsets }

    /// The current source's value in `storage` (the sink's `latest` or `rendering`).
    @inline(__always)
    func value<Value>(_: Value.Type, in storage: UnsafeMutableRawPointer) -> UnsafeMutablePointer<Value> {
        (storage + offset.pointee).assumingMemoryBound(to: Value.self)
    }

    /// Moves on to the next source.
    @inline(__always)
    mutating func advance() {
        offset += 1
        index += 1
    }

    /// A copy of the current source's value in `storage`; moves on.
    @inline(__always)
    mutating func read<Value>(_ type: Value.Type, in storage: UnsafeMutableRawPointer) -> Value {
        defer { advance() }
        return value(type, in: storage).pointee
    }

    /// Copies the current source's value from `source` to `target` (assigning over the value
    /// there if `initialized`); moves on.
    @inline(__always)
    mutating func copy<Value>(_ type: Value.Type, from source: UnsafeMutableRawPointer, to target: UnsafeMutableRawPointer, initialized: Bool) {
        let from = value(type, in: source)
        if initialized {
            value(type, in: target).update(from: from, count: 1)
        } else {
            // The first copy binds the memory to its type.
            (target + offset.pointee).initializeMemory(as: Value.self, from: from, count: 1)
        }
        advance()
    }
}
