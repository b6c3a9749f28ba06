import Foundation

/// Everything one commit changed: the versions it goes between, each changed model's keys
/// (``TableChanges``), and its log in order (``ChangeRecord``). Commit observers get one per
/// commit.
struct CommitChanges {
    let old: Snapshot
    let new: Snapshot
    let tables: [String: TableChanges]
    let log: [ChangeRecord]
}
