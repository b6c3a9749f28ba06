import Foundation

/// How an update is animated; headless lists record it and otherwise ignore it.
public enum RowAnimation: Sendable, Equatable {
    /// The system's choice.
    case automatic
    /// Fade.
    case fade
    /// No animation.
    case none
    /// Slide from the left.
    case left
    /// Slide from the right.
    case right
    /// Slide from the top.
    case top
    /// Slide from the bottom.
    case bottom
}

/// The changes recorded by one `performBatchUpdates`: sections and rows inserted (new
/// indexes), deleted and reloaded (old indexes), moved (old → new).
public struct BatchUpdate: Equatable, Sendable {
    /// Sections inserted, at their new indexes.
    public var insertedSections = IndexSet()
    /// Sections deleted, at their old indexes.
    public var deletedSections = IndexSet()
    /// Sections reloaded, at their old indexes.
    public var reloadedSections = IndexSet()
    /// Sections moved, old index to new index.
    public var movedSections: [(from: Int, to: Int)] = []
    /// Rows inserted, at their new index paths.
    public var insertedRows: [IndexPath] = []
    /// Rows deleted, at their old index paths.
    public var deletedRows: [IndexPath] = []
    /// Rows reloaded, at their old index paths.
    public var reloadedRows: [IndexPath] = []
    /// Rows moved, old index path to new index path.
    public var movedRows: [(from: IndexPath, to: IndexPath)] = []

    /// Creates an empty batch.
    public init() {}

    /// Whether the batch changes nothing.
    public var isEmpty: Bool {
        insertedSections.isEmpty && deletedSections.isEmpty && reloadedSections.isEmpty && movedSections.isEmpty
            && insertedRows.isEmpty && deletedRows.isEmpty && reloadedRows.isEmpty && movedRows.isEmpty
    }

    /// Compares every recorded change.
    public static func == (lhs: BatchUpdate, rhs: BatchUpdate) -> Bool {
        lhs.insertedSections == rhs.insertedSections && lhs.deletedSections == rhs.deletedSections
            && lhs.reloadedSections == rhs.reloadedSections
            && lhs.movedSections.map { [$0.from, $0.to] } == rhs.movedSections.map { [$0.from, $0.to] }
            && lhs.insertedRows == rhs.insertedRows && lhs.deletedRows == rhs.deletedRows
            && lhs.reloadedRows == rhs.reloadedRows
            && lhs.movedRows.map { [$0.from, $0.to] } == rhs.movedRows.map { [$0.from, $0.to] }
    }
}
