/// Snapshots a commit or a compaction replaced, kept until nothing else holds them, so that
/// the writer frees them rather than the reader that happens to let go of one last: the rows
/// and changes a commit of 100,000 objects replaced are millions of blocks, and a reader
/// freeing them would spend milliseconds on it, in the allocator of the writer's thread,
/// waiting for the writer each time the writer holds that allocator's lock.
///
/// No lock: ``StoreCore`` touches it only with its write lock held.
struct RetiredSnapshots {
    /// The most replaced snapshots kept for the writer to free; past it, the oldest is let go
    /// (whoever holds it last frees it).
    static let limit = 8

    private var snapshots: [Snapshot] = []

    /// How many replaced snapshots are kept.
    var count: Int { snapshots.count }

    /// Keeps a snapshot the store no longer publishes (letting go of the oldest past ``limit``).
    mutating func retire(_ snapshot: Snapshot) {
        snapshots.append(snapshot)
        if snapshots.count > Self.limit { snapshots.removeFirst() }
    }

    /// Frees the kept snapshots no reader holds any more. A snapshot held only here cannot be
    /// taken again: the store no longer hands it out.
    mutating func sweep() {
        var i = 0
        while i < snapshots.count {
            if isKnownUniquelyReferenced(&snapshots[i]) {
                snapshots.remove(at: i)
            } else {
                i += 1
            }
        }
    }
}
