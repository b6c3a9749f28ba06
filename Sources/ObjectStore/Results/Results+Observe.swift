import Foundation
import Streams
import Locking

/// A change to observed ``Results``, as Realm's `RealmCollectionChange`.
///
/// Indices are sorted ascending: deletions index the previous collection, insertions and
/// modifications the new one. Removing the deletions from the old array, then inserting the
/// insertions, then replacing the modifications, yields the new array.
public enum ResultsChange<Element: StoreObject> {
    /// The results when the subscription started (always the first event).
    case initial(Results<Element>)
    /// The results after a commit that changed them, with the change set.
    case update(Results<Element>, deletions: [Int], insertions: [Int], modifications: [Int])
    /// The store file was found damaged while the results were evaluated: a
    /// ``StoreError/corrupted(offset:reason:)`` naming the damaged page. Nothing follows it
    /// (an in-memory store never sends it).
    case error(Error)
}

extension Results {
    /// Observes the results: `.initial` first, then one `.update` per commit that changed them.
    ///
    ///     pizzas.observe(on: MainScheduler.instance)
    ///         .subscribe(onNext: { change in … })
    ///
    /// Commits that do not touch these results send nothing. Each event's `Results` is pinned to
    /// the version it describes, so its indices always match the change set.
    ///
    /// - Parameter scheduler: Where events are delivered (default `MainScheduler.instance`;
    ///   pass `ImmediateScheduler.instance` or a test scheduler in tests).
    /// - Returns: An endless sequence of changes; dispose to stop observing.
    public func observe(on scheduler: ImmediateSchedulerType = MainScheduler.instance) -> Observable<ResultsChange<Element>> {
        let results = self
        return Observable.create { observer in
            let watcher = ResultsWatcher(results: results, scheduler: scheduler, observer: observer)
            results.core.register(watcher) { snapshot in watcher.start(snapshot) }
            return Disposables.create { watcher.stop() }
        }
    }

    /// The results as arrays: the current objects, then the objects after each commit that
    /// changed them (RxRealm's `Observable.collection(from:)`).
    ///
    /// - Parameter scheduler: Where arrays are delivered.
    /// - Returns: An endless sequence of arrays.
    public func asObservable(on scheduler: ImmediateSchedulerType = MainScheduler.instance) -> Observable<[Element]> {
        observe(on: scheduler).compactMapChange()
    }
}

extension Observable {
    fileprivate func compactMapChange<T: StoreObject>() -> Observable<[T]> where Element == ResultsChange<T> {
        Observable<[T]>.create { observer in
            self.subscribe { event in
                switch event {
                case .next(.initial(let results)): observer.onNext(results.toArray())
                case .next(.update(let results, _, _, _)): observer.onNext(results.toArray())
                case .next(.error(let error)): observer.onError(error)
                case .error(let error): observer.onError(error)
                case .completed: observer.onCompleted()
                }
            }
        }
    }
}

/// Watches one ``Results`` across commits and computes exact change sets.
final class ResultsWatcher<Element: StoreObject>: CommitObserver, @unchecked Sendable {
    private let results: Results<Element>
    private let scheduler: ImmediateSchedulerType
    private let observer: AnyObserver<ResultsChange<Element>>
    private let lock = Lock()
    /// The results as last delivered, and their primary keys once a diff needed them.
    private var previous: EvaluatedResults?
    private var previousKeys: [StoreValue]?
    private var stopped = false
    private let tables: Set<String>

    init(results: Results<Element>, scheduler: ImmediateSchedulerType, observer: AnyObserver<ResultsChange<Element>>) {
        self.results = results
        self.scheduler = scheduler
        self.observer = observer
        self.tables = reachableTables(results.schema)
    }

    func start(_ snapshot: Snapshot) -> (() -> Void)? {
        let pinned = results.pinned(to: snapshot)
        let evaluated = pinned.evaluate(in: snapshot)
        lock.withLock { previous = evaluated }
        if let damage = failed() { return damage }
        return { [self] in deliver(.initial(pinned)) }
    }

    /// When the store file was found damaged (by this evaluation or an earlier read), the
    /// results may lack the damaged page's objects: the observation stops and delivers the
    /// damage as its last event.
    private func failed() -> (() -> Void)? {
        guard let damage = results.core.file?.damage.error else { return nil }
        results.core.unregister(self)
        return { [self] in deliver(.error(damage)) }
    }

    func stop() {
        lock.withLock { stopped = true }
        results.core.unregister(self)
    }

    func committed(_ info: CommitInfo) -> (() -> Void)? {
        guard results.pinned == nil, info.tables.keys.contains(where: tables.contains) else { return nil }
        let pinned = results.pinned(to: info.new)
        let schema = results.schema
        let (old, oldKeys) = lock.withLock { (previous, previousKeys) }
        let evaluated: EvaluatedResults, keys: [StoreValue]?, change: ChangeSet
        // A commit that changed only this model: the touched objects are placed, not the whole
        // query evaluated again (see `IncrementalResults`).
        if let old, let own = info.tables[schema.name],
           info.tables.keys.allSatisfy({ $0 == schema.name || !tables.contains($0) }),
           let step = IncrementalResults.apply(previous: old, pipeline: results.pipeline, schema: schema, changes: own, info: info) {
            evaluated = EvaluatedResults(snapshot: info.new, slots: step.slots)
            pinned.cache.store(evaluated)
            keys = nil
            change = step.change
        } else {
            evaluated = pinned.evaluate(in: info.new)
            let new = evaluated.primaryKeys(schema)
            let modified = ChangedObjects(schema: schema, info: info)
            change = diff(old: oldKeys ?? old?.primaryKeys(schema) ?? [], new: new, modified: modified.contains)
            keys = new
        }
        if let damage = failed() { return damage }
        lock.withLock {
            previous = evaluated
            previousKeys = keys
        }
        if change.deletions.isEmpty, change.insertions.isEmpty, change.modifications.isEmpty { return nil }
        return { [self] in
            deliver(.update(pinned, deletions: change.deletions, insertions: change.insertions, modifications: change.modifications))
        }
    }

