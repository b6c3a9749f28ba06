/// The package's one "queue under the lock, one thread drains" mechanism: what waits to be
/// delivered, in decision order, and whether a thread is delivering it. Streams' serialising
/// sinks (`SerializingSink`, `OrderedSink`, `OrderedDeliverySink`) and ObjectStore's
/// `StoreCore` (commit notifications, in commit order) each keep one.
///
/// Four other places run the same protocol with a loop of their own, each saying why in its
/// doc comment: Streams' `Broadcaster` (subjects and `share`: numbered events to many
/// observers, and catch-ups handed to the deliverer), the typed `combineLatest` and `zip`
/// engines (`CombineLatestTypedSink`, `ZipTypedSinkBase`: their per-element paths cannot hold
/// a queue of their values' type), and the serial `observe(on:)` (`ObserveOnSerialSink`: a
/// scheduled deliverer, in bounded batches).
///
/// Every call is made under the owner's lock. A thread that has something to deliver asks
/// ``claim()``: if nobody is delivering it becomes the deliverer and delivers after unlocking,
/// otherwise it ``append(_:)``s its item for the deliverer. The deliverer then takes what
/// others queued, batch by batch (``takeAll()`` or ``swapBatch(_:)``, each after ``hasItems``
/// says there is something), and delivers each batch after unlocking, until
/// ``finishIfEmpty()`` finds nothing left and makes the queue idle again. So items leave one
/// at a time, in the order they were queued, and never under the lock.
///
/// It lives here, beside the lock, so that both the reactive library and the store's storage
/// code (which does not import it) use it; its members are `@inlinable`, so the library's hot
/// paths cost what they did when the type was theirs.
///
/// The per-element checks read plain flags only: testing the generic arrays themselves costs
/// runtime metadata lookups in code that is not specialised for the element type, so the calls
/// that touch the arrays are kept out of line.
package struct DeliveryQueue<Item> {
    /// The items waiting for the deliverer, oldest first.
    @usableFromInline var items: [Item] = []
    /// `true` while one thread delivers; the others queue for it.
    @usableFromInline var draining = false
    /// `!items.isEmpty`, as a plain flag.
    @usableFromInline var queued = false

    /// An idle, empty queue.
    @inlinable
    package init() {}

    /// `true` while one thread delivers; the others queue for it.
    @inlinable
    package var isDraining: Bool { draining }

    /// Whether something is queued for the deliverer (a plain flag: no look at the array).
    @inlinable
    package var hasItems: Bool { queued }

    /// Makes the caller the deliverer if nobody is delivering: `true` then, and the caller
    /// delivers after unlocking; `false` when another thread (or a call up this thread's
    /// stack) delivers, and the caller queues its item instead.
    @inlinable @inline(__always)
    package mutating func claim() -> Bool {
        if draining { return false }
        draining = true
        return true
    }

    /// Queues `item` for the deliverer.
    @inlinable @inline(never)
    package mutating func append(_ item: Item) {
        items.append(item)
        queued = true
    }

    /// The deliverer looks for more: `true` (and the queue is idle again, the caller no longer
    /// the deliverer) when nothing is queued.
    @inlinable @inline(__always)
    package mutating func finishIfEmpty() -> Bool {
        if queued { return false }
        draining = false
        return true
    }

    /// Takes every queued item, for the deliverer.
    @inlinable @inline(never)
    package mutating func takeAll() -> [Item] {
        queued = false
        defer { items = [] }
        return items
    }

    /// Exchanges the queued items with `batch`, which the deliverer has emptied keeping its
    /// storage, so that in the steady state neither side allocates.
    @inlinable @inline(__always)
    package mutating func swapBatch(_ batch: inout [Item]) {
        swap(&items, &batch)
        queued = false
    }

    /// Drops what is queued and makes the queue idle (the deliverer stops: its sink is
    /// disposed, or ended).
    @inlinable
    package mutating func stop() {
        if queued {
            items.removeAll()
            queued = false
        }
        draining = false
    }
}
