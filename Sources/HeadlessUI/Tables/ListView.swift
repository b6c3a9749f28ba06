import Foundation
import Streams

/// The machinery shared by ``TableView`` and ``CollectionView``: a vertical viewport over
/// sections of items, reusable cells, batch updates, selection and prefetching.
///
/// Lists lay out at once (on `reloadData`, a batch, a scroll or a size change), so what
/// `cellForRow(at:)` and ``View/render()`` show is always current.
@MainActor
open class ListView: View {
    /// The viewport's height.
    public var height: Double {
        didSet { layoutCells() }
    }
    /// How far the content is scrolled (the top of the viewport in content coordinates).
    public internal(set) var contentOffset: Double = 0
    /// Rows beyond each edge of the viewport announced to the prefetching data source.
    public var prefetchDistance = 0 {
        didSet { layoutCells() }
    }
    /// Whether rows can be selected by a tap.
    public var allowsSelection = true
    /// The index paths of the selected rows.
    public internal(set) var indexPathsForSelectedItems: [IndexPath] = []
    /// How many batch updates ran (a change set applied "as one batch" counts one).
    public internal(set) var batchUpdateCount = 0
    /// The last batch applied, for tests.
    public internal(set) var lastBatchUpdate: BatchUpdate?
    /// How many times the data was reloaded (``reloadData()``).
    public internal(set) var reloadCount = 0

    // Shared with the ListView+… files (layout, reuse, batch updates, selection).
    var registrations: [String: ReusableCell.Type] = [:]
    var reusePool: [String: [ReusableCell]] = [:]
    var visible: [IndexPath: ReusableCell] = [:]
    var prefetched: Set<IndexPath> = []
    var counts: [Int] = []
    var sectionTitles: [(header: String?, footer: String?)] = []
    var sectionTops: [Double] = []
    var offsets: [[Double]] = []
    var itemHeights: [[Double]] = []
    var contentHeightCache: Double = 0
    var pendingBatch: BatchUpdate?
    var isLoaded = false

    var batchDepth = 0
    /// The table or collection view that supplies the data and hears the events.
    weak var adapter: (any ListViewAdapter)?

    let itemSelectedSubject = PublishSubject<IndexPath>()
    let itemDeselectedSubject = PublishSubject<IndexPath>()
    let itemDeletedSubject = PublishSubject<IndexPath>()
    let willDisplaySubject = PublishSubject<(ReusableCell, IndexPath)>()
    let didEndDisplayingSubject = PublishSubject<(ReusableCell, IndexPath)>()
    let contentOffsetSubject = PublishSubject<Double>()
    let retrySubject = PublishSubject<Void>()

    /// Creates an empty list.
    ///
    /// - Parameter height: The viewport's height.
    public init(height: Double) {
        self.height = height
        super.init()
    }

    deinit {
        for subject in [itemSelectedSubject, itemDeselectedSubject, itemDeletedSubject] { subject.onCompleted() }
        retrySubject.onCompleted()
        willDisplaySubject.onCompleted()
        didEndDisplayingSubject.onCompleted()
        contentOffsetSubject.onCompleted()
    }

    // MARK: Rendering

    /// `TableView 1000 rows, offset 132` and the visible cells.
    open override var renderDescription: String {
        loadIfNeeded()
        let total = counts.reduce(0, +)
        let noun = adapter?.itemNoun ?? "row"
        let sections = counts.count <= 1 ? "" : " in \(counts.count) sections"
        return "\(adapter?.describeList() ?? typeName) \(total) \(total == 1 ? noun : noun + "s")\(sections), offset \(formatFraction(contentOffset))\(accessibilitySuffix)"
    }

    /// The background view, then the visible cells in order.
    open override var renderedChildren: [View] {
        loadIfNeeded()
        var children: [View] = []
        if let backgroundView { children.append(backgroundView) }
        return children + subviews + visibleReusableCells
    }
}
