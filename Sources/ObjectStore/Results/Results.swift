import Streams
import Foundation

/// A lazy, live collection of the objects of one model matching a query.
///
/// `Results` always reads the latest committed state: each access evaluates the query against
/// the current snapshot (the result is cached per snapshot, so repeated reads are cheap).
/// A `for` loop, `map`, `toArray()` and `Array(results)` read one stable snapshot. Index-based
/// steps (`count` then `results[i]`) may see different versions when another thread writes in
/// between: use ``freeze()`` for several consistent reads. Results from an observation callback, or made by
/// a ``Transaction``, are pinned to one version.
///
///     let cheap = store.objects(Pizza.self)
///         .filter("price < %@", 1000)
///         .sorted(byKeyPath: "name")
///     cheap.count; cheap.first; cheap[0]
public struct Results<Element: StoreObject>: RandomAccessCollection, CustomStringConvertible, @unchecked Sendable {
    let core: StoreCore
    let schema: ObjectSchema
    let pipeline: [ResultsStage]
    let pinned: Snapshot?
    let cache = ResultsCache()

    init(core: StoreCore, schema: ObjectSchema, pipeline: [ResultsStage], pinned: Snapshot?) {
        self.core = core
        self.schema = schema
        self.pipeline = pipeline
        self.pinned = pinned
    }

    // MARK: Collection

    /// The position of the first object (always 0).
    public var startIndex: Int { 0 }
    /// One past the last position: the current count.
    public var endIndex: Int { count }
    /// The number of matching objects now.
    public var count: Int { evaluate().slots.count }
    /// Whether no object matches now.
    public var isEmpty: Bool { count == 0 }

    /// The object at `position` in the current state.
    ///
    /// - Parameter position: A position below ``count``.
    public subscript(position: Int) -> Element {
        let state = evaluate()
        return decode(state.slots[position], state.snapshot)
    }

    /// The last matching object, if any.
    public var last: Element? {
        let state = evaluate()
        return state.slots.last.map { decode($0, state.snapshot) }
    }

    /// Iterates one snapshot: writes committed while iterating are not seen.
    public func makeIterator() -> Iterator {
        let state = evaluate()
        return Iterator(results: self, state: state)
    }

    /// Iterates the objects of one snapshot.
    public struct Iterator: IteratorProtocol {
        let results: Results
        let state: EvaluatedResults
        var position = 0

        init(results: Results, state: EvaluatedResults) {
            self.results = results
            self.state = state
        }

        /// The next object, or `nil` at the end.
        public mutating func next() -> Element? {
            guard position < state.slots.count else { return nil }
            defer { position += 1 }
            return results.decode(state.slots[position], state.snapshot, context: context)
        }

        /// Reused by every object of this iteration (linked objects are decoded once).
        private let context = DecodeContext()
    }

    /// The objects as a plain array (one snapshot).
    public func toArray() -> [Element] {
        let state = evaluate()
        var out: [Element] = []
        out.reserveCapacity(state.slots.count)
        let context = DecodeContext()
        for slot in state.slots { out.append(decode(slot, state.snapshot, context: context)) }
        return out
    }

    /// The first matching object, if any (read from one snapshot).
    public var first: Element? {
        let state = evaluate()
        return state.slots.first.map { decode($0, state.snapshot) }
    }

    /// Transforms the objects of one snapshot (safe while other threads write).
    ///
    /// - Parameter transform: Applied to each object in order.
    /// - Returns: The transformed values.
    /// - Throws: What `transform` throws.
    public func map<T>(_ transform: (Element) throws -> T) rethrows -> [T] {
        let state = evaluate()
        var out: [T] = []
        out.reserveCapacity(state.slots.count)
        let context = DecodeContext()
        for slot in state.slots { out.append(try transform(decode(slot, state.snapshot, context: context))) }
        return out
    }

    /// Copies one snapshot (so `Array(results)` is consistent while other threads write).
    public func _copyToContiguousArray() -> ContiguousArray<Element> { ContiguousArray(toArray()) }

    /// These results fixed at the current version: later commits no longer change them.
    ///
    /// - Returns: Frozen results (``isFrozen`` is `true`).
    public func freeze() -> Results<Element> { pinned(to: pinned ?? core.snapshot()) }

