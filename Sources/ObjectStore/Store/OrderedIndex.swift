import Foundation
import Locking

/// The live slots of a table ordered by one field's value, then by slot: exactly the order a
/// stable sort by that field (`sortCompare`) gives rows listed in slot order.
///
/// Built only for fields whose values all have one plain kind (`int`, `double`, `bool`,
/// `string`, `date`) or are null, with no NaN, so that `sortCompare` is a total order on
/// them; any other value leaves the field without an ordered index (queries then scan and
/// sort as without one).
struct OrderedIndex: Sendable {
    /// Slots by (value, slot).
    let slots: [Int]
    /// `keys[i]` is the value of `slots[i]`.
    let keys: [StoreValue]

    var count: Int { slots.count }

    /// Whether a value may be held by a field of `kind` with an ordered index.
    static func admits(_ value: StoreValue, kind: FieldKind) -> Bool {
        switch (kind, value) {
        case (_, .null): return true
        case (.int, .int), (.bool, .bool), (.string, .string): return true
        case (.double, .double(let d)): return !d.isNaN
        case (.date, .date(let d)): return !d.timeIntervalSinceReferenceDate.isNaN
        default: return false
        }
    }

    /// Whether a field of `kind` can have an ordered index at all.
    static func supports(_ kind: FieldKind) -> Bool {
        switch kind {
        case .int, .double, .bool, .string, .date: return true
        default: return false
        }
    }

    /// Orders entries listed in ascending slot order; `nil` when a value is not admitted.
    static func build(slots: [Int], keys: [StoreValue], kind: FieldKind) -> OrderedIndex? {
        precondition(slots.count == keys.count)
        if case .int = kind {
            // The common case, an integer field without nulls: sorted as it is.
            var plain = true
            for key in keys {
                guard case .int = key else { plain = false; break }
            }
            if plain {
                let order = radixOrder(keys)
                return OrderedIndex(slots: order.map { slots[$0] }, keys: order.map { keys[$0] })
            }
        }
        var nullSlots: [Int] = []
        var otherSlots: [Int] = []
        var otherKeys: [StoreValue] = []
        otherSlots.reserveCapacity(slots.count)
        otherKeys.reserveCapacity(slots.count)
        for i in slots.indices {
            let key = keys[i]
            guard admits(key, kind: kind) else { return nil }
            if key.isNull {
                nullSlots.append(slots[i])
            } else {
                otherSlots.append(slots[i])
                otherKeys.append(key)
            }
        }
        var outSlots = nullSlots
        outSlots.reserveCapacity(slots.count)
        var outKeys = [StoreValue](repeating: .null, count: nullSlots.count)
        outKeys.reserveCapacity(slots.count)
        if case .int = kind {
            let order = radixOrder(otherKeys)
            for i in order {
                outSlots.append(otherSlots[i])
                outKeys.append(otherKeys[i])
            }
        } else {
            // Slots are ascending, so ties broken by position are ties broken by slot.
            let order = otherKeys.withUnsafeBufferPointer { k in
                Array(k.indices).sorted { a, b in
                    let c = sortCompare(k[a], k[b])
                    return c != 0 ? c < 0 : a < b
                }
            }
            for i in order {
                outSlots.append(otherSlots[i])
                outKeys.append(otherKeys[i])
            }
        }
        return OrderedIndex(slots: outSlots, keys: outKeys)
    }

