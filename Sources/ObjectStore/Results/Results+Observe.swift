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
    /// An error (never sent by the in-memory store; kept for Realm parity).
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
        observe(on: scheduler).mapResults { $0.toArray() }
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
    private let observer: AnyObserver<ResultsChange<Element>>
    private let lock = Lock()
    private var previous: [StoreValue] = []
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
        lock.withLock { previous = pinned.evaluate(in: snapshot).primaryKeys(results.schema) }
        return { [self] in deliver(.initial(pinned)) }
    }

    func stop() {
        lock.withLock { stopped = true }
        results.core.unregister(self)
    }

    func committed(_ commit: CommitChanges) -> (() -> Void)? {
        guard results.pinned == nil, commit.tables.keys.contains(where: tables.contains) else { return nil }
        let pinned = results.pinned(to: commit.new)
        let keys = pinned.evaluate(in: commit.new).primaryKeys(results.schema)
        let changed = ChangedObjects(schema: results.schema, commit: commit)
        let old = lock.withLock { () -> [StoreValue] in
            let old = previous
            previous = keys
            return old
        }
        let change = diff(old: old, new: keys, modified: changed.isModified)
        if change.isEmpty { return nil }
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