    /// Whether the results are fixed at one version (frozen, from a transaction, or from an
    /// observation event).
    public var isFrozen: Bool { pinned != nil }

    /// The objects as a plain array (one snapshot); same as ``toArray()``.
    public var array: [Element] { toArray() }

    /// The text of the query these results run (`TRUEPREDICATE` for all objects).
    public var description: String {
        "Results<\(schema.name)>(\(queryDescription))"
    }

    /// The query as text (post-query clauses included), parsable by ``StorePredicate``.
    public var queryDescription: String {
        var filters: [String] = []
        var clauses: [String] = []
        for stage in pipeline {
            switch stage {
            case .filter(let f): filters.append(f.node.description)
            case .clause(let c): clauses.append(c.description)
            }
        }
        let head = filters.isEmpty ? "TRUEPREDICATE" : filters.joined(separator: " AND ")
        return ([head] + clauses).joined(separator: " ")
    }

    // MARK: Narrowing

    /// The objects that also match a query in the Realm query language.
    ///
    ///     pizzas.filter("price < %@ AND ANY categories.id IN %@", 1000, [1, 2])
    ///
    /// A mistake in the query stops the program with the ``QueryError`` message, as Realm does;
    /// use ``filter(checked:_:)`` to get the error thrown instead.
    ///
    /// - Parameters:
    ///   - format: The query; `%@` and `$0`, `$1` … take `args`, `%K` a key name.
    ///   - args: The values (never parsed as query text).
    /// - Returns: The narrowed results.
    public func filter(_ format: String, _ args: Any...) -> Results<Element> {
        do {
            return try filter(checked: StorePredicate(format: format, arguments: args))
        } catch {
            preconditionFailure("Invalid query for \(schema.name): \(error)")
        }
    }

    /// The objects that also match `predicate` (stops the program on an unknown key).
    ///
    /// - Parameter predicate: A parsed or built predicate.
    /// - Returns: The narrowed results.
    public func filter(_ predicate: StorePredicate) -> Results<Element> {
        do { return try filter(checked: predicate) } catch { preconditionFailure("Invalid query for \(schema.name): \(error)") }
    }

    /// The objects that also match a query, throwing on mistakes.
    ///
    /// - Parameters:
    ///   - format: The query text.
    ///   - args: Its arguments.
    /// - Returns: The narrowed results.
    /// - Throws: ``QueryError`` (syntax, unknown key naming the type and its keys, kinds).
    public func filter(checked format: String, _ args: Any...) throws -> Results<Element> {
        try filter(checked: StorePredicate(format: format, arguments: args))
    }

    /// The objects that also match `predicate`, throwing on keys the model does not have.
    ///
    /// - Parameter predicate: The predicate.
    /// - Returns: The narrowed results.
    /// - Throws: ``QueryError``.
    public func filter(checked predicate: StorePredicate) throws -> Results<Element> {
        var stages = pipeline
        let matcher = try QueryCompiler(schema: schema).compile(predicate.node)
        stages.append(.filter(CompiledFilter(node: predicate.node, matcher: matcher)))
        for clause in predicate.clauses {
            try validate(clause)
            stages.append(.clause(clause))
        }
        return Results(core: core, schema: schema, pipeline: stages, pinned: pinned)
    }

    /// Sorted by one key path (through to-one links).
    ///
    /// - Parameters:
    ///   - keyPath: The key path, e.g. `"price"`.
    ///   - ascending: The direction (default ascending; `nil` sorts first).
    /// - Returns: The sorted results.
    public func sorted(byKeyPath keyPath: String, ascending: Bool = true) -> Results<Element> {
        sorted(by: [SortDescriptor(keyPath: keyPath, ascending: ascending)])
    }

    /// Sorted by several keys, the first one first.
    ///
    /// - Parameter descriptors: The sort keys.
    /// - Returns: The sorted results.
    public func sorted<S: Sequence>(by descriptors: S) -> Results<Element> where S.Element == SortDescriptor {
        appending(.sort(Array(descriptors)))
    }

