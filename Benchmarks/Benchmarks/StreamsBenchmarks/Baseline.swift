// The plain-closure baseline: the least code that does the same work as a reactive chain,
// with no framework. Single-threaded, no locks, no disposal bookkeeping beyond removing a
// closure: it is the floor a reactive library is measured against.

/// A list of closures called in order with each value: the baseline's subject.
final class ClosureSubject<Value> {
    private var handlers: ContiguousArray<(key: Int, handler: (Value) -> Void)> = []
    private var nextKey = 0

    /// Adds `handler`; returns a key for ``remove(_:)``.
    @discardableResult
    func subscribe(_ handler: @escaping (Value) -> Void) -> Int {
        let key = nextKey
        nextKey += 1
        handlers.append((key, handler))
        return key
    }

    /// Calls every handler with `value`.
    func send(_ value: Value) {
        for entry in handlers { entry.handler(value) }
    }

    /// Removes the handler added under `key`.
    func remove(_ key: Int) {
        if let index = handlers.firstIndex(where: { $0.key == key }) { handlers.remove(at: index) }
    }
}

/// A stored value whose changes are sent to closures, the current value first: the baseline's
/// `Variable`.
final class ClosureVariable<Value> {
    private let subject = ClosureSubject<Value>()

    /// The current value; setting it calls every handler.
    var value: Value {
        didSet { subject.send(value) }
    }

    init(_ value: Value) { self.value = value }

    /// Calls `handler` with the current value now and with every later value.
    @discardableResult
    func subscribe(_ handler: @escaping (Value) -> Void) -> Int {
        handler(value)
        return subject.subscribe(handler)
    }

    func remove(_ key: Int) { subject.remove(key) }
}

/// `stages` alternating map/filter closures (`increment`, `isNonNegative`) in front of `sink`,
/// each stage a closure calling the next, as an operator chain does.
func closureChain(stages: Int, sink: @escaping (Int) -> Void) -> (Int) -> Void {
    var next = sink
    for stage in (0..<stages).reversed() {
        let downstream = next
        if stage.isMultiple(of: 2) {
            next = { downstream(increment($0)) }
        } else {
            next = { if isNonNegative($0) { downstream($0) } }
        }
    }
    return next
}
