import Differentiator
import Foundation

extension Changeset {
    /// The same changes as a ``BatchUpdate`` for a list.
    public var batchUpdate: BatchUpdate {
        var batch = BatchUpdate()
        batch.insertedSections = IndexSet(insertedSections)
        batch.deletedSections = IndexSet(deletedSections)
        batch.reloadedSections = IndexSet(updatedSections)
        batch.movedSections = movedSections
        batch.insertedRows = insertedItems.map { IndexPath(indexes: [$0.sectionIndex, $0.itemIndex]) }
        batch.deletedRows = deletedItems.map { IndexPath(indexes: [$0.sectionIndex, $0.itemIndex]) }
        batch.reloadedRows = updatedItems.map { IndexPath(indexes: [$0.sectionIndex, $0.itemIndex]) }
        batch.movedRows = movedItems.map { (IndexPath(indexes: [$0.from.sectionIndex, $0.from.itemIndex]), IndexPath(indexes: [$0.to.sectionIndex, $0.to.itemIndex])) }
        return batch
    }
}
