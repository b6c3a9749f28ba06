import Foundation
import Streams

/// A data source that can give the model at an index path (RxCocoa's
/// `SectionedViewDataSourceType`); `modelSelected` uses it.
@MainActor
public protocol SectionedViewDataSourceType {
    /// The model shown at `indexPath`.
    ///
    /// - Parameter indexPath: A row.
    /// - Returns: The model.
    /// - Throws: `StreamsError.argumentOutOfRange` when there is no such row.
    func model(at indexPath: IndexPath) throws -> Any
}

/// A table data source that receives its data from a sequence (RxCocoa's
/// `RxTableViewDataSourceType`).
@MainActor
public protocol RxTableViewDataSourceType {
    /// The type of the data.
    associatedtype Element

    /// Applies an event of the data sequence to `tableView`.
    ///
    /// - Parameters:
    ///   - tableView: The table bound.
    ///   - observedEvent: The new data.
    func tableView(_ tableView: TableView, observedEvent: Event<Element>)
}

/// A table data source over sections of rows, configured with closures
/// (RxDataSources' `TableViewSectionedDataSource`).
@MainActor
open class TableViewSectionedDataSource<Section: SectionModelType>: TableViewDataSource, SectionedViewDataSourceType {
    /// Makes the cell for a row.
    public typealias ConfigureCell = (TableViewSectionedDataSource<Section>, TableView, IndexPath, Section.Item) -> TableViewCell
    /// Whether a row can be deleted by a swipe.
    public typealias CanEditRowAtIndexPath = (TableViewSectionedDataSource<Section>, IndexPath) -> Bool
    /// The title of a section's header.
    public typealias TitleForHeaderInSection = (TableViewSectionedDataSource<Section>, Int) -> String?
    /// The title of a section's footer.
    public typealias TitleForFooterInSection = (TableViewSectionedDataSource<Section>, Int) -> String?

    /// Makes the cell for a row.
    public var configureCell: ConfigureCell
    /// Whether a row can be deleted by a swipe.
    public var canEditRowAtIndexPath: CanEditRowAtIndexPath
    /// The title of a section's header, shown above its rows; `nil` for none.
    public var titleForHeaderInSection: TitleForHeaderInSection
    /// The title of a section's footer, shown below its rows; `nil` for none.
    public var titleForFooterInSection: TitleForFooterInSection

    /// The sections shown.
    public private(set) var sectionModels: [Section] = []

    /// Creates a data source.
    ///
    /// - Parameters:
    ///   - configureCell: Makes the cell for a row.
    ///   - titleForHeaderInSection: The header titles; none by default.
    ///   - titleForFooterInSection: The footer titles; none by default.
    ///   - canEditRowAtIndexPath: Editable rows; none by default.
    public init(
        configureCell: @escaping ConfigureCell,
        titleForHeaderInSection: @escaping TitleForHeaderInSection = { _, _ in nil },
        titleForFooterInSection: @escaping TitleForFooterInSection = { _, _ in nil },
        canEditRowAtIndexPath: @escaping CanEditRowAtIndexPath = { _, _ in false }
    ) {
        self.configureCell = configureCell
        self.titleForHeaderInSection = titleForHeaderInSection
        self.titleForFooterInSection = titleForFooterInSection
        self.canEditRowAtIndexPath = canEditRowAtIndexPath
    }

    /// Replaces the sections without telling any table.
    ///
    /// - Parameter sections: The new sections.
    open func setSections(_ sections: [Section]) {
        sectionModels = sections
    }

    /// The section at `section`.
    public subscript(section: Int) -> Section { sectionModels[section] }

    /// The row at `indexPath`.
    public subscript(indexPath: IndexPath) -> Section.Item {
        sectionModels[indexPath[0]].items[indexPath[1]]
    }

    /// The row at `indexPath`, as `Any`.
    public func model(at indexPath: IndexPath) throws -> Any {
        guard indexPath.count == 2, indexPath[0] < sectionModels.count, indexPath[1] >= 0, indexPath[1] < sectionModels[indexPath[0]].items.count else {
            throw StreamsError.argumentOutOfRange
        }
        return self[indexPath]
    }

    /// The number of sections.
    public func numberOfSections(in tableView: TableView) -> Int { sectionModels.count }

    /// The number of rows in `section`.
    public func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int {
        section < sectionModels.count ? sectionModels[section].items.count : 0
    }

    /// The cell from ``configureCell``.
    public func tableView(_ tableView: TableView, cellForRowAt indexPath: IndexPath) -> TableViewCell {
        configureCell(self, tableView, indexPath, self[indexPath])
    }

    /// From ``titleForHeaderInSection``.
    public func tableView(_ tableView: TableView, titleForHeaderInSection section: Int) -> String? {
        section < sectionModels.count ? titleForHeaderInSection(self, section) : nil
    }

    /// From ``titleForFooterInSection``.
    public func tableView(_ tableView: TableView, titleForFooterInSection section: Int) -> String? {
        section < sectionModels.count ? titleForFooterInSection(self, section) : nil
    }

    /// From ``canEditRowAtIndexPath``.
    public func tableView(_ tableView: TableView, canEditRowAt indexPath: IndexPath) -> Bool {
        canEditRowAtIndexPath(self, indexPath)
    }
}

