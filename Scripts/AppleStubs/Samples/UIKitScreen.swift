// A file of an iOS app that imports UIKit beside the headless layer: UIKit's IndexPath members
// and HeadlessUI's must not be ambiguous.
import HeadlessUI
import Streams
import UIKit

@MainActor func firstRow(of table: TableView) -> Int {
    let path = IndexPath(row: 2, section: 0)
    _ = IndexPath(item: 1, section: 0).item
    return path.row + path.section + (table.indexPathsForVisibleRows.first?.row ?? 0)
}
