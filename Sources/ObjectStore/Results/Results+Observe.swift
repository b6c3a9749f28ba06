import Differentiator
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

    /// The change in Realm's shape: an update's `deletions`,
    /// `insertions` and `modifications` (its updates' new
    /// positions) as the store computed them.
    init(_ step: ResultsStep<Element>) {
        switch step {
        case .initial(let results): self = .initial(results)
        case .update(let results, let difference):
            self = .update(results, deletions: difference.deletions, insertions: difference.insertions,
                           modifications: difference.modifications)
        case .error(let error): self = .error(error)
        }
    }
}

/// What observed results deliver before it takes a public shape: the store's one change value
/// (`ListDifference`), computed once at the commit, which ``ResultsChange`` shows as Realm
/// does and Repository's `ListChange` carries whole to a table.
package enum ResultsStep<Element: StoreObject> {
    /// The results when the subscription started.
    case initial(Results<Element>)
    /// The results after a commit that changed them, and how they differ from the last ones.
    case update(Results<Element>, ListDifference)
    /// Damage found while the results were evaluated; nothing follows.
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
            results.watch(on: scheduler, observer: AnyObserver { observer.on($0.map { ResultsChange($0) }) })
        }
    }

    /// ``observe(on:)`` with each update's `ListDifference` whole, as the store computed it
    /// (for Repository's `ListChange`, which carries it to a table).
    ///
    /// - Parameter scheduler: Where steps are delivered.
    /// - Returns: An endless sequence of steps; dispose to stop observing.
    package func observeSteps(on scheduler: ImmediateSchedulerType) -> Observable<ResultsStep<Element>> {
        let results = self
        return Observable.create { observer in results.watch(on: scheduler, observer: observer) }
    }

    /// Registers a ``ResultsWatcher`` sending these results' steps to `observer`: what both
    /// ``observe(on:)`` and ``observeSteps(on:)`` return from their `create`.
    private func watch(on scheduler: ImmediateSchedulerType, observer: AnyObserver<ResultsStep<Element>>) -> Disposable {
        let watcher = ResultsWatcher(results: self, scheduler: scheduler, observer: observer)
        core.register(watcher) { snapshot in watcher.start(snapshot) }
        return Disposables.create { watcher.stop() }
    }

    /// The results as arrays, one per version: the objects when observation starts, then the
    /// objects as of each commit that changed them, in commit order (RxRealm's
    /// `Observable.array(from:)`).
    ///
    /// Each array is the version its commit made, not the store when the observer runs: when
    /// several commits are queued on `scheduler` before it runs, the first arrays it gets are
    /// already older than the store. Code that acts on the store's contents (an outbox that
    /// sends what is unsent) wants ``currentArrays(on:)``.
    ///
    /// - Parameter scheduler: Where arrays are delivered.
    /// - Returns: An endless sequence of arrays, one per version.
    public func asObservable(on scheduler: ImmediateSchedulerType = MainScheduler.instance) -> Observable<[Element]> {
        observe(on: scheduler).mapResults { $0.toArray() }
    }

    /// The results as they are in the store when the observer runs: an array when observation
    /// starts and after each commit that changed them, each read at delivery from the newest
    /// version, skipping a delivery whose version the previous array already showed.
    ///
    /// With commits queued on `scheduler` before the observer runs, it gets one array, the
    /// newest, where ``asObservable(on:)`` gives one per commit. An array whose commit was
    /// followed by others before delivery is a fresh evaluation of the query at the newest
    /// version (not the incremental placement `observe(on:)` uses); frozen results give their
    /// one version once.
    ///
    /// - Parameter scheduler: Where arrays are delivered.
    /// - Returns: An endless sequence of arrays, each the store's contents at its delivery.
    public func currentArrays(on scheduler: ImmediateSchedulerType = MainScheduler.instance) -> Observable<[Element]> {
        let results = self
        return Observable<[Element]>.create { observer in
            var shownVersion: Int?
            return results.observe(on: scheduler).subscribe { event in
                switch event {
                case .next(.initial(let delivered)), .next(.update(let delivered, _, _, _)):
                    let newest = results.pinned ?? results.core.snapshot()
                    guard newest.version != shownVersion else { return }
                    shownVersion = newest.version
                    // The delivered results are the newest unless commits came after them:
                    // evaluate again only then.
                    let current = delivered.pinned?.version == newest.version ? delivered : results.pinned(to: newest)
                    observer.onNext(current.toArray())
                case .next(.error(let error)), .error(let error): observer.onError(error)
                case .completed: observer.onCompleted()
                }
            }
        }
    }
}

