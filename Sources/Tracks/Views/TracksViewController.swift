import Foundation
import HeadlessUI
import Streams

/// The Tracks screen: a header line and a table of search results whose artwork loads
/// lazily into reusable cells, and whose next page loads as the user nears the end.
///
///     let screen = TracksViewController(dependency: .init(api: api, term: "midnight"),
///                                       images: ArtworkProvider(network: network))
///     Headless.run { _ = screen.view }          // searches, shows a skeleton
///     print(screen.render())
///
/// The view model is made in `viewDidLoad` from the table's events, as RxExample's screens
/// make theirs: `tableView.rx.willDisplayCell` within ``prefetchDistance`` rows of the end asks
/// for the next page, and `tableView.rx.retry` (the error view's Retry) asks again. The table
/// binds ``TracksViewModel/rows`` with `rx.items(cellIdentifier:cellType:)` (cells come from
/// `dequeueReusableCell`, so a 200-row table uses a handful of cells) and
/// ``TracksViewModel/state`` with `rx.loadState` (a skeleton while loading, an error view
/// whose Retry button searches again).
open class TracksViewController: ViewController {
    /// How close to the last row a displayed cell asks for the next page.
    public static let prefetchDistance = 5

    /// What the view model is made with.
    public let dependency: TracksViewModel.Dependency
    /// The view model, made when the view loads.
    public private(set) var viewModel: TracksViewModel?
    /// Where the artwork comes from.
    public let images: ImageProviding
    /// `200 results for “midnight”`, or the search's progress.
    public let headerLabel = Label()
    /// The results.
    public let tableView: TableView

    /// Creates the screen.
    ///
    /// - Parameters:
    ///   - dependency: The API, the term and the store the view model uses.
    ///   - images: Loads the artwork (an ``ArtworkProvider`` in the app).
    ///   - tableHeight: The table's viewport; 180 points (three rows) by default.
    ///   - rowHeight: The height of a row; 60 points, the artwork's size, by default.
    public init(dependency: TracksViewModel.Dependency, images: ImageProviding, tableHeight: Double = 180, rowHeight: Double = 60) {
        self.dependency = dependency
        self.images = images
        self.tableView = TableView(height: tableHeight, rowHeight: rowHeight)
        super.init()
        title = "Tracks"
    }

    /// Builds the views, the view model and the bindings; the search starts here.
    open override func viewDidLoad() {
        super.viewDidLoad()
        view.addSubview(headerLabel)
        view.addSubview(tableView)
        tableView.register(TrackCell.self, forCellReuseIdentifier: TrackCell.reuseIdentifier)
        let nearTheEnd = tableView.rx.willDisplayCell
            .filter { [weak tableView] event in
                guard let tableView else { return false }
                return event.indexPath.row >= tableView.numberOfRows(inSection: 0) - Self.prefetchDistance
            }
            .map { _ in () }
        let viewModel = TracksViewModel(
            input: (loadNextPage: nearTheEnd, retry: tableView.rx.retry.asObservable()),
            dependency: dependency)
        self.viewModel = viewModel
        let images = self.images
        viewModel.rows
            .drive(tableView.rx.items(cellIdentifier: TrackCell.reuseIdentifier, cellType: TrackCell.self)) { _, row, cell in
                cell.configure(with: row, images: images)
            }
            .disposed(by: disposeBag)
        viewModel.state
            .drive(tableView.rx.loadState)
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
