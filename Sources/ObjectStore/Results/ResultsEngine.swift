import Foundation
import Streams
import Locking

/// How results are evaluated: against the current (or pinned) snapshot, cached per snapshot.
extension Results {
    func decode(_ slot: Int, _ snapshot: Snapshot, context: DecodeContext? = nil) -> Element {
        decode(slot, in: snapshot.tables[schema.name]!, snapshot, context: context)
    }

    /// Decodes the object in `slot` of `table` (the snapshot's table of this model: looked up
    /// once by a read of many objects, since copying it out of the snapshot costs a retain of
    /// each of its parts).
    func decode(_ slot: Int, in table: TableState, _ snapshot: Snapshot, context: DecodeContext? = nil) -> Element {
        guard let row = table.row(slot) else {
            preconditionFailure("stored \(schema.name) cannot be read: \(table.damage.map { "\($0)" } ?? "missing row")")
        }
        do { return try RowDecoder.decode(Element.self, row: row, schema: schema, snapshot: snapshot, context: context) } catch {
            preconditionFailure("stored \(schema.name) cannot be decoded: \(error)")
        }
    }

    /// The primary keys of the results in the current state.
    func primaryKeys() -> [StoreValue] {
        let state = evaluate()
        return state.primaryKeys(schema)
    }

    /// The results evaluated against the current (or pinned) snapshot.
    func evaluate() -> EvaluatedResults {
        let snapshot = pinned ?? core.snapshot()
        return evaluate(in: snapshot)
    }

    func evaluate(in snapshot: Snapshot) -> EvaluatedResults {
        if let hit = cache.lookup(snapshot) { return hit }
        let slots = ResultsEngine.run(pipeline, schema: schema, snapshot: snapshot)
        let result = EvaluatedResults(snapshot: snapshot, slots: slots)
        cache.store(result)
        return result
    }

    /// These results pinned to one snapshot.
    func pinned(to snapshot: Snapshot) -> Results<Element> {
        Results(core: core, schema: schema, pipeline: pipeline, pinned: snapshot)
    }
}

/// Decodes the object in `slot` of `table` (of the model `schema` describes) with the decoder
/// of the previous object of the same read, when it is free (see
/// `RowDecoder.decode(_:row:schema:snapshot:context:reusing:)`). A function of its own, not a
/// method of `Results<Element>`: a read's loop then asks the runtime for no generic type per
/// object (calling the method from the loop looked up the type of `Results<Element>` each time,
/// about 330 instructions, 5% of a sorted read of 100,000 objects).
func decodeStored<T: StoreObject>(_ type: T.Type, _ slot: Int, in table: TableState, schema: ObjectSchema, _ snapshot: Snapshot,
                                  context: DecodeContext, reusing reuse: inout RowDecoder?) -> T {
    guard let row = table.row(slot) else {
        preconditionFailure("stored \(schema.name) cannot be read: \(table.damage.map { "\($0)" } ?? "missing row")")
    }
    do { return try RowDecoder.decode(T.self, row: row, schema: schema, snapshot: snapshot, context: context, reusing: &reuse) } catch {
        preconditionFailure("stored \(schema.name) cannot be decoded: \(error)")
    }
}

/// A result set computed against one snapshot.
struct EvaluatedResults: @unchecked Sendable {
    let snapshot: Snapshot
    let slots: [Int]

    func primaryKeys(_ schema: ObjectSchema) -> [StoreValue] {
        guard let table = snapshot.table(schema) else { return [] }
        let pk = schema.primaryKeyIndex
        return table.rows(at: slots).map { $0[pk] }
    }
}

/// The last evaluation of a ``Results``, reused while the snapshot is the same.
final class ResultsCache: @unchecked Sendable {
    private let lock = Lock()
    private var last: EvaluatedResults?

    func lookup(_ snapshot: Snapshot) -> EvaluatedResults? {
        lock.withLock { last.flatMap { $0.snapshot === snapshot ? $0 : nil } }
    }

    func store(_ result: EvaluatedResults) { lock.withLock { last = result } }
}

/// A compiled `filter` stage.
struct CompiledFilter {
    let node: PredicateNode
    let matcher: Matcher
}

/// One step of a results pipeline, applied in order.
enum ResultsStage {
    case filter(CompiledFilter)
    case clause(PostClause)
}

