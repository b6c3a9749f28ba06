import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HeadlessUI
import Repository
import Streams

/// A row of the results table.
public struct TrackRow: Hashable, Sendable {
    /// The title line: the track's name.
    public let title: String
    /// The second line: the artist, and the description when there is one.
    public let subtitle: String
    /// The artwork's address.
    public let artworkURL: URL

    init(_ track: TrackResult) {
        title = track.trackName
        subtitle = track.shortDescription.map { "\(track.artistName) — \($0)" } ?? track.artistName
        artworkURL = track.artworkUrl60
    }
}

/// The Tracks screen's state: the rows of one search, with loading and failure.
public final class TracksViewModel {
    /// The rows shown.
    public let rows = BehaviorRelay<[TrackRow]>(value: [])
    /// Loading (skeleton), loaded, or failed (error view with Retry).
    public let state = BehaviorRelay<ListLoadState>(value: .loading)
    private let network: Network
    private let searchURL: URL
    private var loading = DisposeBag()

    /// Creates the view model and starts the search.
    ///
    /// - Parameters:
    ///   - network: Where the search goes.
    ///   - searchURL: The search's address, e.g. `…/search?term=night`.
    public init(network: Network, searchURL: URL) {
        self.network = network
        self.searchURL = searchURL
        load()
    }

    /// Runs the search (again, for Retry).
    public func load() {
        loading = DisposeBag()
        if rows.value.isEmpty { state.accept(.loading) }
        network.fetch(url: searchURL)
            .map { try TracksAPI.decode($0).map(TrackRow.init) }
            .observe(on: MainScheduler.instance)
            .subscribe(onSuccess: { [rows, state] loaded in
                rows.accept(loaded)
                state.accept(.loaded)
            }, onFailure: { [rows, state] error in
                if rows.value.isEmpty { state.accept(.failed(message: "Could not search: \(error)")) }
            })
            .disposed(by: loading)
    }
}

/// A result's cell: artwork (a placeholder first), title, subtitle, and an error line when the
/// artwork cannot be loaded.
public final class TrackCell: TableViewCell {
    /// The track's name.
    public let titleLabel = Label()
    /// The artist.
    public let subtitleLabel = Label()
    /// The artwork.
    public let artwork = ImageView()
    /// `Artwork unavailable`, shown only when this row's artwork failed.
    public let errorLabel = Label(text: "Artwork unavailable")
    private let errorWatch = SerialDisposable()

    /// Creates a cell.
    public required init(reuseIdentifier: String?) {
        super.init(reuseIdentifier: reuseIdentifier)
        for view in [artwork, titleLabel, subtitleLabel, errorLabel] as [View] { contentView.addSubview(view) }
        errorLabel.isHidden = true
    }

    deinit { errorWatch.dispose() }

    /// Shows `row`, loading its artwork through `images`.
    public func configure(_ row: TrackRow, images: ImageProviding) {
        titleLabel.text = row.title
        subtitleLabel.text = row.subtitle
        errorLabel.isHidden = true
        artwork.load(row.artworkURL, from: images, placeholder: TracksViewController.placeholder)
        let url = row.artworkURL
        errorWatch.disposable = images.loadImage(for: url)
            .observe(on: MainScheduler.instance)
            .subscribe(onError: { [weak self] _ in
                // Only if the cell still shows that row.
                if let self, self.artwork.imageURL == url { self.errorLabel.isHidden = false }
            })
    }

    /// Stops watching the previous row's artwork.
    public override func prepareForReuse() {
        super.prepareForReuse()
        errorWatch.disposable = Disposables.create()
        errorLabel.isHidden = true
    }
}

/// The results table: reusable cells, lazy artwork always in the right cell.
public final class TracksViewController: ViewController {
    /// What an artwork view shows until its image arrives.
    public static let placeholder = Image(width: 8, height: 8, color: .init(r: 128, g: 128, b: 128), name: "placeholder")
    /// The view model.
    public let viewModel: TracksViewModel
    /// The results: five rows visible at a time.
    public let table = TableView(height: 250, rowHeight: 50)
    /// The images.
    public let images: ImageProviding
    /// How many distinct cells were ever created (reuse keeps this near the visible rows).
    public private(set) var cellsCreated = 0
    private var seenCells = Set<ObjectIdentifier>()

    /// Creates the screen.
    ///
    /// - Parameters:
    ///   - viewModel: The search.
    ///   - images: Where artwork comes from.
    public init(viewModel: TracksViewModel, images: ImageProviding) {
        self.viewModel = viewModel
        self.images = images
        super.init()
        title = "Tracks"
    }

    public override func viewDidLoad() {
        view.addSubview(table)
        table.register(TrackCell.self, forCellReuseIdentifier: "Track")
        let images = self.images
        viewModel.rows.asDriver()
            .drive(table.rx.items(cellIdentifier: "Track", cellType: TrackCell.self)) { [weak self] _, row, cell in
                if let self, self.seenCells.insert(ObjectIdentifier(cell)).inserted { self.cellsCreated += 1 }
                cell.configure(row, images: images)
            }
            .disposed(by: disposeBag)
        let retry = AnyObserver<Void> { [weak viewModel] event in
            if case .next = event { viewModel?.load() }
        }
        viewModel.state.asDriver().drive(table.rx.loadState(retry: retry)).disposed(by: disposeBag)
    }
}
