import Foundation
import Streams

extension ListView {
    // MARK: Selection and editing

    func selectByTap(at indexPath: IndexPath) -> Bool {
        guard allowsSelection, isInteractive, let cell = visible[indexPath], cell.isUserInteractionEnabled else { return false }
        if !indexPathsForSelectedItems.contains(indexPath) { indexPathsForSelectedItems.append(indexPath) }
        cell.isSelected = true
        adapter?.didSelect(indexPath)
        itemSelectedSubject.onNext(indexPath)
        return true
    }

    func deselectItem(at indexPath: IndexPath, notify: Bool) {
        guard let index = indexPathsForSelectedItems.firstIndex(of: indexPath) else { return }
        indexPathsForSelectedItems.remove(at: index)
        visible[indexPath]?.isSelected = false
        if notify {
            adapter?.didDeselect(indexPath)
            itemDeselectedSubject.onNext(indexPath)
        }
    }

    func swipeToDelete(at indexPath: IndexPath) -> Bool {
        guard isInteractive, visible[indexPath] != nil, adapter?.commitDelete(indexPath) == true else { return false }
        itemDeletedSubject.onNext(indexPath)
        return true
    }
}