    /// The stable ascending order of integer keys (a least-significant-digit radix sort, 11 bits
    /// a pass, skipping digits every key shares).
    private static func radixOrder(_ keys: [StoreValue]) -> [Int] {
        let n = keys.count
        var biased = [UInt64](repeating: 0, count: n)
        var all: UInt64 = 0, any: UInt64 = 0
        for i in 0..<n {
            guard case .int(let v) = keys[i] else { preconditionFailure("an ordered int index holds a non-int") }
            let b = UInt64(bitPattern: v) ^ (1 << 63)
            biased[i] = b
            if i == 0 { all = b }
            any |= b ^ all
        }
        var order = Array(0..<n)
        guard n > 1 else { return order }
        let bits: UInt64 = 11, mask: UInt64 = (1 << bits) - 1
        var scratch = [Int](repeating: 0, count: n)
        var counts = [Int](repeating: 0, count: 1 << bits)
        var shift: UInt64 = 0
        while shift < 64 {
            defer { shift += bits }
            // A digit no two keys differ in leaves the order as it is.
            guard (any >> shift) & mask != 0 else { continue }
            biased.withUnsafeBufferPointer { b in
                counts.withUnsafeMutableBufferPointer { c in
                    for i in 0..<c.count { c[i] = 0 }
                    for i in 0..<n { c[Int((b[i] >> shift) & mask)] += 1 }
                    var total = 0
                    for i in 0..<c.count { let k = c[i]; c[i] = total; total += k }
                    order.withUnsafeBufferPointer { o in
                        scratch.withUnsafeMutableBufferPointer { s in
                            for i in 0..<n {
                                let item = o[i]
                                let d = Int((b[item] >> shift) & mask)
                                s[c[d]] = item
                                c[d] += 1
                            }
                        }
                    }
                }
            }
            swap(&order, &scratch)
        }
        return order
    }

    /// Merges two indexes of disjoint slots, leaving out the entries of `self` whose slot
    /// `drop` names.
    func merged(with other: OrderedIndex, dropping drop: (Int) -> Bool) -> OrderedIndex {
        var slots: [Int] = [], keys: [StoreValue] = []
        slots.reserveCapacity(count + other.count)
        keys.reserveCapacity(count + other.count)
        var i = 0, j = 0
        while i < count || j < other.count {
            if i < count, drop(self.slots[i]) { i += 1; continue }
            let takeSelf: Bool
            if i == count {
                takeSelf = false
            } else if j == other.count {
                takeSelf = true
            } else {
                let c = sortCompare(self.keys[i], other.keys[j])
                takeSelf = c != 0 ? c < 0 : self.slots[i] < other.slots[j]
            }
            if takeSelf {
                slots.append(self.slots[i]); keys.append(self.keys[i]); i += 1
            } else {
                slots.append(other.slots[j]); keys.append(other.keys[j]); j += 1
            }
        }
        return OrderedIndex(slots: slots, keys: keys)
    }

    /// The first position from `start` at which `test` holds, given that it holds from some
    /// position to the end.
    private func firstPosition(from start: Int, where test: (StoreValue) -> Bool) -> Int {
        var lo = start, hi = count
        while lo < hi {
            let mid = (lo + hi) / 2
            if test(keys[mid]) { hi = mid } else { lo = mid + 1 }
        }
        return lo
    }

    /// The positions whose value can satisfy `value op constant` (`<`, `<=`, `>`, `>=`), or
    /// `low <= value <= high` when `high` is given (`op` is then ignored): a superset of the
    /// matches, which the caller's matcher confirms. Null values are never in it.
    func range(_ op: ComparisonOperator, _ constant: StoreValue, high: StoreValue? = nil) -> Range<Int> {
        let firstValue = firstPosition(from: 0) { !$0.isNull }
        let cmp: (StoreValue, StoreValue) -> Int = { compareValues($0, $1) ?? 1 }
        if let high {
            let lo = firstPosition(from: firstValue) { cmp($0, constant) >= 0 }
            let hi = firstPosition(from: lo) { cmp($0, high) > 0 }
            return lo..<hi
        }
        switch op {
        case .less: return firstValue..<firstPosition(from: firstValue) { cmp($0, constant) >= 0 }
        case .lessOrEqual: return firstValue..<firstPosition(from: firstValue) { cmp($0, constant) > 0 }
        case .greater: return firstPosition(from: firstValue) { cmp($0, constant) > 0 }..<count
        case .greaterOrEqual: return firstPosition(from: firstValue) { cmp($0, constant) >= 0 }..<count
        default: return firstValue..<count
        }
    }

