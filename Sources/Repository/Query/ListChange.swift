import Foundation

/// A list of view models and how it differs from the one before, as the store computed it at
/// the commit (Realm's `RealmCollectionChange`, mapped to view models).
///
///     query.observeChanges(on: MainScheduler.instance)
///     // [a, b]           initial
///     // [a, c] (deletions [1], insertions [1], modifications [])
///
/// Indices are sorted ascending: ``deletions`` index the previous list, ``insertions`` and
/// ``modifications`` this one. Removing the deletions from the previous list, then inserting
/// the insertions, then replacing the modifications, gives ``items``.
public struct ListChange<Element> {
    /// The whole list after the change.
    public var items: [Element]
    /// Whether this is the first list of the subscription (no change set: show it whole).
    public var isInitial: Bool
    /// Positions removed, in the previous list.
    public var deletions: [Int]
    /// Positions added, in this list.
    public var insertions: [Int]
    /// Positions whose object changed in place, in this list.
    public var modifications: [Int]

    /// The first list of a subscription.
    ///
    /// - Parameter items: The list.
    /// - Returns: A change with no change set.
    public static func initial(_ items: [Element]) -> ListChange {
        ListChange(items: items, isInitial: true, deletions: [], insertions: [], modifications: [])
    }

    /// A list after a change.
    ///
    /// - Parameters:
    ///   - items: The list after the change.
    ///   - deletions: Positions removed, in the previous list.
    ///   - insertions: Positions added, in `items`.
    ///   - modifications: Positions changed in place, in `items`.
    public init(items: [Element], deletions: [Int], insertions: [Int], modifications: [Int]) {
        self.init(items: items, isInitial: false, deletions: deletions, insertions: insertions, modifications: modifications)
    }

    private init(items: [Element], isInitial: Bool, deletions: [Int], insertions: [Int], modifications: [Int]) {
        self.items = items
        self.isInitial = isInitial
        self.deletions = deletions
        self.insertions = insertions
        self.modifications = modifications
    }

    /// The position in the previous list of each position of ``modifications`` (UIKit reloads
    /// rows at their old positions): the k-th row of this list that was not inserted is the
    /// k-th row of the previous list that was not deleted.
    public var modificationsInPreviousList: [Int] {
        guard !modifications.isEmpty else { return [] }
        let deleted = Set(deletions)
        let inserted = Set(insertions)
        let previousCount = items.count - insertions.count + deletions.count
        let keptInPrevious = (0..<max(previousCount, 0)).filter { !deleted.contains($0) }
        var keptBefore = 0
        var next = 0
        var old: [Int] = []
        old.reserveCapacity(modifications.count)
        for position in 0..<items.count {
            guard next < modifications.count else { break }
            if inserted.contains(position) { continue }
            if modifications[next] == position {
                if keptBefore < keptInPrevious.count { old.append(keptInPrevious[keptBefore]) }
                next += 1
            }
            keptBefore += 1
        }
        return old
    }
}
