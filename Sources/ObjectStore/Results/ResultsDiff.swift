import Foundation

/// The difference between two lists of primary keys, as indices: what a ``ResultsChange/update``
/// carries. Deletions index the old list, insertions and modifications the new one.
struct ResultsDiff: Equatable {
    var deletions: [Int]
    var insertions: [Int]
    var modifications: [Int]

    /// Whether the lists are the same objects in the same order, none modified.
    var isEmpty: Bool { deletions.isEmpty && insertions.isEmpty && modifications.isEmpty }
}

/// Computes deletions/insertions/modifications turning `old` into `new` (keys are unique).
///
/// Objects kept in the same relative order (a longest increasing subsequence of their old
/// positions) stay; the others are reported as deleted and inserted (moves).
func diff(old: [StoreValue], new: [StoreValue], modified: (StoreValue) -> Bool) -> ResultsDiff {
    var oldIndex: [StoreValue: Int] = [:]
    oldIndex.reserveCapacity(old.count)
    for (i, k) in old.enumerated() { oldIndex[k] = i }
    // Old positions of the common objects, in new order.
    var common: [(newPos: Int, oldPos: Int)] = []
    for (j, k) in new.enumerated() { if let i = oldIndex[k] { common.append((j, i)) } }
    // Longest increasing subsequence of oldPos (patience sorting).
    var tails: [Int] = []          // indices into common
    var parent = [Int](repeating: -1, count: common.count)
    for (c, pair) in common.enumerated() {
        var lo = 0, hi = tails.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if common[tails[mid]].oldPos < pair.oldPos { lo = mid + 1 } else { hi = mid }
        }
        if lo > 0 { parent[c] = tails[lo - 1] }
        if lo == tails.count { tails.append(c) } else { tails[lo] = c }
    }
    var keptNew = Set<Int>(), keptOld = Set<Int>()
    var c = tails.last ?? -1
    while c >= 0 {
        keptNew.insert(common[c].newPos)
        keptOld.insert(common[c].oldPos)
        c = parent[c]
    }
    let deletions = old.indices.filter { !keptOld.contains($0) }
    let insertions = new.indices.filter { !keptNew.contains($0) }
    let modifications = new.indices.filter { keptNew.contains($0) && modified(new[$0]) }
    return ResultsDiff(deletions: deletions, insertions: insertions, modifications: modifications)
}
