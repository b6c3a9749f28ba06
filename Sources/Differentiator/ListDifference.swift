/// How one list became the next, as positions: the one change value of the package, computed
/// once where the change is known (the store, at a commit) and carried as it is to the table
/// that animates it.
///
/// Deleted elements and updated ones are counted in the previous list, inserted ones in the
/// new list, and a move goes from a position in the previous list to one in the new list: the
/// terms of one UIKit batch update. An update keeps both of its positions, so a table reloads
/// the row where it was (``reloads``) and a Realm-style reader finds it where it is now
/// (``modifications``), with no counting from one to the other.
///
///     previous:   [a, b, c, d]
///     new:        [a, c', d, e, b]       c changed in place; b moved to the end; e came
///     deletions   [1]                    b, in the previous list
///     insertions  [3, 4]                 e and b, in the new list
///     updates     [(old: 2, new: 1)]     c
///
/// Every array is sorted ascending (updates by either position: an updated element keeps its
/// order with the others that stay). Removing the deletions from the previous list, then
/// inserting the insertions, then replacing the updates gives the new list; ``moves`` are for
/// producers that report them, and ``init(from:to:isUpdated:)``, like the store, reports a
/// moved element as a deletion and an insertion instead, as Realm does.
public struct ListDifference: Hashable, Sendable {
    /// An element that stayed and changed: where it was and where it is.
    public struct Update: Hashable, Sendable {
        /// Its position in the previous list (where a table reloads it).
        public var old: Int
        /// Its position in the new list.
        public var new: Int

        /// An element updated at `old` in the previous list, now at `new`.
        ///
        /// - Parameters:
        ///   - old: The position in the previous list.
        ///   - new: The position in the new list.
        @inlinable
        public init(old: Int, new: Int) {
            self.old = old
            self.new = new
        }
    }

    /// An element that moved: from its position in the previous list to its position in the new one.
    public struct Move: Hashable, Sendable {
        /// Its position in the previous list.
        public var from: Int
        /// Its position in the new list.
        public var to: Int

        /// A move from `from` in the previous list to `to` in the new list.
        ///
        /// - Parameters:
        ///   - from: The position in the previous list.
        ///   - to: The position in the new list.
        @inlinable
        public init(from: Int, to: Int) {
            self.from = from
            self.to = to
        }
    }

    /// Positions removed, in the previous list.
    public var deletions: [Int]
    /// Positions added, in the new list.
    public var insertions: [Int]
    /// Elements that stayed and changed, with both positions.
    public var updates: [Update]
    /// Elements that moved (and may have changed), previous position to new.
    public var moves: [Move]

    /// A difference of the given parts (each sorted ascending).
    ///
    /// - Parameters:
    ///   - deletions: Positions removed, in the previous list.
    ///   - insertions: Positions added, in the new list.
    ///   - updates: Elements that stayed and changed.
    ///   - moves: Elements that moved.
    @inlinable
    public init(deletions: [Int] = [], insertions: [Int] = [], updates: [Update] = [], moves: [Move] = []) {
        self.deletions = deletions
        self.insertions = insertions
        self.updates = updates
        self.moves = moves
    }

    /// The updated elements' positions in the new list (Realm's `modifications`).
    @inlinable
    public var modifications: [Int] { updates.map(\.new) }

    /// The updated elements' positions in the previous list, where a table view reloads them
    /// in a batch update (RxDataSources' `updatedItems`).
    @inlinable
    public var reloads: [Int] { updates.map(\.old) }

    /// Whether the two lists hold the same elements in the same order, none changed.
    @inlinable
    public var isEmpty: Bool { deletions.isEmpty && insertions.isEmpty && updates.isEmpty && moves.isEmpty }

    /// The difference between two lists of unique keys: the keys that keep their relative
    /// order (one longest increasing subsequence of their previous positions, taken in new
    /// order) stay, and are updates where `isUpdated` says so; every other key in both lists is
    /// deleted and inserted (a move, as Realm reports it); the rest are deletions or insertions.
    ///
    ///     from [a, b, c]  to [c, a, b]:  deletions [2], insertions [0]
    ///
    /// - Parameters:
    ///   - old: The previous list's keys, each once.
    ///   - new: The new list's keys, each once.
    ///   - isUpdated: Whether an element with this key, in both lists, changed.
    /// - Complexity: O(n log n) in the lists' length.
    @inlinable
    public init<Key: Hashable>(from old: [Key], to new: [Key], isUpdated: (Key) -> Bool) {
        var oldPosition: [Key: Int] = [:]
        oldPosition.reserveCapacity(old.count)
        for (position, key) in old.enumerated() { oldPosition[key] = position }
        // The keys in both lists, in new order: their new and previous positions.
        var newOfCommon: [Int] = []
        var oldOfCommon: [Int] = []
        for (position, key) in new.enumerated() {
            if let previous = oldPosition[key] {
                newOfCommon.append(position)
                oldOfCommon.append(previous)
            }
        }
        var scratch = LongestIncreasingScratch()
        var keptOld = [Bool](repeating: false, count: old.count)
        var keptNew = [Bool](repeating: false, count: new.count)
        var stayers: [Int] = []
        var step = scratch.run(oldOfCommon)
        while step >= 0 {
            keptOld[oldOfCommon[step]] = true
            keptNew[newOfCommon[step]] = true
            stayers.append(step)
            step = scratch.previous[step]
        }
        var deletions: [Int] = []
        for position in old.indices where !keptOld[position] { deletions.append(position) }
        var insertions: [Int] = []
        for position in new.indices where !keptNew[position] { insertions.append(position) }
        var updates: [Update] = []
        for step in stayers.reversed() where isUpdated(new[newOfCommon[step]]) {
            updates.append(Update(old: oldOfCommon[step], new: newOfCommon[step]))
        }
        self.init(deletions: deletions, insertions: insertions, updates: updates)
    }

    /// The new list this difference makes of `previous`: deletions removed, insertions and
    /// moves placed, updates replaced, the elements that arrive taken from `new` (the new list,
    /// or anything indexed like it). A check of a difference against the two lists it joins.
    ///
    /// - Parameters:
    ///   - previous: The previous list.
    ///   - new: The elements of the new list, by new position.
    /// - Returns: The list, or `nil` when a position lies outside the lists, the counts do not
    ///   add up, or an update's two positions are not the same element.
    public func applied<Element>(to previous: [Element], taking new: [Element]) -> [Element]? {
        let removed = Set(deletions).union(moves.map(\.from))
        let placed = Set(insertions).union(moves.map(\.to))
        guard removed.allSatisfy(previous.indices.contains), placed.allSatisfy(new.indices.contains),
              updates.allSatisfy({ previous.indices.contains($0.old) && new.indices.contains($0.new) }),
              previous.count - removed.count + placed.count == new.count else { return nil }
        var stayers = previous.indices.filter { !removed.contains($0) }[...]
        var oldOfNew = [Int](repeating: -1, count: new.count)
        var result: [Element] = []
        result.reserveCapacity(new.count)
        for position in new.indices {
            if placed.contains(position) {
                result.append(new[position])
            } else {
                guard let old = stayers.popFirst() else { return nil }
                oldOfNew[position] = old
                result.append(previous[old])
            }
        }
        for update in updates {
            guard oldOfNew[update.new] == update.old else { return nil }
            result[update.new] = new[update.new]
        }
        return result
    }
}
