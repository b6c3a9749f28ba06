/// An invalid batch of updates, refused before anything changes, where UIKit raises
/// `NSInternalInconsistencyException` and the app stops.
///
/// ``rule`` says which rule the batch breaks, ``reason`` says it in UIKit's words (its
/// exception's reason) with the indexes involved.
public struct BatchUpdateError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The rule a batch breaks. Where UIKit's own message is known, ``reason`` quotes it;
    /// the others (marked so below) describe the rule in the same terms.
    public enum Rule: String, Sendable, CaseIterable {
        /// A section deleted, reloaded or moved from an index the list does not have before the
        /// update ("attempt to delete section 3, but there are only 3 sections before the update").
        case sectionOutOfRangeBefore
        /// A section inserted or moved to an index the data source does not have after the
        /// update ("attempt to insert section 3 but there are only 3 sections after the update").
        case sectionOutOfRangeAfter
        /// One section both deleted and reloaded (described; rows: "attempt to delete and
        /// reload the same index path").
        case deleteAndReloadSameSection
        /// One section both deleted and moved ("attempt to perform a delete and a move from the
        /// same section").
        case deleteAndMoveSameSection
        /// One section both reloaded and moved: two animations for its cells ("attempt to
        /// create two animations for cell").
        case reloadAndMoveSameSection
        /// A section moved to an index where a section is inserted ("attempt to perform an
        /// insert and a move to the same section").
        case insertAndMoveSameSection
        /// One section moved twice (described).
        case twoMovesFromOneSection
        /// Two sections moved to one index (described).
        case twoMovesToOneSection
        /// The data source's section count after the update is not the count before, plus the
        /// inserted, minus the deleted ("Invalid update: invalid number of sections").
        case invalidNumberOfSections
        /// An index path that is not a section and a row, or has a negative index ("Attempted to
        /// perform update with invalid index path").
        case invalidIndexPath
        /// A row deleted, reloaded or moved from a path the list does not have before the
        /// update ("attempt to delete row 3 from section 0 which only contains 3 rows before the
        /// update", "attempt to move index path … that does not exist").
        case rowOutOfRangeBefore
        /// A row inserted or moved to a path the data source does not have after the update
        /// ("attempt to insert row 5 into section 0, but there are only 5 rows in section 0
        /// after the update").
        case rowOutOfRangeAfter
        /// A row deleted or reloaded in a section deleted by the same update (described).
        case rowInDeletedSection
        /// A row deleted, reloaded, moved from or inserted into a section reloaded by the same
        /// update (described).
        case rowInReloadedSection
        /// A row inserted into a section inserted by the same update, which brings its rows
        /// itself (described).
        case rowInInsertedSection
        /// A row moved out of a section deleted by the same update ("cannot move a row from a
        /// deleted section").
        case moveFromDeletedSection
        /// A row moved into a section inserted by the same update ("cannot move a row into a
        /// newly inserted section").
        case moveIntoInsertedSection
        /// One row deleted twice, or inserted twice (described).
        case duplicateIndexPath
        /// One row both deleted and reloaded ("attempt to delete and reload the same index path").
        case deleteAndReloadSameIndexPath
        /// One row both deleted and moved ("attempt to perform a delete and a move from the same
        /// index path").
        case deleteAndMoveSameIndexPath
        /// A row moved to a path where a row is inserted ("attempt to perform an insert and a
        /// move to the same index path").
        case insertAndMoveSameIndexPath
        /// One row both reloaded and moved ("attempt to create two animations for cell"; some
        /// UIKit versions report it as a delete and a move from the same index path, a reload
        /// being a delete and an insert).
        case reloadAndMoveSameIndexPath
        /// A row reloaded in a section moved by the same update: UIKit counts the reload's delete
        /// against the wrong section and raises "invalid number of rows" for a batch whose
        /// counts add up.
        case reloadInMovedSection
        /// One row moved twice (described).
        case twoMovesFromOneIndexPath
        /// Two rows moved to one path (described).
        case twoMovesToOneIndexPath
        /// A surviving section's row count after the update is not the count before, plus the
        /// inserted and moved-in, minus the deleted and moved-out ("Invalid update: invalid
        /// number of rows in section").
        case invalidNumberOfRows
    }

    /// The rule the batch breaks.
    public let rule: Rule
    /// What is wrong, in UIKit's words, with the indexes involved.
    public let reason: String

    /// Creates an error.
    ///
    /// - Parameters:
    ///   - rule: The rule the batch breaks.
    ///   - reason: What is wrong, with the indexes involved.
    public init(rule: Rule, reason: String) {
        self.rule = rule
        self.reason = reason
    }

    /// `Invalid update: …`.
    public var description: String { reason }
}
