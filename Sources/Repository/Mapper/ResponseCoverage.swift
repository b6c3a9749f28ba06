import ObjectStore

/// What one response covers, which decides what a ``Mapper`` may delete: only stored rows the
/// response covers and no longer contains.
///
///     Mapper(store: store, covers: .everything, …)       // a whole list: the server is the truth
///     Mapper(store: store, covers: .page, …)             // one page: upsert, never delete
///     mapper.map(body, covering: .rows { $0.shelf == "sf" })   // one shelf: delete only there
///
/// A page never deletes rows of other pages: give page responses ``page`` and a full refresh
/// ``everything``.
public struct ResponseCoverage<Model: StoreObject>: @unchecked Sendable {
    /// Which stored rows the response speaks for, or `nil` when it speaks for none.
    let covers: ((Model) -> Bool)?

    /// The response is the whole list of `Model`: stored objects it does not contain are
    /// deleted in the same write.
    public static var everything: ResponseCoverage { ResponseCoverage(covers: { _ in true }) }

    /// The response is one page (or any partial answer): its objects are upserted and nothing
    /// is deleted.
    public static var page: ResponseCoverage { ResponseCoverage(covers: nil) }

    /// The response is the whole of the stored objects for which `isCovered` is `true`: those
    /// it does not contain are deleted; every other stored object is left alone.
    ///
    /// - Parameter isCovered: Whether a stored object belongs to what the response covers.
    /// - Returns: The coverage.
    public static func rows(where isCovered: @escaping (Model) -> Bool) -> ResponseCoverage {
        ResponseCoverage(covers: isCovered)
    }

    /// Whether this coverage can delete anything.
    public var deletes: Bool { covers != nil }
}
