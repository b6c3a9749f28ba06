/// The one "queue under the lock, one thread drains" mechanism of the library's serialising
/// sinks (``SerializingSink``, ``OrderedSink``, ``OrderedDeliverySink``): what waits to be
/// delivered, in decision order, and whether a thread is delivering it.
///
/// Four other places run the same protocol with a loop of their own, each saying why in its
/// doc comment: ``Broadcaster`` (subjects and `share`: numbered events to many observers, and
/// catch-ups handed to the deliverer), the typed `combineLatest` and `zip` engines
/// (``CombineLatestTypedSink``, ``ZipTypedSink``: their per-element paths cannot hold a
/// queue of their values' type), the serial `observe(on:)` (``ObserveOnSerialSink``: a
/// scheduled deliverer, in bounded batches), and ObjectStore's `CommitDeliveries`, which cannot
/// import Streams, nor share this type from `Locking` without its members being called out of
/// line here (its doc comment says why).
///
/// Every call is made under the owning sink's lock. A thread that has something to deliver
/// asks ``claim()``: if nobody is delivering it becomes the deliverer and delivers after
/// unlocking, otherwise it ``append(_:)``s its item for the deliverer. The deliverer then takes
/// what others queued, batch by batch (``takeAll()`` or ``swapBatch(_:)``, each after
/// ``hasItems`` says there is something), and delivers each batch after unlocking, until
/// ``finishIfEmpty()`` finds nothing left and makes the queue idle again. So items leave one
/// at a time, in the order they were queued, and never under the lock.
///
/// The per-element checks read plain flags only: testing the generic arrays themselves costs
/// runtime metadata lookups in code that is not specialised for the element type, so the calls
/// that touch the arrays are kept out of line.
struct DeliveryQueue<Item> {
    /// The items waiting for the deliverer, oldest first.
    private var items: [Item] = []
    /// `true` while one thread delivers; the others queue for it.
    private(set) var isDraining = false
    /// `!items.isEmpty`, as a plain flag.
    private(set) var hasItems = false

    /// Makes the caller the deliverer if nobody is delivering: `true` then, and the caller
    /// delivers after unlocking; `false` when another thread (or a call up this thread's
    /// stack) delivers, and the caller queues its item instead.
    @inline(__always)
    mutating func claim() -> Bool {
        if isDraining { return false }
        isDraining = true
        return true
    }

    /// Queues `item` for the deliverer.
    @inline(never)
    mutating func append(_ item: Item) {
        items.append(item)
        hasItems = true
    }

    /// The deliverer looks for more: `true` (and the queue is idle again, the caller no longer
    /// the deliverer) when nothing is queued.
    @inline(__always)
    mutating func finishIfEmpty() -> Bool {
        if hasItems { return false }
        isDraining = false
        return true
    }

    /// Takes every queued item, for the deliverer.
    @inline(never)
    mutating func takeAll() -> [Item] {
        hasItems = false
        defer { items = [] }
        return items
    }

    /// Exchanges the queued items with `batch`, which the deliverer has emptied keeping its
    /// storage, so that in the steady state neither side allocates.
    @inline(__always)
    mutating func swapBatch(_ batch: inout [Item]) {
        swap(&items, &batch)
        hasItems = false
    }

    /// Drops what is queued and makes the queue idle (the deliverer stops: its sink is
    /// disposed, or ended).
    mutating func stop() {
        if hasItems {
            items.removeAll()
            hasItems = false
        }
        isDraining = false
    }
}