/// The stable sorting order of `column` when every value in it is an integer (the common sort
/// by an `Int` field), comparing plain `Int64`s instead of `StoreValue`s; `nil` otherwise.
/// Equal keys keep their order, as with the general comparison.
func sortedOrder(ofIntegers column: [StoreValue], ascending: Bool) -> [Int]? {
    var keys: [Int64] = []
    keys.reserveCapacity(column.count)
    for value in column {
        guard case .int(let key) = value else { return nil }
        keys.append(key)
    }
    return keys.withUnsafeBufferPointer { keys in
        Array(keys.indices).sorted { a, b in
            let x = keys[a], y = keys[b]
            if x != y { return ascending ? x < y : x > y }
            return a < b
        }
    }
}

/// Runs a pipeline over a table.
enum ResultsEngine {
    static func run(_ pipeline: [ResultsStage], schema: ObjectSchema, snapshot: Snapshot) -> [Int] {
        guard let table = snapshot.table(schema) else { return [] }
        var slots: [Int]
        var stages = pipeline[...]
        if case .filter(let first)? = stages.first, let exact = exactLinkCandidates(first.node, table, snapshot) {
            stages = stages.dropFirst()
            slots = exact
        } else if case .filter(let first)? = stages.first, let hit = indexHit(first.node, table) {
            stages = stages.dropFirst()
            let candidates: [Int]
            switch hit {
            case .slots(let found):
                candidates = found
            case .ordered(let index, let field, let positions):
                // A sort by the same field next: the index's order is the sort's.
                if case .clause(.sort(let keys, _))? = stages.first, keys.count == 1,
                   sortField(keys[0].keyPath, schema) == field {
                    stages = stages.dropFirst()
                    candidates = index.slots(in: positions, ascending: keys[0].ascending)
                } else {
                    candidates = inSlotOrder(index, positions, slotCount: table.slotCount)
                }
            }
            let matcher = first.matcher
            slots = candidates.filter { slot in table.row(slot).map { matcher($0, snapshot) } ?? false }
        } else if case .filter(let first)? = stages.first {
            stages = stages.dropFirst()
            slots = []
            let matcher = first.matcher
            table.forEachRow { slot, row in if matcher(row, snapshot) { slots.append(slot) } }
        } else {
            slots = table.liveSlots()
        }
        for stage in stages {
            switch stage {
            case .filter(let f):
                let rows = table.rows(at: &slots)
                slots = slots.indices.filter { f.matcher(rows[$0], snapshot) }.map { slots[$0] }
            case .clause(.limit(let n)):
                if slots.count > n { slots.removeSubrange(n...) }
            case .clause(.sort(let keys, _)):
                if keys.count == 1, let sorted = indexedSort(slots, by: keys[0], table) {
                    slots = sorted
                    continue
                }
                let compiler = QueryCompiler(schema: schema)
                let paths = keys.map { try! compiler.resolve($0.keyPath.split(separator: ".").map(String.init), column: 0) }
                let rows = table.rows(at: &slots)
                if keys.count == 1 {
                    let column = rows.map { paths[0].single($0, snapshot) }
                    if let order = sortedOrder(ofIntegers: column, ascending: keys[0].ascending) {
                        slots = order.map { slots[$0] }
                        continue
                    }
                }
                let values = rows.map { row in paths.map { $0.single(row, snapshot) } }
                let order = values.indices.sorted { a, b in
                    for (k, key) in keys.enumerated() {
                        let c = sortCompare(values[a][k], values[b][k])
                        if c != 0 { return key.ascending ? c < 0 : c > 0 }
                    }
                    return a < b
                }
                slots = order.map { slots[$0] }
            case .clause(.distinct(let keys, _)):
                let compiler = QueryCompiler(schema: schema)
                let paths = keys.map { try! compiler.resolve($0.split(separator: ".").map(String.init), column: 0) }
                var seen = Set<[StoreValue]>()
                let rows = table.rows(at: &slots)
                slots = slots.indices.filter { i in
                    seen.insert(paths.map { normalise($0.single(rows[i], snapshot), for: nil) }).inserted
                }.map { slots[$0] }
            }
        }
        return slots
    }

