import Foundation
import Streams

/// A sectioned data source fed with change sets computed elsewhere — by the store at the
/// commit, for example — and applied as they are, as one batch update each: no diff runs in
/// the UI. The first change set, and any marked `Changeset.reloadData`, reloads the table.
///
///     changes                                   // Observable<Changeset<SectionModel<String, Row>>>
///         .bind(to: tableView.rx.items(dataSource: RxTableViewSectionedChangesetDataSource(configureCell: …)))
///
/// A change set that does not fit the rows shown (a producer's bug) is reported to
/// ``HeadlessUIHooks`` and the table reloads with its `Changeset.finalSections`, so the
/// screen still shows the right rows.
@MainActor
open class RxTableViewSectionedChangesetDataSource<Section: SectionModelType>: TableViewSectionedDataSource<Section>, RxTableViewDataSourceType {
    /// The animations (recorded only).
    public var animationConfiguration: AnimationConfiguration
    private var dataSet = false

    /// Creates a data source.
    ///
    /// - Parameters:
    ///   - animationConfiguration: The animations.
    ///   - configureCell: Makes the cell for a row.
    ///   - titleForHeaderInSection: The header titles.
    ///   - titleForFooterInSection: The footer titles.
    ///   - canEditRowAtIndexPath: Editable rows.
    public init(
        animationConfiguration: AnimationConfiguration = AnimationConfiguration(),
        configureCell: @escaping ConfigureCell,
        titleForHeaderInSection: @escaping TitleForHeaderInSection = { _, _ in nil },
        titleForFooterInSection: @escaping TitleForFooterInSection = { _, _ in nil },
        canEditRowAtIndexPath: @escaping CanEditRowAtIndexPath = { _, _ in false }
    ) {
        self.animationConfiguration = animationConfiguration
        super.init(configureCell: configureCell, titleForHeaderInSection: titleForHeaderInSection,
                   titleForFooterInSection: titleForFooterInSection, canEditRowAtIndexPath: canEditRowAtIndexPath)
    }

    /// Shows the change set's final sections, animating its changes from the shown ones.
    public func tableView(_ tableView: TableView, observedEvent: Event<Changeset<Section>>) {
        guard case .next(let changeset) = observedEvent else { return }
        setSections(changeset.finalSections)
        guard dataSet, !changeset.reloadData else {
            dataSet = true
            tableView.reloadData()
            return
        }
        guard !changeset.isEmpty else { return }
        do {
            try tableView.perform(changeset.batchUpdate, animations: animationConfiguration)
        } catch {
            HeadlessUIHooks.report("a change set does not fit the rows shown: \(error)")
            tableView.reloadData()
        }
    }
}
