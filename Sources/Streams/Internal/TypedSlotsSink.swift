import Locking

/// What a source's state in a ``TypedSlotsSink`` has, whatever the operator: the source's
/// subscription.
protocol TypedSlotState {
    /// The source's subscription.
    var subscription: SourceSubscription { get set }
}

/// What the typed engines of `combineLatest` and `zip` (``CombineLatestTypedSink``,
/// ``ZipTypedSink``) share, whatever their sources' element types: one lock, one state per
/// source (`Slot`), and one allocation that holds the per-source offsets, the states and the
/// values, laid out in raw memory by the engine for its sources' types, so that the element
/// path touches no `Optional` of a generic type and no generic slot class (whose metadata
/// would be looked up at run time for every element: the code is not specialised for the
/// caller's types); and the sources' subscriptions, disposed once (``detachSources(whileLocked:)``,
/// which the engine calls from its `dispose()`).
class TypedSlotsSink<Observer: ObserverType, Slot: TypedSlotState>: Sink<Observer>, @unchecked Sendable {
    /// Guards the states and the values. Never held while calling out.
    final let lock = Lock()
    /// The number of sources.
    final let count: Int
    /// Where each source's value is, from the start of `values`; written by the engine's
    /// initializer, never changed afterwards (read without the lock).
    final let offsets: UnsafeMutablePointer<Int>
    /// One state per source.
    final let slots: UnsafeMutablePointer<Slot>
    /// The start of the values, aligned for every source's type.
    final let values: UnsafeMutableRawPointer
    /// `true` once ``dispose()`` has started disposing the sources' subscriptions.
    @exclusivity(unchecked) private var sourcesAreDetached = false

    /// Makes room for `count` sources whose values take `size` bytes aligned to `alignment`;
    /// each source's state starts as `slot(values)`. The engine then writes each source's
    /// offset into `offsets`. (A sink of a ``Producer``: see ``Sink/init(observer:handle:)``.)
    init(count: Int, size: Int, alignment: Int, slot: (UnsafeMutableRawPointer) -> Slot, observer: Observer, handle: SinkDisposer?) {
        self.count = count
        // Int and the states share their alignment (checked below); the values may need more.
        let offsetBytes = MemoryLayout<Int>.stride * count
        let stateBytes = MemoryLayout<Slot>.stride * count
        let valueAlignment = max(alignment, MemoryLayout<Slot>.alignment, MemoryLayout<Int>.alignment)
        let valuesStart = (offsetBytes + stateBytes + valueAlignment - 1) / valueAlignment * valueAlignment
        let storage = UnsafeMutableRawPointer.allocate(byteCount: valuesStart + size, alignment: valueAlignment)
        assert(MemoryLayout<Slot>.alignment <= MemoryLayout<Int>.alignment)
        offsets = storage.bindMemory(to: Int.self, capacity: count)
        offsets.initialize(repeating: 0, count: count)
        values = storage + valuesStart
        slots = (storage + offsetBytes).bindMemory(to: Slot.self, capacity: count)
        slots.initialize(repeating: slot(values), count: count)
        super.init(observer: observer, handle: handle)
    }

    deinit {
        // The engine has destroyed the values.
        slots.deinitialize(count: count)
        offsets.deinitialize(count: count)
        UnsafeMutableRawPointer(offsets).deallocate()
    }

    /// Keeps `subscription` as source `index`'s, or disposes it if that was disposed already.
    final func attach(_ subscription: Disposable, at index: Int) {
        lock.lock()
        let late = slots[index].subscription.attach(subscription)
        lock.unlock()
        late?.dispose()
    }

    /// Disposes source `index`'s subscription, now or when it arrives.
    final func detach(at index: Int) {
        lock.lock()
        detachLockedThenUnlock(at: index)
    }

    /// Disposes source `index`'s subscription (now, or when it arrives: a source that completes
    /// while being subscribed, such as `just`, has none yet); called under the lock, which it
    /// releases before disposing.
    final func detachLockedThenUnlock(at index: Int) {
        let subscription = slots[index].subscription.take()
        lock.unlock()
        subscription?.dispose()
    }

    /// Disposes every source's subscription, the first time only (the sink is its own
    /// subscription, so `dispose` runs more than once): runs `whileLocked` under the lock, then
    /// releases the lock and disposes them.
    ///
    /// - Returns: `true` for the call that disposed them.
    @discardableResult
    final func detachSources(whileLocked: () -> Void = {}) -> Bool {
        lock.lock()
        if sourcesAreDetached {
            lock.unlock()
            return false
        }
        sourcesAreDetached = true
        whileLocked()
        lock.unlock()
        for index in 0 ..< count { detach(at: index) }
        return true
    }
}