    /// The field a sort key names when it is one plain field of the model.
    static func sortField(_ keyPath: String, _ schema: ObjectSchema) -> Int? {
        guard !keyPath.contains("."), let field = schema.fieldIndex[keyPath] else { return nil }
        return field
    }

    /// `slots` (live, ascending) sorted by one key through the field's ordered index: the
    /// order a stable sort gives (equal values keep slot order, either direction); `nil` when
    /// there is no such index, the slots are not ascending, or they are too few to be worth it.
    static func indexedSort(_ slots: [Int], by key: SortDescriptor, _ table: TableState) -> [Int]? {
        guard let field = sortField(key.keyPath, table.schema), let index = table.orderedIndex(field: field) else { return nil }
        // Sorting a few rows beats walking the whole index.
        guard slots.count * 8 >= index.count else { return nil }
        for i in slots.indices.dropFirst() where slots[i - 1] >= slots[i] { return nil }
        if slots.count == index.count { return index.slots(in: 0..<index.count, ascending: key.ascending) }
        var member = [Bool](repeating: false, count: table.slotCount)
        for slot in slots { member[slot] = true }
        return member.withUnsafeBufferPointer { member in
            index.slots(in: 0..<index.count, ascending: key.ascending) { member[$0] }
        }
    }

    /// The slots at `positions` of an index, ascending.
    static func inSlotOrder(_ index: OrderedIndex, _ positions: Range<Int>, slotCount: Int) -> [Int] {
        if positions.count * 16 < slotCount { return index.slots[positions].sorted() }
        var member = [Bool](repeating: false, count: slotCount)
        for p in positions { member[index.slots[p]] = true }
        var out: [Int] = []
        out.reserveCapacity(positions.count)
        for slot in member.indices where member[slot] { out.append(slot) }
        return out
    }

    /// What an index offers a first filter: candidate slots (ascending), or positions in a
    /// field's ordered index. Either is a superset of the matches; the filter's matcher
    /// decides.
    enum IndexHit {
        case slots([Int])
        case ordered(OrderedIndex, field: Int, positions: Range<Int>)
    }

    /// What an index offers for the first filter: for `key == v` / `key IN {…}` the primary
    /// key or a secondary index, for `ANY link.key IN {…}` (`key` the linked model's primary
    /// key) the link-target index, for `<`, `<=`, `>`, `>=` and `BETWEEN` an ordered index;
    /// of a conjunction, the first operand an index serves, equality first. `nil` when no
    /// index applies.
    static func indexHit(_ node: PredicateNode, _ table: TableState) -> IndexHit? {
        if let slots = indexCandidates(node, table) { return .slots(slots) }
        if case .and(let operands) = node {
            for operand in operands {
                if let hit = rangeCandidates(operand, table) { return hit }
            }
            return nil
        }
        return rangeCandidates(node, table)
    }

    /// Candidate slots (ascending) from an equality or link-target index, for the node or
    /// the first operand of a conjunction one serves; `nil` when none does.
    static func indexCandidates(_ node: PredicateNode, _ table: TableState) -> [Int]? {
        if case .and(let operands) = node {
            for operand in operands {
                if let slots = equalityCandidates(operand, table) { return slots }
            }
            return nil
        }
        return equalityCandidates(node, table)
    }

    /// The matches of a filter that is only `ANY link.key IN {…}` (or `link.key == v`), `key`
    /// the linked model's primary key, read from the link-target index with no row tested:
    /// a row matches exactly when it lists one of the values that names a readable object.
    static func exactLinkCandidates(_ node: PredicateNode, _ table: TableState, _ snapshot: Snapshot) -> [Int]? {
        guard case .comparison(.keyPath(let parts, _), _, _, _, _) = node, parts.count == 2,
              let field = table.schema.fieldIndex[parts[0]],
              case .linkList(let ref) = table.schema.fields[field].kind,
              let values = linkTargets(node, table) else { return nil }
        let targets = snapshot.tables[ref.name]
        guard targets?.damage == nil else { return nil }
        let existing = values.filter { targets?.row(forKey: $0) != nil }
        guard var slots = table.linkSourceSlots(field: field, targets: existing) else { return nil }
        if table.base != nil { slots.removeAll { table.row($0) == nil } }
        return slots
    }