/// A sectioned data source that reloads the table for each new list of sections
/// (RxDataSources' `RxTableViewSectionedReloadDataSource`).
///
///     let dataSource = RxTableViewSectionedReloadDataSource<SectionModel<String, Pizza>>(configureCell: { _, table, indexPath, pizza in
///         let cell = table.dequeueReusableCell(withIdentifier: "Cell", for: indexPath)
///         cell.textLabel?.text = pizza.name
///         return cell
///     })
///     sections.bind(to: tableView.rx.items(dataSource: dataSource))
@MainActor
open class RxTableViewSectionedReloadDataSource<Section: SectionModelType>: TableViewSectionedDataSource<Section>, RxTableViewDataSourceType {
    /// Sets the sections and reloads the table.
    public func tableView(_ tableView: TableView, observedEvent: Event<[Section]>) {
        guard case .next(let sections) = observedEvent else { return }
        setSections(sections)
        tableView.reloadData()
    }
}

/// How a change of sections is shown.
public enum ViewTransition: Sendable, Equatable {
    /// As one batch of insertions, deletions and moves.
    case animated
    /// As a reload.
    case reload
}

/// The animations of an animated data source; recorded, not played, headless.
public struct AnimationConfiguration: Sendable, Equatable {
    /// For inserted rows and sections.
    public var insertAnimation: RowAnimation
    /// For reloaded rows.
    public var reloadAnimation: RowAnimation
    /// For deleted rows and sections.
    public var deleteAnimation: RowAnimation

    /// Creates a configuration.
    public init(insertAnimation: RowAnimation = .automatic, reloadAnimation: RowAnimation = .automatic, deleteAnimation: RowAnimation = .automatic) {
        self.insertAnimation = insertAnimation
        self.reloadAnimation = reloadAnimation
        self.deleteAnimation = deleteAnimation
    }
}

/// A sectioned data source that diffs each new list of sections against the shown one and
/// applies the difference's staged changesets in order, one batch update each (RxDataSources'
/// `RxTableViewSectionedAnimatedDataSource`). The first list reloads.
@MainActor
open class RxTableViewSectionedAnimatedDataSource<Section: AnimatableSectionModelType>: TableViewSectionedDataSource<Section>, RxTableViewDataSourceType {
    /// Chooses between a batch and a reload for a change.
    public typealias DecideViewTransition = (TableViewSectionedDataSource<Section>, TableView, [Changeset<Section>]) -> ViewTransition

    /// The animations (recorded only).
    public var animationConfiguration: AnimationConfiguration
    /// Chooses between a batch and a reload; a batch by default.
    public var decideViewTransition: DecideViewTransition
    private var dataSet = false

    /// Creates a data source.
    ///
    /// - Parameters:
    ///   - animationConfiguration: The animations.
    ///   - decideViewTransition: Chooses between a batch and a reload.
    ///   - configureCell: Makes the cell for a row.
    ///   - titleForHeaderInSection: The header titles.
    ///   - titleForFooterInSection: The footer titles.
    ///   - canEditRowAtIndexPath: Editable rows.
    public init(
        animationConfiguration: AnimationConfiguration = AnimationConfiguration(),
        decideViewTransition: @escaping DecideViewTransition = { _, _, _ in .animated },
        configureCell: @escaping ConfigureCell,
        titleForHeaderInSection: @escaping TitleForHeaderInSection = { _, _ in nil },
        titleForFooterInSection: @escaping TitleForFooterInSection = { _, _ in nil },
        canEditRowAtIndexPath: @escaping CanEditRowAtIndexPath = { _, _ in false }
    ) {
        self.animationConfiguration = animationConfiguration
        self.decideViewTransition = decideViewTransition
        super.init(configureCell: configureCell, titleForHeaderInSection: titleForHeaderInSection,
                   titleForFooterInSection: titleForFooterInSection, canEditRowAtIndexPath: canEditRowAtIndexPath)
    }

    /// Applies the difference between the shown sections and the new ones, one batch per stage.
    public func tableView(_ tableView: TableView, observedEvent: Event<[Section]>) {
        guard case .next(let newSections) = observedEvent else { return }
        guard dataSet else {
            dataSet = true
            setSections(newSections)
            tableView.reloadData()
            return
        }
        let oldSections = sectionModels
        let differences: [Changeset<Section>]
        do {
            differences = try Diff.differencesForSectionedView(initialSections: oldSections, finalSections: newSections)
        } catch {
            HeadlessUIHooks.report("\(error)")
            setSections(newSections)
            tableView.reloadData()
            return
        }
        guard !differences.isEmpty else {
            setSections(newSections)
            return
        }
        switch decideViewTransition(self, tableView, differences) {
        case .reload:
            setSections(newSections)
            tableView.reloadData()
        case .animated:
            // One batch per stage, each against the sections it leads to.
            for changes in differences {
                setSections(changes.finalSections)
                do {
                    try tableView.perform(changes.batchUpdate, animations: animationConfiguration)
                } catch {
                    HeadlessUIHooks.report("the diff produced an invalid batch: \(error)")
                    setSections(newSections)
                    tableView.reloadData()
                    return
                }
            }
            setSections(newSections)
        }
    }
}

extension TableView {
    /// Applies `batch` as one batch update with `animations`.
    func perform(_ batch: BatchUpdate, animations: AnimationConfiguration) throws {
        try performBatchUpdates({ [self] in
            deleteSections(batch.deletedSections, with: animations.deleteAnimation)
            insertSections(batch.insertedSections, with: animations.insertAnimation)
            for move in batch.movedSections { moveSection(move.from, toSection: move.to) }
            deleteRows(at: batch.deletedRows, with: animations.deleteAnimation)
            insertRows(at: batch.insertedRows, with: animations.insertAnimation)
            reloadRows(at: batch.reloadedRows, with: animations.reloadAnimation)
            for move in batch.movedRows { moveRow(at: move.from, to: move.to) }
        })
    }
}
