import Foundation

extension Store {
    /// What opening a file store dropped from the end of its file: a commit that the last run
    /// did not finish writing (the process was killed, or the machine lost power, while it was
    /// being appended). Such a commit was never reported as written, so nothing that a `write`
    /// returned from is lost; the report lets the app log it.
    ///
    ///     var configuration = Store.Configuration.file(url: url, objectTypes: [Todo.self])
    ///     configuration.onRecovery = { report in logger.warning("\(report)") }
    ///     // dropped N unfinished bytes at offset O of PATH (commit V was not finished; …)
    public struct RecoveryReport: Sendable, Equatable, CustomStringConvertible {
        /// The store file.
        public let path: String
        /// How many bytes at the end of the file were not a whole commit.
        public let droppedBytes: Int
        /// Where the dropped bytes began: the end of the last whole commit, the file's size now
        /// (unless read-only).
        public let offset: Int
        /// The version the unfinished commit would have had; the store opened at the one before.
        public let droppedVersion: Int
        /// Whether the file was truncated at ``offset``: `false` for a read-only store, which
        /// never changes the file and only ignores the bytes.
        public let truncated: Bool

        /// `dropped N unfinished bytes at offset O of PATH (commit V was not finished; the store
        /// opens at version V-1)`; `ignored …` for a read-only store.
        public var description: String {
            "\(truncated ? "dropped" : "ignored") \(droppedBytes) unfinished bytes at offset \(offset) of \(path) "
                + "(commit \(droppedVersion) was not finished; the store opens at version \(droppedVersion - 1))"
        }
    }

    /// What this store's open dropped from the end of its file, or `nil` when the file ended
    /// with a whole commit (and for an in-memory store). See ``RecoveryReport``.
    public var recoveryReport: RecoveryReport? { core.file?.recovery }

    /// The first damage found in the file since it was opened (a page whose checksum or rows
    /// do not hold up when first read), or `nil`. Once set, writes, `compact()` and
    /// `writeCopy(toFile:)` throw it. See ``Configuration/onDamage``.
    public var damage: StoreError? { core.file?.damage.error }
}