    private func deliver(_ change: ResultsChange<Element>) {
        if lock.withLock({ stopped }) { return }
        _ = scheduler.schedule(change) { [self] change in
            if !lock.withLock({ stopped }) { observer.onNext(change) }
            return Disposables.create()
        }
    }
}

/// The tables a model's results may depend on (itself and every model reachable by links).
func reachableTables(_ schema: ObjectSchema) -> Set<String> {
    var seen: Set<String> = []
    var stack = [schema]
    while let s = stack.popLast() {
        guard seen.insert(s.name).inserted else { continue }
        for field in s.fields {
            switch field.kind {
            case .link(let ref), .linkList(let ref): stack.append(ref.schema)
            default: break
            }
        }
    }
    return seen
}

/// A change set between two key lists.
struct ChangeSet: Equatable {
    var deletions: [Int]
    var insertions: [Int]
    var modifications: [Int]
}

/// Computes deletions/insertions/modifications turning `old` into `new` (keys are unique).
///
/// Objects kept in the same relative order (a longest increasing subsequence of their old
/// positions) stay; the others are reported as deleted and inserted (moves).
func diff(old: [StoreValue], new: [StoreValue], modified: (StoreValue) -> Bool) -> ChangeSet {
    var oldIndex: [StoreValue: Int] = [:]
    oldIndex.reserveCapacity(old.count)
    for (i, k) in old.enumerated() { oldIndex[k] = i }
    // Old positions of the common objects, in new order.
    var common: [(newPos: Int, oldPos: Int)] = []
    for (j, k) in new.enumerated() { if let i = oldIndex[k] { common.append((j, i)) } }
    // Longest increasing subsequence of oldPos (patience sorting).
    var tails: [Int] = []          // indices into common
    var parent = [Int](repeating: -1, count: common.count)
    for (c, pair) in common.enumerated() {
        var lo = 0, hi = tails.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if common[tails[mid]].oldPos < pair.oldPos { lo = mid + 1 } else { hi = mid }
        }
        if lo > 0 { parent[c] = tails[lo - 1] }
        if lo == tails.count { tails.append(c) } else { tails[lo] = c }
    }
    var keptNew = Set<Int>(), keptOld = Set<Int>()
    var c = tails.last ?? -1
    while c >= 0 {
        keptNew.insert(common[c].newPos)
        keptOld.insert(common[c].oldPos)
        c = parent[c]
    }
    let deletions = old.indices.filter { !keptOld.contains($0) }
    let insertions = new.indices.filter { !keptNew.contains($0) }
    let modifications = new.indices.filter { keptNew.contains($0) && modified(new[$0]) }
    return ChangeSet(deletions: deletions, insertions: insertions, modifications: modifications)
}

extension Observable {
    /// RxRealm's `Observable.collection(from:)`: the results now, then after each commit that
    /// changed them.
    ///
    /// - Parameters:
    ///   - results: The results to watch.
    ///   - scheduler: Where values are delivered (default `MainScheduler.instance`).
    /// - Returns: Results pinned to each version.
    public static func collection<T: StoreObject>(from results: Results<T>, on scheduler: ImmediateSchedulerType = MainScheduler.instance) -> Observable<Results<T>> where Element == Results<T> {
        Observable<Results<T>>.create { observer in
            results.observe(on: scheduler).subscribe { event in
                switch event {
                case .next(.initial(let r)), .next(.update(let r, _, _, _)): observer.onNext(r)
                case .next(.error(let error)), .error(let error): observer.onError(error)
                case .completed: observer.onCompleted()
                }
            }
        }
    }

    /// RxRealm's `Observable.array(from:)`: the objects as arrays, now and after each change.
    ///
    /// - Parameters:
    ///   - results: The results to watch.
    ///   - scheduler: Where values are delivered.
    /// - Returns: Arrays of objects.
    public static func array<T: StoreObject>(from results: Results<T>, on scheduler: ImmediateSchedulerType = MainScheduler.instance) -> Observable<[T]> where Element == [T] {
        results.asObservable(on: scheduler)
    }
}

/// Which objects of one model a commit changed: their own fields, or an object they link to
/// directly (so a renamed `Category` reports the `Pizza`s that show it as modified).
struct ChangedObjects {
    let own: [StoreValue: Set<Int>]
    let links: [(field: Int, changes: TableChanges)]
    let table: TableState?

    init(schema: ObjectSchema, info: CommitInfo) {
        own = info.tables[schema.name]?.modified ?? [:]
        table = info.new.table(schema)
        var links: [(Int, TableChanges)] = []
        for (i, field) in schema.fields.enumerated() {
            switch field.kind {
            case .link(let ref), .linkList(let ref):
                if let changes = info.tables[ref.name] { links.append((i, changes)) }
            default: break
            }
        }
        self.links = links
    }

    func contains(_ key: StoreValue) -> Bool {
        if own[key] != nil { return true }
        guard !links.isEmpty, let row = table?.row(forKey: key) else { return false }
        for (field, changes) in links {
            let touched: (StoreValue) -> Bool = { changes.modified[$0] != nil || changes.deleted.contains($0) || changes.inserted.contains($0) }
            switch row[field] {
            case .list(let keys): if keys.contains(where: touched) { return true }
            case .null: break
            case let value: if touched(value) { return true }
            }
        }
        return false
    }
}
