import Foundation
import Streams

/// How results are evaluated: against the current (or pinned) snapshot, cached per snapshot.
extension Results {
    func decode(_ slot: Int, _ snapshot: Snapshot, context: DecodeContext? = nil) -> Element {
        guard let row = snapshot.tables[schema.name]!.row(slot) else {
            preconditionFailure("stored \(schema.name) cannot be read: \(snapshot.tables[schema.name]!.damage.map { "\($0)" } ?? "missing row")")
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
        if case .filter(let first)? = stages.first, let candidates = indexCandidates(first.node, table) {
            stages = stages.dropFirst()
            slots = candidates.filter { slot in table.row(slot).map { first.matcher($0, snapshot) } ?? false }
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

    /// Candidate slots from the primary-key or a secondary index, for `key == v` / `key IN {…}`
    /// conjuncts; `nil` when no index applies.
    static func indexCandidates(_ node: PredicateNode, _ table: TableState) -> [Int]? {
        switch node {
        case .and(let operands):
            for operand in operands {
                if let slots = indexCandidates(operand, table) { return slots }
            }
            return nil
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
}
