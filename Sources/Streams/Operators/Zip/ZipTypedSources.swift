import Locking

/// What a ``ZipTypedSink`` asks of the code that knows its sources' element types: to lay out
/// their places and rings, to take and render each combination, and to destroy what is left.
/// A class, so that each call is one call through the witness table to a method that finds
/// the element types in its own class metadata; it keeps no state, so one serves every
/// subscription of the operator.
protocol ZipTypedElements<Result>: AnyObject, Sendable {
    /// The element a combination renders to.
    associatedtype Result

    /// Places the sources' places in `rendering` (counted as the sources'), then their first
    /// rings. The places come first, so that `rendering` is the start of the values.
    func place(_ layout: inout TypedSlotsLayout)

    /// Notes where each source's place in `rendering` and its first ring are, laid out as
    /// ``place(_:)`` did.
    func note(offsets: UnsafeMutablePointer<Int>, slots: UnsafeMutablePointer<ZipSlotState>, values: UnsafeMutableRawPointer)

    /// Moves the head of each ring to the sink's `rendering` (called under the sink's lock),
    /// releases the lock, and renders and sends the combination (or destroys it once the sink
    /// is disposed).
    func emitLockedThenUnlock<Observer: ObserverType>(_ sink: ZipTypedSink<Observer>) where Observer.Element == Result

    /// Destroys the elements left in the rings; called once nothing can queue or take any.
    func destroyQueued(_ cursor: ZipCursor)
}

/// The sources' element types of a typed `zip`, `E1`, `E2` and `E…` in that order, and its
/// result selector.
final class ZipTypedSources<Result, E1, E2, each E>: ZipTypedElements, @unchecked Sendable {
    typealias ResultSelector = (E1, E2, repeat each E) throws -> Result

    private let resultSelector: ResultSelector

    init(resultSelector: @escaping ResultSelector) {
        self.resultSelector = resultSelector
    }

    func place(_ layout: inout TypedSlotsLayout) {
        // Twice through the types, the same way here and in `note`: to size the storage, then
        // to note where everything goes.
        func placeRing<Value>(_: Value.Type) {
            _ = layout.place(MemoryLayout<Value>.stride * zipInlineCapacity, alignedTo: MemoryLayout<Value>.alignment)
        }
        _ = layout.place(E1.self)
        _ = layout.place(E2.self)
        repeat _ = layout.place((each E).self)
        placeRing(E1.self)
        placeRing(E2.self)
        repeat placeRing((each E).self)
    }

    func note(offsets: UnsafeMutablePointer<Int>, slots: UnsafeMutablePointer<ZipSlotState>, values: UnsafeMutableRawPointer) {
        var layout = TypedSlotsLayout()
        func noteRendering<Value>(_ type: Value.Type) {
            let offset = layout.place(type)
            offsets[layout.count - 1] = offset
        }
        var index = 0
        func noteRing<Value>(_ type: Value.Type) {
            slots[index].buffer = values + layout.place(MemoryLayout<Value>.stride * zipInlineCapacity, alignedTo: MemoryLayout<Value>.alignment)
            slots[index].capacity = zipInlineCapacity
            index += 1
        }
        noteRendering(E1.self)
        noteRendering(E2.self)
        repeat noteRendering((each E).self)
        noteRing(E1.self)
        noteRing(E2.self)
        repeat noteRing((each E).self)
    }

    func emitLockedThenUnlock<Observer: ObserverType>(_ sink: ZipTypedSink<Observer>) where Observer.Element == Result {
        let rendering = sink.rendering
        var cursor = ZipCursor(slots: sink.slots, offsets: sink.offsets)
        cursor.takeHead(E1.self, to: rendering)
        cursor.takeHead(E2.self, to: rendering)
        repeat cursor.takeHead((each E).self, to: rendering)
        sink.lock.unlock()
        cursor = ZipCursor(slots: sink.slots, offsets: sink.offsets)
        if sink.isDisposed {
            cursor.destroy(E1.self, in: rendering)
            cursor.destroy(E2.self, in: rendering)
            repeat cursor.destroy((each E).self, in: rendering)
            return
        }
        let element: Observer.Element
        do {
            element = try resultSelector(
                cursor.take(E1.self, in: rendering),
                cursor.take(E2.self, in: rendering),
                repeat cursor.take((each E).self, in: rendering)
            )
        } catch {
            sink.forwardErrorAndDispose(error)
            return
        }
        sink.forwardNext(element)
    }

    func destroyQueued(_ cursor: ZipCursor) {
        var cursor = cursor
        cursor.destroyRing(E1.self)
        cursor.destroyRing(E2.self)
        repeat cursor.destroyRing((each E).self)
    }
}

/// Walks the sources of a ``ZipTypedSink`` in order, each as its own type (for its
/// ``ZipTypedSources``). (A struct with mutating methods, rather than local functions that
/// capture a counter: those accesses would be checked for exclusivity at run time on every
/// element.)
struct ZipCursor {
    private var slot: UnsafeMutablePointer<ZipSlotState>
    private var offset: UnsafeMutablePointer<Int>

    /// A cursor at the first source of a sink.
    init(slots: UnsafeMutablePointer<ZipSlotState>, offsets: UnsafeMutablePointer<Int>) {
        slot = slots
        offset = offsets
    }

    @inline(__always)
    private mutating func advance() {
        slot += 1
        offset += 1
    }

    /// Moves the head of the current source's ring to its place in `rendering`; moves on.
    @inline(__always)
    mutating func takeHead<Value>(_: Value.Type, to rendering: UnsafeMutableRawPointer) {
        let head = slot.pointee.head
        let from = (slot.pointee.buffer + head * MemoryLayout<Value>.stride).assumingMemoryBound(to: Value.self)
        (rendering + offset.pointee).moveInitializeMemory(as: Value.self, from: from, count: 1)
        slot.pointee.head = head + 1 == slot.pointee.capacity ? 0 : head + 1
        slot.pointee.count -= 1
        advance()
    }

    /// Moves the current source's value out of `rendering`; moves on.
    @inline(__always)
    mutating func take<Value>(_: Value.Type, in rendering: UnsafeMutableRawPointer) -> Value {
        defer { advance() }
        return (rendering + offset.pointee).assumingMemoryBound(to: Value.self).move()
    }

    /// Destroys the current source's value in `rendering`; moves on.
    mutating func destroy<Value>(_: Value.Type, in rendering: UnsafeMutableRawPointer) {
        (rendering + offset.pointee).assumingMemoryBound(to: Value.self).deinitialize(count: 1)
        advance()
    }

    /// Destroys the elements in the current source's ring; moves on.
    mutating func destroyRing<Value>(_: Value.Type) {
        let elements = slot.pointee.buffer.assumingMemoryBound(to: Value.self)
        let head = slot.pointee.head
        let count = slot.pointee.count
        let firstPart = min(count, slot.pointee.capacity - head)
        (elements + head).deinitialize(count: firstPart)
        elements.deinitialize(count: count - firstPart)
        slot.pointee.head = 0
        slot.pointee.count = 0
        slot.pointee.source.available = 0
        advance()
    }
}
