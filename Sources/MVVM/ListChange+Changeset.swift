import Foundation
import HeadlessUI
import Repository

extension ListChange {
    /// The change as a one-section `Changeset`, for
    /// `RxTableViewSectionedChangesetDataSource`: the store's change set becomes
    /// the table's batch update as it is, with modified rows reloaded at their old positions.
    ///
    ///     query.observeChanges(on: MainScheduler.instance)
    ///         .map { $0.changeset(section: "cart") }
    ///         .bind(to: tableView.rx.items(dataSource: dataSource))
    ///
    /// The initial list becomes a reload. `Changeset.originalSections` stays empty
    /// (the store does not keep the previous list).
    ///
    /// - Parameter model: The section's model (its header, for example).
    /// - Returns: The change set of the one section.
    public func changeset<Model>(section model: Model) -> Changeset<SectionModel<Model, Element>> {
        let section = SectionModel(model: model, items: items)
        guard !isInitial else { return .initialValue([section]) }
        var changeset = Changeset<SectionModel<Model, Element>>()
        changeset.finalSections = [section]
        changeset.deletedItems = deletions.map { ItemPath(sectionIndex: 0, itemIndex: $0) }
        changeset.insertedItems = insertions.map { ItemPath(sectionIndex: 0, itemIndex: $0) }
        changeset.updatedItems = modificationsInPreviousList.map { ItemPath(sectionIndex: 0, itemIndex: $0) }
        return changeset
    }
}