/// Lays out the values of a ``TypedSlotsSink`` one type after the other, each at its
/// alignment: run once through the sources' types to size the storage, and once again the same
/// way to note each source's offset.
struct TypedSlotsLayout {
    /// How many values were placed.
    private(set) var count = 0
    /// The bytes they take.
    private(set) var size = 0
    /// The largest alignment among them.
    private(set) var alignment = 1

    /// Places `bytes` bytes aligned to `valueAlignment` after what was placed; returns their
    /// offset.
    mutating func place(_ bytes: Int, alignedTo valueAlignment: Int) -> Int {
        let offset = (size + valueAlignment - 1) / valueAlignment * valueAlignment
        size = offset + bytes
        alignment = max(alignment, valueAlignment)
        return offset
    }

    /// Places one value of type `Value`, counting it as a source's; returns its offset.
    mutating func place<Value>(_: Value.Type) -> Int {
        count += 1
        return place(MemoryLayout<Value>.size, alignedTo: MemoryLayout<Value>.alignment)
    }
}

/// What the typed engines' producer asks of their sinks: to subscribe to a source whose
/// elements go to slot `index` (a `just` or an `empty` is read at once, not subscribed).
protocol TypedSlotsSubscribing: Disposable {
    /// Subscribes to `source`, whose elements go to slot `index`.
    func subscribe<Source: ObservableType>(_ source: Source, at index: Int)
}

/// Which operator's engine a ``TypedCombining`` runs: ``CombineLatestTypedSink`` or
/// ``ZipTypedSink``, each with the part that knows the sources' element types
/// (``CombineLatestTypedSources``, ``ZipTypedSources``).
enum TypedCombiningRules {
    /// The latest element of each source, once every one has sent one.
    case combineLatest
    /// The n-th element of each source together.
    case zip
}

/// The part of a ``TypedCombining``'s engine that knows the sources' element types, and the
/// result selector; it keeps no state, so the producer makes it once for all its subscriptions.
enum TypedCombiningEngine<Result> {
    /// For a ``CombineLatestTypedSink``.
    case combineLatest(any CombineLatestTypedElements<Result>)
    /// For a ``ZipTypedSink``.
    case zip(any ZipTypedElements<Result>)
}

/// The one producer of the fixed-arity `combineLatest` and `zip` (two or more sources of any
/// element types): each source's elements are kept with their own type in a
/// ``TypedSlotsSink``, so an element goes from a source to `resultSelector` without being boxed
/// or cast.
///
/// Completion, failure, disposal and delivery are those of the collection engine
/// (``CollectionCombiningProducer``; for `zip`, without completing when starved): decisions are
/// taken under one lock per subscription, the selector and the observer are called outside it,
/// and elements leave in the order they were decided.
final class TypedCombining<Result, O1: ObservableType, O2: ObservableType, each O: ObservableType>: Producer<Result>, @unchecked Sendable {
    typealias ResultSelector = (O1.Element, O2.Element, repeat (each O).Element) throws -> Result

    /// The part of the engine that knows the sources' element types, with the result selector:
    /// made once, shared by every subscription (it keeps no state of its own).
    private let engine: TypedCombiningEngine<Result>
    private let source1: O1
    private let source2: O2
    private let sources: (repeat each O)

    init(_ rules: TypedCombiningRules, _ source1: O1, _ source2: O2, _ sources: repeat each O, resultSelector: @escaping ResultSelector) {
        switch rules {
        case .combineLatest:
            engine = .combineLatest(CombineLatestTypedSources<Result, O1.Element, O2.Element, repeat (each O).Element>(resultSelector: resultSelector))
        case .zip:
            engine = .zip(ZipTypedSources<Result, O1.Element, O2.Element, repeat (each O).Element>(resultSelector: resultSelector))
        }
        self.source1 = source1
        self.source2 = source2
        self.sources = (repeat each sources)
    }

    override func connect<Observer: ObserverType>(_ observer: Observer, handle: SinkDisposer?) -> Disposable where Observer.Element == Result {
        let sink: TypedSlotsSubscribing
        switch engine {
        case .combineLatest(let elements):
            sink = CombineLatestTypedSink<Observer>(elements: elements, observer: observer, handle: handle)
        case .zip(let elements):
            sink = ZipTypedSink<Observer>(elements: elements, observer: observer, handle: handle)
        }
        // Source i's observer stores into slot i, which the sink laid out for the i-th type.
        sink.subscribe(source1, at: 0)
        sink.subscribe(source2, at: 1)
        var index = 2
        for source in repeat each sources {
            sink.subscribe(source, at: index)
            index += 1
        }
        // The sink disposes its sources' subscriptions when disposed: it has no upstream of
        // its own to set.
        return sink
    }
}
