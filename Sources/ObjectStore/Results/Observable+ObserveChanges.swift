import Differentiator
import Foundation
import Locking
import Streams

extension ObservableConvertibleType {
    /// Observes the latest results this sequence gives as one list whose query can change: an
    /// `.initial` first, then an `.update` for every change of the list, whether a commit or a
    /// new query made it (a search field, filter chips, a sort switch).
    ///
    ///     queries:               -q1-------------q2-------------------
    ///     observeChanges(on: s): -initial(q1)----update(q1 → q2)--update(commit)--
    ///
    ///     search.map { text in store.objects(Pizza.self).filter("name CONTAINS[c] %@", text) }
    ///         .observeChanges(on: MainScheduler.instance)
    ///
    /// Unlike `flatMapLatest { $0.observe(on:) }`, which starts a new observation (and a new
    /// `.initial`, a table's full reload) for every query, a new query's results are compared
    /// with the list the observer was shown, by primary key: objects that left are deletions,
    /// objects that came are insertions, objects kept out of their relative order are moved
    /// (a deletion and an insertion), as commits report them. Kept objects are modifications
    /// when a commit since the last event changed them. A new query whose results are the
    /// objects shown, in the order shown, none changed, sends nothing: the list shown is
    /// already right, and the next change is one against that query's results.
    ///
    /// Every change set is computed, on `scheduler`, against the list of the event the observer
    /// got last: when queries or commits come faster than `scheduler` delivers (keystrokes),
    /// the ones in between are folded into one change set, as Realm folds commits between two
    /// notifications. New results are read at the newest version when they come in; frozen
    /// results are read at their own version (commits do not change them), and when that is
    /// not the version of the list shown, or the results are another store's, every kept
    /// object counts as modified.
    ///
    /// The completion of this sequence leaves the last results observed; its error is
    /// delivered after the changes before it.
    ///
    /// - Parameter scheduler: Where events are delivered and change sets computed (default
    ///   `MainScheduler.instance`; `ImmediateScheduler.instance` or a test scheduler in tests).
    /// - Returns: An endless sequence of changes; dispose it to stop observing.
    /// - Complexity: Each new query is evaluated once; each change set is O(n log n) in the
    ///   length of the two lists.
    public func observeChanges<T: StoreObject>(on scheduler: ImmediateSchedulerType = MainScheduler.instance) -> Observable<ResultsChange<T>> where Element == Results<T> {
        let queries = asObservable()
        return Observable.create { observer in
            followLatest(queries.map { ($0, ()) }, on: scheduler, observer: AnyObserver { observer.on($0.map { ResultsChange($0.step) }) })
        }
    }

    /// ``observeChanges(on:)`` over results that each come with a tag (for Repository's
    /// `ListChange`: the query's `viewModel`), with each update's `ListDifference` whole, and
    /// each step with the tag of the results it shows: the tag that came with the query
    /// whose results they are, whatever came since on another thread.
    ///
    /// - Parameter scheduler: Where steps are delivered and differences computed.
    /// - Returns: An endless sequence of steps; dispose it to stop observing.
    package func observeLatestSteps<T: StoreObject, Tag>(on scheduler: ImmediateSchedulerType) -> Observable<(step: ResultsStep<T>, tag: Tag)> where Element == (Results<T>, Tag) {
        let queries = asObservable()
        return Observable.create { observer in followLatest(queries, on: scheduler, observer: observer) }
    }
}

/// Subscribes a ``LatestResultsWatcher`` to `queries`: what both `observeChanges(on:)` and
/// `observeLatestSteps(on:)` return from their `create`.
private func followLatest<T: StoreObject, Tag>(_ queries: Observable<(Results<T>, Tag)>, on scheduler: ImmediateSchedulerType,
                                               observer: AnyObserver<(step: ResultsStep<T>, tag: Tag)>) -> Disposable {
    let watcher = LatestResultsWatcher<T, Tag>(scheduler: scheduler, observer: observer)
    let subscription = queries.subscribe(onNext: { watcher.follow($0.0, tag: $0.1) }, onError: { watcher.fail($0) })
    return Disposables.create {
        subscription.dispose()
        watcher.stop()
    }
}

/// Follows the latest of a sequence of ``Results``: keeps the list at the newest version as
/// queries and commits come (under the store's publication lock, so none is missed), and
/// computes each change set at delivery against the list the observer was last sent. Each
/// query comes with a tag, which the steps of its results carry.
final class LatestResultsWatcher<Element: StoreObject, Tag>: CommitObserver, @unchecked Sendable {
    private let scheduler: ImmediateSchedulerType
    private let observer: AnyObserver<(step: ResultsStep<Element>, tag: Tag)>
    private let lock = Lock()
    // Guarded by `lock`.
    private var query: (results: Results<Element>, tag: Tag)?
    private var tables: Set<String> = []
    private var core: StoreCore?
    /// The list now: the results pinned to its version, their keys, and their query's tag.
    private var latest: (results: Results<Element>, keys: [StoreValue], tag: Tag)?
    /// The keys of the list the observer was sent last (`nil` before the initial list).
    private var shown: [StoreValue]?
    /// What the commits since the last event changed.
    private var commits: [ChangedObjects] = []
    /// Every kept object counts as modified in the next change set (another store, or frozen
    /// results of another version).
    private var everythingChanged = false
    private var dirty = false
    private var failure: Error?
    private var scheduled = false
    private var delivering = false
    private var stopped = false