    /// Sorted by a typed key path.
    ///
    /// - Parameters:
    ///   - keyPath: The property, e.g. `\Pizza.price`.
    ///   - ascending: The direction.
    /// - Returns: The sorted results.
    public func sorted<V>(by keyPath: KeyPath<Element, V>, ascending: Bool = true) -> Results<Element> {
        guard let name = keyPathName(keyPath) else { preconditionFailure("cannot name key path \(keyPath)") }
        return sorted(byKeyPath: name, ascending: ascending)
    }

    /// Keeps the first object of each distinct combination of the key paths' values.
    ///
    /// - Parameter keyPaths: The key paths, e.g. `["name"]`.
    /// - Returns: The results without duplicates.
    public func distinct<S: Sequence>(by keyPaths: S) -> Results<Element> where S.Element == String {
        appending(.distinct(Array(keyPaths)))
    }

    /// At most the first `maxLength` objects (a live `LIMIT`).
    ///
    /// - Parameter maxLength: The limit.
    /// - Returns: The limited results.
    public func prefix(_ maxLength: Int) -> Results<Element> {
        appending(.limit(Swift.max(0, maxLength)))
    }

    /// At most the first `count` objects; same as ``prefix(_:)``.
    ///
    /// - Parameter count: The limit.
    /// - Returns: The limited results.
    public func limit(_ count: Int) -> Results<Element> { prefix(count) }

    private func appending(_ clause: PostClause) -> Results<Element> {
        do { try validate(clause) } catch { preconditionFailure("Invalid query for \(schema.name): \(error)") }
        return Results(core: core, schema: schema, pipeline: pipeline + [.clause(clause)], pinned: pinned)
    }

    private func validate(_ clause: PostClause) throws {
        let compiler = QueryCompiler(schema: schema)
        switch clause {
        case .sort(let keys, let columns):
            for (i, key) in keys.enumerated() {
                _ = try compiler.resolve(key.keyPath.split(separator: ".").map(String.init), column: i < columns.count ? columns[i] : 0)
            }
        case .distinct(let keys, let columns):
            for (i, key) in keys.enumerated() {
                _ = try compiler.resolve(key.split(separator: ".").map(String.init), column: i < columns.count ? columns[i] : 0)
            }
        case .limit: break
        }
    }

    // MARK: Aggregates

    /// The sum of a numeric property over the results (0 when empty).
    ///
    /// - Parameter property: The property name.
    /// - Returns: The sum.
    public func sum<T: AddableType>(ofProperty property: String) -> T {
        T(storeValue: aggregateValue(.sum, property)) ?? T(storeValue: .int(0))!
    }

    /// The average of a numeric property, or `nil` when the results are empty.
    ///
    /// - Parameter property: The property name.
    /// - Returns: The average.
    public func average<T: AddableType>(ofProperty property: String) -> T? {
        T(storeValue: aggregateValue(.avg, property))
    }

    /// The smallest value of a property, or `nil` when the results are empty.
    ///
    /// - Parameter property: The property name.
    /// - Returns: The minimum.
    public func min<T: MinMaxType>(ofProperty property: String) -> T? {
        T(storeValue: aggregateValue(.min, property))
    }

    /// The largest value of a property, or `nil` when the results are empty.
    ///
    /// - Parameter property: The property name.
    /// - Returns: The maximum.
    public func max<T: MinMaxType>(ofProperty property: String) -> T? {
        T(storeValue: aggregateValue(.max, property))
    }

    private func aggregateValue(_ op: AggregateOperator, _ property: String) -> StoreValue {
        let path: ResolvedPath
        do { path = try QueryCompiler(schema: schema).resolve(property.split(separator: ".").map(String.init), column: 0) } catch {
            preconditionFailure("\(error)")
        }
        let state = evaluate()
        guard let table = state.snapshot.table(schema) else { return aggregate(op, []) }
        var values: [StoreValue] = []
        values.reserveCapacity(state.slots.count)
        for slot in state.slots { path.gather(table.rows[slot]!, state.snapshot, into: &values) }
        return aggregate(op, values)
    }

    // MARK: Evaluation