    /// Whether a range bound of this kind compares with the values of a field of `kind` in
    /// the index's order (numbers with numbers, strings with strings …).
    static func bound(_ value: StoreValue, fits kind: FieldKind) -> Bool {
        switch (kind, value) {
        case (.int, .int), (.int, .double), (.int, .decimal),
             (.double, .int), (.double, .double), (.double, .decimal),
             (.string, .string), (.date, .date), (.bool, .bool): return true
        default: return false
        }
    }

    /// The slots at `positions` (ascending positions), in index order, or with the groups
    /// of equal values in descending order (each group still by slot) when not `ascending`.
    func slots(in positions: Range<Int>, ascending: Bool, where keep: ((Int) -> Bool)? = nil) -> [Int] {
        var out: [Int] = []
        out.reserveCapacity(positions.count)
        if ascending {
            if let keep {
                for p in positions where keep(slots[p]) { out.append(slots[p]) }
            } else {
                out.append(contentsOf: slots[positions])
            }
            return out
        }
        var end = positions.upperBound
        while end > positions.lowerBound {
            var start = end - 1
            let key = keys[start]
            while start > positions.lowerBound, Self.same(keys[start - 1], key) { start -= 1 }
            for p in start..<end where keep?(slots[p]) ?? true { out.append(slots[p]) }
            end = start
        }
        return out
    }

    @inline(__always)
    private static func same(_ a: StoreValue, _ b: StoreValue) -> Bool {
        if case .int(let x) = a, case .int(let y) = b { return x == y }
        return sortCompare(a, b) == 0
    }
}

/// Indexes derived from one version of a table's rows, built when first used and kept with
/// that version: shared by every copy of the table until it is next changed (a change drops
/// the box; the commit that publishes the change gives the table a fresh one).
final class DerivedIndexes: @unchecked Sendable {
    private let lock = Lock()
    /// Field → its ordered index (`.some(nil)`: the field's values admit none).
    private var ordered: [Int: OrderedIndex?] = [:]
    /// Link-list field → target primary key → source slots held here (added and replaced
    /// rows; the base's come from the `PagedTable`).
    private var linkSources: [Int: [StoreValue: [Int]]] = [:]

    func ordered(_ field: Int, build: () -> OrderedIndex?) -> OrderedIndex? {
        lock.withLock {
            if let known = ordered[field] { return known }
            let index = build()
            ordered[field] = .some(index)
            return index
        }
    }

    func linkSources(_ field: Int, build: () -> [StoreValue: [Int]]) -> [StoreValue: [Int]] {
        lock.withLock {
            if let known = linkSources[field] { return known }
            let index = build()
            linkSources[field] = index
            return index
        }
    }
}

/// Target primary key → the slots (ascending) whose to-many link `field` lists it.
func linkTargetIndex(field: Int, _ each: ((Int, Row) -> Void) -> Void) -> [StoreValue: [Int]] {
    var index: [StoreValue: [Int]] = [:]
    each { slot, row in
        guard case .list(let keys) = row[field] else { return }
        for key in keys {
            index[key, default: []].appendUnlessLast(slot)
        }
    }
    return index
}

/// The union of ascending lists of slots, ascending, each slot once.
func mergeAscending(_ lists: [[Int]]) -> [Int] {
    var lists = lists.filter { !$0.isEmpty }
    while lists.count > 1 {
        var next: [[Int]] = []
        for pair in stride(from: 0, to: lists.count, by: 2) {
            if pair + 1 == lists.count { next.append(lists[pair]); continue }
            let a = lists[pair], b = lists[pair + 1]
            var out: [Int] = []
            out.reserveCapacity(a.count + b.count)
            var i = 0, j = 0
            while i < a.count || j < b.count {
                let x = i < a.count ? a[i] : .max, y = j < b.count ? b[j] : .max
                let v = min(x, y)
                if x == v { i += 1 }
                if y == v { j += 1 }
                out.appendUnlessLast(v)
            }
            next.append(out)
        }
        lists = next
    }
    return lists.first ?? []
}

extension Array where Element == Int {
    @inline(__always)
    mutating func appendUnlessLast(_ value: Int) {
        if last != value { append(value) }
    }
}
