import Foundation
import HeadlessUI
import Streams

/// A row of the Tracks table: the artwork, a title line, a description line, and an error
/// line shown only when the artwork failed to load.
///
///     TrackCell [0,2]
///       ImageView [image placeholder 60×60]
///       Label "Neon Orchard — The Amber Kites"
///       Label "A hazy synth-pop track."
///       Label "⚠ artwork unavailable (HTTP 404)"
///
/// The artwork follows ``HeadlessUI/ImageView/load(_:from:placeholder:)``'s rule: placeholder
/// first, the image when it arrives, nothing when the cell has moved on to another row. The
/// error line follows the same rule: a failure that arrives after the cell was reused is
/// dropped.
open class TrackCell: TableViewCell {
    /// The identifier the Tracks table registers the cell under.
    public static let reuseIdentifier = "Track"

    /// The image shown until the artwork arrives, and when it fails: a grey 60×60 square.
    public static let placeholder = Image(width: 60, height: 60, color: .init(r: 204, g: 204, b: 204), name: "placeholder")

    /// Where a cell's artwork is.
    public enum ArtworkState: Equatable, Sendable {
        /// The row has no artwork URL.
        case none
        /// The placeholder is shown while the artwork loads.
        case loading
        /// The artwork is shown.
        case loaded
        /// The load failed; the error line shows `reason`.
        case failed(reason: String)
    }

    /// The artwork.
    public let artworkView = ImageView()
    /// `Title — Artist`.
    public let titleLabel = Label()
    /// The short description.
    public let detailLabel = Label()
    /// `⚠ artwork unavailable (…)`; hidden unless the artwork failed.
    public let errorLabel = Label()

    /// Increases with each row shown, so a late failure can tell it is stale.
    private var generation = 0
    private var failureReason: String?
    private var placeholderShown: Image?
    private lazy var reporter = FailureReportingProvider(cell: self)

    /// Creates a cell; the table calls it when its reuse pool is empty.
    ///
    /// - Parameter reuseIdentifier: The identifier the cell is registered with.
    public required init(reuseIdentifier: String?) {
        super.init(reuseIdentifier: reuseIdentifier)
        contentView.addSubview(artworkView)
        contentView.addSubview(titleLabel)
        contentView.addSubview(detailLabel)
        contentView.addSubview(errorLabel)
        errorLabel.isHidden = true
    }

    /// Shows `row`: its text at once, its artwork from `images` (the placeholder until then).
    ///
    /// - Parameters:
    ///   - row: The row to show.
    ///   - images: Where artwork comes from.
    ///   - placeholder: Shown until the artwork arrives; ``placeholder`` by default.
    public func configure(with row: TrackRow, images: ImageProviding, placeholder: Image? = TrackCell.placeholder) {
        generation &+= 1
        clearFailure()
        titleLabel.text = row.title
        detailLabel.text = row.detail
        reporter.base = images
        placeholderShown = placeholder
        artworkView.load(row.artworkURL, from: reporter, placeholder: placeholder)
    }

    /// Where the artwork is: none, loading, loaded or failed.
    public var artworkState: ArtworkState {
        if let failureReason { return .failed(reason: failureReason) }
        guard artworkView.imageURL != nil else { return .none }
        return artworkView.image == nil || artworkView.image == placeholderShown ? .loading : .loaded
    }

    /// Stops the artwork load and hides the error line as the cell leaves the screen.
    open override func prepareForReuse() {
        super.prepareForReuse()
        generation &+= 1
        clearFailure()
    }

    // MARK: Machinery

    fileprivate var currentGeneration: Int { generation }

    fileprivate func showFailure(_ error: Error, url: URL, generation expected: Int) {
        guard generation == expected, artworkView.imageURL == url else { return }
        let reason = describeArtworkFailure(error)
        failureReason = reason
        errorLabel.text = "⚠ artwork unavailable (\(reason))"
        errorLabel.isHidden = false
    }

    private func clearFailure() {
        failureReason = nil
        errorLabel.text = nil
        errorLabel.isHidden = true
    }
}

/// Sits between a cell's image view and the real provider to hear about failures (which
/// ``ImageView/load(_:from:placeholder:)`` swallows), and hands them to the cell on the main
/// scheduler, tagged with the row they were for.
private final class FailureReportingProvider: ImageProviding {
    weak var cell: TrackCell?
    var base: ImageProviding?

    init(cell: TrackCell) {
        self.cell = cell
    }

    func cachedImage(for url: URL) -> Image? {
        base?.cachedImage(for: url)
    }

    func loadImage(for url: URL) -> Observable<Image> {
        guard let base, let cell else { return .empty() }
        // ImageView.load, on the main actor, is the caller.
        let generation = MainActor.assumeIsolated { cell.currentGeneration }
        let failure = Binder<Error>(cell) { cell, error in
            cell.showFailure(error, url: url, generation: generation)
        }
        return base.loadImage(for: url).do(onError: { error in failure.onNext(error) })
    }
}