    func decode(_ slot: Int, _ snapshot: Snapshot, context: DecodeContext? = nil) -> Element {
        let row = snapshot.tables[schema.name]!.rows[slot]!
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
        return slots.map { table.rows[$0]![pk] }
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
            slots = candidates.filter { slot in table.rows[slot].map { first.matcher($0, snapshot) } ?? false }
        } else if case .filter(let first)? = stages.first {
            stages = stages.dropFirst()
            slots = []
            let matcher = first.matcher
            table.rows.withUnsafeBufferPointer { rows in
                for slot in rows.indices { if let row = rows[slot], matcher(row, snapshot) { slots.append(slot) } }
            }
        } else {
            slots = []
            slots.reserveCapacity(table.liveCount)
            for slot in table.rows.indices where table.rows[slot] != nil { slots.append(slot) }
        }
        for stage in stages {
            switch stage {
            case .filter(let f):
                slots = slots.filter { f.matcher(table.rows[$0]!, snapshot) }
            case .clause(.limit(let n)):
                if slots.count > n { slots.removeSubrange(n...) }
            case .clause(.sort(let keys, _)):
                let compiler = QueryCompiler(schema: schema)
                let paths = keys.map { try! compiler.resolve($0.keyPath.split(separator: ".").map(String.init), column: 0) }
                if keys.count == 1 {
                    let column = slots.map { paths[0].single(table.rows[$0]!, snapshot) }
                    if let order = sortedOrder(ofIntegers: column, ascending: keys[0].ascending) {
                        slots = order.map { slots[$0] }
                        continue
                    }
                }
                let values = slots.map { slot in paths.map { $0.single(table.rows[slot]!, snapshot) } }
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
                slots = slots.filter { slot in
                    seen.insert(paths.map { normalise($0.single(table.rows[slot]!, snapshot), for: nil) }).inserted
                }
            }
        }
        return slots
    }

    /// Candidate slots from the primary-key or a secondary index, for `key == v` / `key IN {…}`
    /// conjuncts; `nil` when no index applies.
    static func indexCandidates(_ node: PredicateNode, _ table: TableState) -> [Int]? {
        switch node {
        case .and(let l, let r):
            return indexCandidates(l, table) ?? indexCandidates(r, table)
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
                for value in values { if let s = table.pkIndex[value] { slots.append(s) } }
            } else if let index = table.indexes[field] {
                for value in values { slots.append(contentsOf: index[value] ?? []) }
            } else {
                return nil
            }
            return Array(Set(slots)).sorted()
        default:
            return nil
        }
    }
}

/// Values `sum` and `average` can produce: `Int`, `Double`, `Float`, `Decimal`.
public protocol AddableType {
    /// Reads the value from a stored value.
    init?(storeValue: StoreValue)
}

/// Values `min` and `max` can produce: the numbers, `Date` and `String`.
public protocol MinMaxType {
    /// Reads the value from a stored value.
    init?(storeValue: StoreValue)
}

extension Int: AddableType, MinMaxType {
    /// Reads the value from a stored value.
    public init?(storeValue: StoreValue) {
        guard let v = scalarFromStore(storeValue, as: Int.self) else { return nil }
        self = v
    }
}
extension Double: AddableType, MinMaxType {
    /// Reads the value from a stored value.
    public init?(storeValue: StoreValue) {
        guard let v = scalarFromStore(storeValue, as: Double.self) else { return nil }
        self = v
    }
}
extension Float: AddableType, MinMaxType {
    /// Reads the value from a stored value.
    public init?(storeValue: StoreValue) {
        guard let v = scalarFromStore(storeValue, as: Float.self) else { return nil }
        self = v
    }
}
extension Decimal: AddableType, MinMaxType {
    /// Reads the value from a stored value.
    public init?(storeValue: StoreValue) {
        guard let v = scalarFromStore(storeValue, as: Decimal.self) else { return nil }
        self = v
    }
}
extension Date: MinMaxType {
    /// Reads the value from a stored value.
    public init?(storeValue: StoreValue) {
        guard case .date(let d) = storeValue else { return nil }
        self = d
    }
}
extension String: MinMaxType {
    /// Reads the value from a stored value.
    public init?(storeValue: StoreValue) {
        guard case .string(let s) = storeValue else { return nil }
        self = s
    }
}
