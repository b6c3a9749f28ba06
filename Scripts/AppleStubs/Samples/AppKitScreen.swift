// A file of a macOS app that imports AppKit beside the headless layer: AppKit declares
// `section` and `item` (not `row`); none of them may be ambiguous.
import AppKit
import HeadlessUI
import Streams

@MainActor func firstItem(of collection: CollectionView) -> Int {
    let path = IndexPath(item: 2, section: 0)
    return path.item + path.section + IndexPath(row: 1, section: 0).row
}
