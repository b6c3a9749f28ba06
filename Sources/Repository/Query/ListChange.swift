import Differentiator
import Foundation

/// A list of view models and how it differs from the one before, as the store computed it at
/// the commit (Realm's `RealmCollectionChange`, mapped to view models).
///
///     query.observeChanges(on: MainScheduler.instance)
///     // [a, b]           initial
///     // [a, c] (deletions [1], insertions [1], modifications [])
///
/// The change is the store's `ListDifference` as it is: ``deletions`` index the previous
/// list, ``insertions`` and ``modifications`` this one, and ``reloads`` are the modified rows'
/// positions in the previous list, where a table's batch update reloads them. Removing the
/// deletions from the previous list, then inserting the insertions, then replacing the
/// modifications, gives ``items``.
public struct ListChange<Element> {
    /// The whole list after the change.
    public var items: [Element]
    /// Whether this is the first list of the subscription (no change set: show it whole).
    public var isInitial: Bool
    /// How ``items`` differ from the previous list (empty for the initial list).
    public var difference: ListDifference

    /// Positions removed, in the previous list.
    public var deletions: [Int] { difference.deletions }
    /// Positions added, in this list.
    public var insertions: [Int] { difference.insertions }
    /// Positions whose object changed in place, in this list.
    public var modifications: [Int] { difference.modifications }
    /// Positions whose object changed in place, in the previous list (where UIKit reloads rows).
    public var reloads: [Int] { difference.reloads }

    /// The first list of a subscription.
    ///
    /// - Parameter items: The list.
    /// - Returns: A change with no change set.
    public static func initial(_ items: [Element]) -> ListChange {
        ListChange(items: items, isInitial: true, difference: ListDifference())
    }

    /// A list after a change.
    ///
    /// - Parameters:
    ///   - items: The list after the change.
    ///   - difference: How it differs from the previous list.
    public init(items: [Element], difference: ListDifference) {
        self.init(items: items, isInitial: false, difference: difference)
    }

    private init(items: [Element], isInitial: Bool, difference: ListDifference) {
        self.items = items
        self.isInitial = isInitial
        self.difference = difference
    }

    /// The change as a one-section `Changeset`, for `RxTableViewSectionedChangesetDataSource`:
    /// the store's difference becomes the table's batch update as it is (deleted and reloaded
    /// rows at their previous positions, inserted rows at their new ones).
    ///
    ///     query.observeChanges(on: MainScheduler.instance)
    ///         .map { $0.changeset(section: "cart") }
    ///         .bind(to: tableView.rx.items(dataSource: dataSource))
    ///
    /// The initial list becomes a reload. `Changeset.originalSections` stays empty (the store
    /// does not keep the previous list).
    ///
    /// - Parameter model: The section's model (its header, for example).
    /// - Returns: The change set of the one section.
    public func changeset<Model>(section model: Model) -> Changeset<SectionModel<Model, Element>> {
        let section = SectionModel(model: model, items: items)
        return isInitial ? .initialValue([section]) : Changeset(section: section, difference: difference)
    }
}
