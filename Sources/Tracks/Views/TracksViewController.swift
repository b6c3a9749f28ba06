import Foundation
import HeadlessUI
import Streams

/// The Tracks screen: a header line and a table of search results whose artwork loads
/// lazily into reusable cells.
///
///     let screen = TracksViewController(viewModel: viewModel, images: ArtworkProvider(network: network))
///     Headless.run { _ = screen.view }          // searches, shows a skeleton
///     print(screen.render())
///
/// The table binds ``TracksViewModel/rows`` with `rx.items(cellIdentifier:cellType:)` (cells
/// come from `dequeueReusableCell`, so a 200-row table uses a handful of cells) and
/// ``TracksViewModel/state`` with `rx.loadState(retry:)` (a skeleton while loading, an error
/// view whose Retry button searches again).
open class TracksViewController: ViewController {
    /// The view model.
    public let viewModel: TracksViewModel
    /// Where the artwork comes from.
    public let images: ImageProviding
    /// `200 results for “midnight”`, or the search's progress.
    public let headerLabel = Label()
    /// The results.
    public let tableView: TableView

    /// Creates the screen.
    ///
    /// - Parameters:
    ///   - viewModel: Supplies the rows and the state.
    ///   - images: Loads the artwork (an ``ArtworkProvider`` in the app).
    ///   - tableHeight: The table's viewport; 180 points (three rows) by default.
    ///   - rowHeight: The height of a row; 60 points, the artwork's size, by default.
    public init(viewModel: TracksViewModel, images: ImageProviding, tableHeight: Double = 180, rowHeight: Double = 60) {
        self.viewModel = viewModel
        self.images = images
        self.tableView = TableView(height: tableHeight, rowHeight: rowHeight)
        super.init()
        title = "Tracks"
    }

    /// Builds the views and the bindings; the search starts here.
    open override func viewDidLoad() {
        super.viewDidLoad()
        view.addSubview(headerLabel)
        view.addSubview(tableView)
        tableView.register(TrackCell.self, forCellReuseIdentifier: TrackCell.reuseIdentifier)
        let images = self.images
        viewModel.rows
            .drive(tableView.rx.items(cellIdentifier: TrackCell.reuseIdentifier, cellType: TrackCell.self)) { _, row, cell in
                cell.configure(with: row, images: images)
            }
            .disposed(by: disposeBag)
        viewModel.state
            .drive(tableView.rx.loadState(retry: viewModel.retry))
            .disposed(by: disposeBag)
        viewModel.header
            .drive(headerLabel.rx.text)
            .disposed(by: disposeBag)
    }

    /// The visible cells, top to bottom.
    public var visibleTrackCells: [TrackCell] {
        tableView.visibleCells.compactMap { $0 as? TrackCell }
    }
}