extension Observable {
    /// Each change's results, transformed (`.initial` and `.update` alike); an `.error` change
    /// ends the sequence with its error.
    fileprivate func mapResults<T: StoreObject, R>(_ transform: @escaping (Results<T>) -> R) -> Observable<R> where Element == ResultsChange<T> {
        Observable<R>.create { observer in
            self.subscribe { event in
                switch event {
                case .next(.initial(let results)), .next(.update(let results, _, _, _)): observer.onNext(transform(results))
                case .next(.error(let error)), .error(let error): observer.onError(error)
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
    private let observer: AnyObserver<ResultsStep<Element>>
    private let lock = Lock()
    /// The results as last delivered, and their primary keys once a diff needed them.
    private var previous: EvaluatedResults?
    private var previousKeys: [StoreValue]?
    private var stopped = false
    private let tables: Set<String>

    init(results: Results<Element>, scheduler: ImmediateSchedulerType, observer: AnyObserver<ResultsStep<Element>>) {
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

    func committed(_ commit: CommitChanges) -> (() -> Void)? {
        guard results.pinned == nil, commit.tables.keys.contains(where: tables.contains) else { return nil }
        let pinned = results.pinned(to: commit.new)
        let schema = results.schema
        let (old, oldKeys) = lock.withLock { (previous, previousKeys) }
        let evaluated: EvaluatedResults, keys: [StoreValue]?, change: ListDifference
        // A commit that changed only this model: the touched objects are placed, not the whole
        // query evaluated again (see `IncrementalResults`).
        if let old, let own = commit.tables[schema.name],
           commit.tables.keys.allSatisfy({ $0 == schema.name || !tables.contains($0) }),
           let step = IncrementalResults.apply(previous: old, pipeline: results.pipeline, schema: schema, changes: own, commit: commit) {
            evaluated = EvaluatedResults(snapshot: commit.new, slots: step.slots)
            pinned.cache.store(evaluated)
            keys = nil
            change = step.change
        } else {
            evaluated = pinned.evaluate(in: commit.new)
            let new = evaluated.primaryKeys(schema)
            let changed = ChangedObjects(schema: schema, commit: commit)
            change = ListDifference(from: oldKeys ?? old?.primaryKeys(schema) ?? [], to: new, isUpdated: changed.isModified)
            keys = new
        }
        if let damage = failed() { return damage }
        lock.withLock {
            previous = evaluated
            previousKeys = keys
        }
        if change.isEmpty { return nil }
        return { [self] in
            deliver(.update(pinned, change))
        }
    }

    private func deliver(_ change: ResultsStep<Element>) {
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

extension Observable {
    /// RxRealm's `Observable.collection(from:)`: the results now, then after each commit that
    /// changed them.
    ///
    /// - Parameters:
    ///   - results: The results to watch.
    ///   - scheduler: Where values are delivered (default `MainScheduler.instance`).
    /// - Returns: Results pinned to each version.
    public static func collection<T: StoreObject>(from results: Results<T>, on scheduler: ImmediateSchedulerType = MainScheduler.instance) -> Observable<Results<T>> where Element == Results<T> {
        results.observe(on: scheduler).mapResults { $0 }
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