    init(scheduler: ImmediateSchedulerType, observer: AnyObserver<(step: ResultsStep<Element>, tag: Tag)>) {
        self.scheduler = scheduler
        self.observer = observer
    }

    /// Switches to `results`, whose steps carry `tag`: reads them at the newest version and
    /// schedules the change.
    func follow(_ results: Results<Element>, tag: Tag) {
        let previous = lock.withLock { stopped ? nil : Optional(core) }
        guard let previous else { return }
        if let previous, previous === results.core {
            results.core.atCurrentVersion { switchTo(results, tag: tag, at: $0, anotherStore: false) }
        } else {
            previous?.unregister(self)
            results.core.register(self) { [self] snapshot in
                switchTo(results, tag: tag, at: snapshot, anotherStore: previous != nil)
                return nil
            }
            let stoppedMeanwhile = lock.withLock { () -> Bool in
                core = results.core
                return stopped
            }
            if stoppedMeanwhile { results.core.unregister(self) }
        }
        requestDelivery()
    }

    /// Ends the sequence with `error` after the changes already made.
    func fail(_ error: Error) {
        let request = lock.withLock { () -> Bool in
            guard !stopped else { return false }
            failure = error
            return markDirty()
        }
        if request { schedule() }
    }

    /// Stops observing (disposal or the end of the sequence).
    func stop() {
        let registered = lock.withLock { () -> StoreCore? in
            stopped = true
            commits = []
            return core
        }
        registered?.unregister(self)
    }

    func committed(_ commit: CommitChanges) -> (() -> Void)? {
        // The query cannot change before `latest` is set: queries switch under the store's
        // publication lock too (`switchTo`).
        let current = lock.withLock { () -> (results: Results<Element>, tag: Tag)? in
            guard !stopped, let query, query.results.pinned == nil, commit.tables.keys.contains(where: tables.contains) else { return nil }
            return query
        }
        guard let current else { return nil }
        let pinned = current.results.pinned(to: commit.new)
        let keys = pinned.evaluate(in: commit.new).primaryKeys(current.results.schema)
        let changes = ChangedObjects(schema: current.results.schema, commit: commit)
        let request = lock.withLock { () -> Bool in
            latest = (pinned, keys, current.tag)
            commits.append(changes)
            return markDirty()
        }
        return request ? { [self] in schedule() } : nil
    }

    /// Runs under the store's publication lock.
    private func switchTo(_ results: Results<Element>, tag: Tag, at snapshot: Snapshot, anotherStore: Bool) {
        let version = results.pinned ?? snapshot
        let pinned = results.pinned(to: version)
        let keys = pinned.evaluate(in: version).primaryKeys(results.schema)
        let tables = reachableTables(results.schema)
        lock.withLock {
            // The list shown is at the newest version unless its results were frozen; kept
            // objects can only differ when the new list is read at another version.
            if let query, anotherStore || (query.results.pinned ?? snapshot).version != version.version { everythingChanged = true }
            query = (results, tag)
            self.tables = tables
            latest = (pinned, keys, tag)
            dirty = true
        }
    }

    /// Marks the list changed (with `lock` held); whether a delivery must be scheduled.
    private func markDirty() -> Bool {
        dirty = true
        guard !scheduled else { return false }
        scheduled = true
        return true
    }

    private func requestDelivery() {
        let request = lock.withLock { () -> Bool in
            guard dirty, !scheduled, !stopped else { return false }
            scheduled = true
            return true
        }
        if request { schedule() }
    }

    private func schedule() {
        _ = scheduler.schedule(()) { [self] _ in
            deliver()
            return Disposables.create()
        }
    }

    /// Sends what changed since the last event, one delivery at a time (a change made while
    /// the observer runs is sent by the same loop, after it).
    private func deliver() {
        lock.lock()
        scheduled = false
        if delivering { lock.unlock(); return }
        delivering = true
        while !stopped, dirty {
            dirty = false
            if let latest {
                let old = shown
                let commits = self.commits
                let everything = everythingChanged
                shown = latest.keys
                self.commits = []
                everythingChanged = false
                lock.unlock()
                let change: ResultsStep<Element>?
                if let old {
                    let set = ListDifference(from: old, to: latest.keys) { key in everything || commits.contains { $0.isModifiedOrInserted(key) } }
                    change = set.isEmpty ? nil : .update(latest.results, set)
                } else {
                    change = .initial(latest.results)
                }
                if let change { observer.onNext((change, latest.tag)) }
                lock.lock()
            }
            if !stopped, let failure {
                stopped = true
                lock.unlock()
                observer.onError(failure)
                stop()
                lock.lock()
            }
        }
        delivering = false
        lock.unlock()
    }
}
