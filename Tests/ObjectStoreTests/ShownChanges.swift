import Foundation
import Locking
import Testing
@testable import ObjectStore

/// The list an observer of ``Results`` builds by applying every change set it is sent (Realm's
/// rule: remove the deletions from the old list, insert the insertions, replace the
/// modifications, with objects from the new list), checked at each event against the event's
/// own objects and against the query evaluated afresh on the event's snapshot.
///
/// Failures are collected rather than recorded, so that a test on other threads can report them
/// with the seed that produced them. Safe to use from any thread.
final class ShownChanges<Element: StoreObject & Equatable>: @unchecked Sendable {
    private let lock = Lock()
    private var _list: [Element]?
    private var _updates = 0
    private var _failures: [String] = []
    private var _version = 0
    let label: String
    /// Whether an update may describe the version of the one before (a new query's list,
    /// `observeChanges`); otherwise each describes a newer one.
    let queryChanges: Bool

    init(_ label: String = "", queryChanges: Bool = false) {
        self.label = label
        self.queryChanges = queryChanges
    }

    /// The list as the change sets built it (`[]` before the initial event).
    var list: [Element] { lock.withLock { _list ?? [] } }
    /// How many updates came.
    var updates: Int { lock.withLock { _updates } }
    /// What went wrong, in order.
    var failures: [String] { lock.withLock { _failures } }
    /// The version of the snapshot the last event described.
    var version: Int { lock.withLock { _version } }

    func apply(_ change: ResultsChange<Element>) {
        lock.withLock {
            switch change {
            case .initial(let results):
                if _list != nil { fail("a second initial event") }
                _list = results.toArray()
                check(results, against: _list!, "initial")
                _version = results.pinned?.version ?? -1
            case .update(let results, let deletions, let insertions, let modifications):
                guard let old = _list else { return fail("an update before the initial event") }
                let new = results.toArray()
                let version = results.pinned?.version ?? -1
                if version < _version || (version == _version && !queryChanges) { fail("version \(version) after \(_version)") }
                _version = version
                _updates += 1
                if let built = Self.apply(deletions: deletions, insertions: insertions, modifications: modifications, to: old, new: new) {
                    if built != new {
                        fail("version \(version): deletions \(deletions) insertions \(insertions) modifications \(modifications) "
                             + "turn \(old.count) objects into \(built.count) other than the \(new.count) delivered")
                    }
                } else {
                    fail("version \(version): change set out of range or unsorted: \(deletions) \(insertions) \(modifications) "
                         + "between \(old.count) and \(new.count) objects")
                }
                check(results, against: new, "version \(version)")
                _list = new
            case .error(let error):
                fail("unexpected \(error)")
            }
        }
    }

    /// Compares the delivered results with the same query evaluated again, from nothing, on the
    /// snapshot they were read from (lock held): the same slots of the same snapshot are the
    /// same objects.
    private func check(_ results: Results<Element>, against delivered: [Element], _ when: String) {
        guard let snapshot = results.pinned else { return fail("\(when): results not pinned") }
        let slots = ResultsEngine.run(results.pipeline, schema: results.schema, snapshot: snapshot)
        let shown = results.evaluate().slots
        if shown != slots || delivered.count != slots.count {
            fail("\(when): \(shown.count) slots delivered differ from the \(slots.count) of a full evaluation")
        }
    }

    private func fail(_ message: String) {
        if _failures.count < 50 { _failures.append(label.isEmpty ? message : "\(label): \(message)") }
    }

    /// Realm's rule applied to `old`, or `nil` when an index is out of range or the indices are
    /// not strictly ascending.
    static func apply(deletions: [Int], insertions: [Int], modifications: [Int], to old: [Element], new: [Element]) -> [Element]? {
        func ascending(_ xs: [Int]) -> Bool { zip(xs, xs.dropFirst()).allSatisfy { $0 < $1 } }
        guard ascending(deletions), ascending(insertions), ascending(modifications) else { return nil }
        var rows = old
        for index in deletions.reversed() {
            guard rows.indices.contains(index) else { return nil }
            rows.remove(at: index)
        }
        for index in insertions {
            guard index <= rows.count, new.indices.contains(index) else { return nil }
            rows.insert(new[index], at: index)
        }
        for index in modifications {
            guard rows.indices.contains(index), new.indices.contains(index) else { return nil }
            rows[index] = new[index]
        }
        return rows
    }
}
