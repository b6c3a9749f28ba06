import Foundation
import Streams

extension ListView {
    // MARK: Registration and reuse

    func registerCell(_ cellClass: ReusableCell.Type, identifier: String) {
        registrations[identifier] = cellClass
    }

    func dequeueCell(identifier: String, for indexPath: IndexPath) -> ReusableCell? {
        if var pool = reusePool[identifier], let cell = pool.popLast() {
            reusePool[identifier] = pool
            return cell
        }
        guard let cellClass = registrations[identifier] else {
            HeadlessUIHooks.report("unable to dequeue a cell with identifier \(identifier) - must register a class for the identifier")
            return nil
        }
        return cellClass.init(reuseIdentifier: identifier)
    }

    /// The cells shown, in index-path order.
    public var visibleReusableCells: [ReusableCell] {
        visible.keys.sorted().map { visible[$0]! }
    }

    /// The index paths of the visible rows, sorted.
    public var indexPathsForVisibleItems: [IndexPath] { visible.keys.sorted() }

    /// The number of cells waiting in the reuse pools.
    public var reusePoolCount: Int { reusePool.values.reduce(0) { $0 + $1.count } }

    /// The number of distinct cell objects created so far (visible plus pooled).
    public var cellCount: Int { visible.count + reusePoolCount }

    func reusableCell(at indexPath: IndexPath) -> ReusableCell? {
        visible[indexPath]
    }

    func enqueue(_ cell: ReusableCell, from indexPath: IndexPath) {
        cell.indexPath = nil
        cell.superview = nil
        cell.isSelected = false
        adapter?.didEndDisplaying(cell, at: indexPath)
        didEndDisplayingSubject.onNext((cell, indexPath))
        cell.prepareForReuse()
        reusePool[cell.reuseIdentifier ?? "", default: []].append(cell)
    }
}
