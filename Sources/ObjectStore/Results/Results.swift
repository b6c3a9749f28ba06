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
    public var count: Int {
        // All objects of a type: the table's count, without listing its slots — once its pages
        // are known to be readable. A listing leaves out the rows of a damaged page, and the
        // positions below `count` must be the listing's (`results[i]`, `prefix`, a table's
        // data source), so a first count checks the pages a listing would (once per open).
        if pipeline.isEmpty {
            let snapshot = pinned ?? core.snapshot()
            guard let table = snapshot.table(schema) else { return 0 }
            if table.baseCount > 0 { table.base?.checkAllPages() }
            if table.damage == nil { return table.liveCount }
        }
        return evaluate().slots.count
    }
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

        /// The snapshot's table of the model (`nil` when it holds none).
        let table: TableState?

        init(results: Results, state: EvaluatedResults) {
            self.results = results
            self.state = state
            table = state.snapshot.tables[results.schema.name]
        }

        /// The next object, or `nil` at the end.
        public mutating func next() -> Element? {
            guard position < state.slots.count, let table else { return nil }
            defer { position += 1 }
            return results.decode(state.slots[position], in: table, state.snapshot, context: context)
        }

        /// Reused by every object of this iteration (linked objects are decoded once).
        private let context = DecodeContext()
    }

    /// The objects as a plain array (one snapshot).
    public func toArray() -> [Element] {
        let state = evaluate()
        guard let table = state.snapshot.tables[schema.name], !state.slots.isEmpty else { return [] }
        let context = DecodeContext()
        let slots = state.slots
        let schema = self.schema, snapshot = state.snapshot
        if table.base == nil, slots.count > 1024, !isAscending(slots) {
            // Sorted results of an in-memory table: decode in slot order, the order the rows
            // were stored in, and put each object at its place (visiting rows in sorted order
            // misses the processor's cache on almost every row). Decoding has no effects, so
            // the array is the same.
            var place = [Int32](repeating: -1, count: table.slotCount)
            for (i, slot) in slots.enumerated() { place[slot] = Int32(i) }
            var reuse: RowDecoder?
            return [Element](unsafeUninitializedCapacity: slots.count) { buffer, count in
                for slot in place.indices where place[slot] >= 0 {
                    (buffer.baseAddress! + Int(place[slot])).initialize(to: decodeStored(Element.self, slot, in: table, schema: schema, snapshot, context: context, reusing: &reuse))
                }
                count = slots.count
            }
        }
        var out: [Element] = []
        out.reserveCapacity(slots.count)
        var reuse: RowDecoder?
        for slot in slots { out.append(decodeStored(Element.self, slot, in: table, schema: schema, snapshot, context: context, reusing: &reuse)) }
        return out
    }

    private func isAscending(_ slots: [Int]) -> Bool {
        for i in slots.indices.dropFirst() where slots[i - 1] >= slots[i] { return false }
        return true
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
        guard let table = state.snapshot.tables[schema.name] else { return out }
        let context = DecodeContext()
        for slot in state.slots { out.append(try transform(decode(slot, in: table, state.snapshot, context: context))) }
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
        var filters: [PredicateNode] = []
        var clauses: [String] = []
        for stage in pipeline {
            switch stage {
            case .filter(let f): filters.append(f.node)
            case .clause(let c): clauses.append(c.description)
            }
        }
        // Several filters print as one AND chain, each parenthesised where that chain needs it.
        let head = filters.isEmpty ? "TRUEPREDICATE"
            : filters.count == 1 ? filters[0].description
            : filters.map { $0.text(in: .and) }.joined(separator: " AND ")
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
            return try filter(checked: StorePredicate(format: format, variadicArguments: args))
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
        try filter(checked: StorePredicate(format: format, variadicArguments: args))
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
}