    /// The target keys (normalised to the linked model's key kind) of `ANY link.key IN {…}`
    /// or `link.key == v` on a to-many link whose model's primary key is `key`.
    private static func linkTargets(_ node: PredicateNode, _ table: TableState) -> [StoreValue]? {
        guard case .comparison(.keyPath(let parts, _), let op, .value(let v), let options, let q) = node,
              parts.count == 2, options.isEmpty, q == .none || q == .any, op == .equal || op == .in,
              let field = table.schema.fieldIndex[parts[0]],
              case .linkList(let ref) = table.schema.fields[field].kind else { return nil }
        let target = ref.schema
        guard target.fields[target.primaryKeyIndex].name == parts[1] else { return nil }
        let kind = target.fields[target.primaryKeyIndex].kind
        var values: [StoreValue]
        if op == .in { guard case .list(let xs) = v else { return nil }; values = xs } else { values = [v] }
        return values.map { normalise($0, for: kind) }
    }

    static func equalityCandidates(_ node: PredicateNode, _ table: TableState) -> [Int]? {
        switch node {
        case .comparison(.keyPath(let parts, _), _, _, _, _) where parts.count == 2:
            // `ANY link.key IN {…}` through the index of the link's targets.
            guard let values = linkTargets(node, table) else { return nil }
            return table.linkSourceSlots(field: table.schema.fieldIndex[parts[0]]!, targets: values)
        case .comparison(.keyPath(let parts, _), let op, .value(let v), let options, let q)
            where parts.count == 1 && options.isEmpty && (q == .none || q == .any) && (op == .equal || op == .in):
            guard let field = table.schema.fieldIndex[parts[0]] else { return nil }
            let kind = table.schema.fields[field].kind
            if kind.isCollection { return nil }
            var values: [StoreValue]
            if op == .in { guard case .list(let xs) = v else { return nil }; values = xs } else { values = [v] }
            values = values.map { normalise($0, for: kind) }
            var slots: [Int] = []
            if field == table.schema.primaryKeyIndex {
                for value in values { if let s = table.slot(forKey: value) { slots.append(s) } }
            } else if table.indexedFields.contains(field) {
                for value in values { slots.append(contentsOf: table.slots(field: field, value: value) ?? []) }
            } else {
                return nil
            }
            return Array(Set(slots)).sorted()
        default:
            return nil
        }
    }

    static func rangeCandidates(_ node: PredicateNode, _ table: TableState) -> IndexHit? {
        let ranged: Set<ComparisonOperator> = [.less, .lessOrEqual, .greater, .greaterOrEqual]
        switch node {
        case .comparison(.keyPath(let parts, _), let op, .value(let v), let options, let q)
            where parts.count == 1 && options.isEmpty && (q == .none || q == .any) && ranged.contains(op):
            guard let (field, index) = orderedIndex(parts[0], table, bounds: [v]) else { return nil }
            return .ordered(index, field: field, positions: index.range(op, v))
        case .comparison(.value(let v), let op, .keyPath(let parts, _), let options, let q)
            where parts.count == 1 && options.isEmpty && (q == .none || q == .any) && ranged.contains(op):
            // `5 < price` is `price > 5`.
            guard let flipped = op.flipped, let (field, index) = orderedIndex(parts[0], table, bounds: [v]) else { return nil }
            return .ordered(index, field: field, positions: index.range(flipped, v))
        case .between(.keyPath(let parts, _), .value(let low), .value(let high), let q)
            where parts.count == 1 && (q == .none || q == .any):
            guard let (field, index) = orderedIndex(parts[0], table, bounds: [low, high]) else { return nil }
            return .ordered(index, field: field, positions: index.range(.greaterOrEqual, low, high: high))
        default:
            return nil
        }
    }

    /// The ordered index of a field, when it has one and every bound compares with its values.
    private static func orderedIndex(_ name: String, _ table: TableState, bounds: [StoreValue]) -> (Int, OrderedIndex)? {
        guard let field = table.schema.fieldIndex[name] else { return nil }
        let kind = table.schema.fields[field].kind
        guard bounds.allSatisfy({ OrderedIndex.bound($0, fits: kind) }),
              let index = table.orderedIndex(field: field) else { return nil }
        return (field, index)
    }
}
