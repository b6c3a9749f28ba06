import Differentiator
import Foundation

/// Brings observed results up to date after a commit that changed a few of their model's
/// objects, without evaluating the query again: the objects the commit touched leave the old
/// list, those that match afterwards go back in at their place (by slot, or by the sort), and
/// the change set follows from where each went. Everything else keeps its place, since nothing
/// it is filtered or sorted by changed.
///
/// It applies when the commit changed no other model the results can reach, the pipeline is
/// filters and at most one sort (no `distinct`, no `limit`), and the commit touched few objects
/// next to the results' size; otherwise the caller evaluates again and diffs.
enum IncrementalResults {
    /// Above this share of the results (1 in `maxShare`) touched by one commit, evaluating again
    /// costs about as much as placing each touched object.
    static let maxShare = 32

    /// The results after the commit and the change set from `previous` (evaluated on a
    /// snapshot whose rows of this model are those of `commit.old`), or `nil` when this does not apply.
    static func apply(previous: EvaluatedResults, pipeline: [ResultsStage], schema: ObjectSchema,
                      changes: TableChanges, commit: CommitChanges) -> (slots: [Int], change: ListDifference)? {
        var filters: [Matcher] = []
        var sort: [SortDescriptor]?
        for stage in pipeline {
            switch stage {
            case .filter(let f): filters.append(f.matcher)
            case .clause(.sort(let keys, _)):
                guard sort == nil else { return nil }
                sort = keys
            case .clause(.distinct), .clause(.limit): return nil
            }
        }
        // The previous slots number the rows of the snapshot they were evaluated in. The objects
        // the commit did not touch keep them, and the touched ones are placed among them as slots
        // of the new table, so both tables must number the rows alike. A file compaction that
        // moved the store to a new snapshot since the previous evaluation may have numbered them
        // again (hence the previous results must be of the commit's parent itself), and so may
        // the commit: publishing it drops a table's deleted slots once they outnumber its rows
        // (`TableState.compactIfNeeded`), moving every later row down.
        let touched = changes.inserted.count + changes.deleted.count + changes.modified.count
        guard previous.snapshot === commit.old, touched * maxShare <= previous.slots.count,
              let oldTable = commit.old.table(schema), let newTable = commit.new.table(schema),
              oldTable.slotNumbering == newTable.slotNumbering else { return nil }
        let order: Order
        if let sort {
            let compiler = QueryCompiler(schema: schema)
            guard let paths = try? sort.map({ try compiler.resolve($0.keyPath.split(separator: ".").map(String.init), column: 0) })
            else { return nil }
            order = .sorted(paths.map { path in { row, snapshot in path.single(row, snapshot) } }, sort.map(\.ascending))
        } else {
            order = .bySlot
        }

        // Each touched object: its slot before (if it was stored) and after (if it matches now).
        var leaving: [(key: StoreValue, slot: Int)] = []
        var entering: [(key: StoreValue, slot: Int, values: [StoreValue])] = []
        for key in changes.inserted.union(changes.deleted).union(changes.modified.keys) {
            if let slot = oldTable.slot(forKey: key) { leaving.append((key, slot)) }
            guard let slot = newTable.slot(forKey: key), let row = newTable.row(slot) else { continue }
            if filters.allSatisfy({ $0(row, commit.new) }) { entering.append((key, slot, order.values(row, commit.new))) }
        }

        // The old list without the objects leaving it (their old positions kept).
        var oldPositions: [StoreValue: Int] = [:]
        var slots: [Int] = []
        slots.reserveCapacity(previous.slots.count + entering.count)
        if leaving.isEmpty {
            slots = previous.slots
        } else {
            let find = SlotFinder(leaving)
            for (position, slot) in previous.slots.enumerated() {
                if let key = find[slot] { oldPositions[key] = position } else { slots.append(slot) }
            }
        }
        // The objects entering, each where the order puts it among the others.
        var placed: [(key: StoreValue, slot: Int)] = []
        for item in entering {
            let at = order.position(of: item.slot, values: item.values, in: slots, table: newTable, snapshot: commit.new)
            slots.insert(item.slot, at: at)
            placed.append((item.key, item.slot))
        }
        var newPositions: [StoreValue: Int] = [:]
        if !placed.isEmpty {
            let find = SlotFinder(placed)
            for (position, slot) in slots.enumerated() {
                if let key = find[slot] { newPositions[key] = position }
            }
        }
        return (slots, changeSet(old: oldPositions, new: newPositions, modified: changes.modified))
    }

    /// The change set when the objects not touched kept their relative order: a touched object
    /// in both lists stays (a modification, if its fields changed) when as many untouched
    /// objects precede it before and after and it keeps its order with the other stayers;
    /// otherwise it is deleted and inserted.
    static func changeSet(old: [StoreValue: Int], new: [StoreValue: Int], modified: [StoreValue: ChangedFields]) -> ListDifference {
        let oldSorted = old.values.sorted(), newSorted = new.values.sorted()
        /// How many of `positions` (ascending) lie below `p`.
        func below(_ p: Int, _ positions: [Int]) -> Int {
            var lo = 0, hi = positions.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if positions[mid] < p { lo = mid + 1 } else { hi = mid }
            }
            return lo
        }
        var stay: [(old: Int, new: Int, key: StoreValue)] = []
        for (key, p) in old {
            guard let q = new[key], p - below(p, oldSorted) == q - below(q, newSorted) else { continue }
            stay.append((p, q, key))
        }
        // Stayers between the same untouched objects must keep their order among themselves.
        stay.sort { $0.old < $1.old }
        var keep = [Bool](repeating: true, count: stay.count)
        var settled = false
        while !settled {
            settled = true
            var last: Int?
            for i in stay.indices where keep[i] {
                if let j = last, stay[i].new < stay[j].new {
                    keep[i] = false
                    keep[j] = false
                    settled = false
                    last = nil
                } else {
                    last = i
                }
            }
        }
        var deletions: Set<Int> = Set(old.values), insertions: Set<Int> = Set(new.values)
        // Kept stayers are in increasing order on both sides (the loop above saw to it), so the
        // updates come out sorted by either position.
        var updates: [ListDifference.Update] = []
        for (i, s) in stay.enumerated() where keep[i] {
            deletions.remove(s.old)
            insertions.remove(s.new)
            if modified[s.key] != nil { updates.append(ListDifference.Update(old: s.old, new: s.new)) }
        }
        return ListDifference(deletions: deletions.sorted(), insertions: insertions.sorted(), updates: updates)
    }

    /// The key of each of a few slots, found by a look along a short array (cheaper than a
    /// hash per element of the results while there are only a few) or in a dictionary.
    struct SlotFinder {
        let few: [(key: StoreValue, slot: Int)]
        let many: [Int: StoreValue]

        init(_ items: [(key: StoreValue, slot: Int)]) {
            if items.count <= 8 {
                few = items
                many = [:]
            } else {
                few = []
                many = Dictionary(items.map { ($0.slot, $0.key) }, uniquingKeysWith: { a, _ in a })
            }
        }

        subscript(slot: Int) -> StoreValue? {
            if many.isEmpty {
                for item in few where item.slot == slot { return item.key }
                return nil
            }
            return many[slot]
        }
    }

    /// The order of the results: by slot, or by sort keys with ties in slot order (what the
    /// stable sort of a slot-ordered list gives).
    enum Order {
        case bySlot
        case sorted([(Row, Snapshot) -> StoreValue], [Bool])

        func values(_ row: Row, _ snapshot: Snapshot) -> [StoreValue] {
            guard case .sorted(let paths, _) = self else { return [] }
            return paths.map { $0(row, snapshot) }
        }

        /// Whether (`a`, `slotA`) goes before (`b`, `slotB`).
        func precedes(_ a: [StoreValue], _ slotA: Int, _ b: [StoreValue], _ slotB: Int) -> Bool {
            if case .sorted(_, let ascending) = self {
                for k in ascending.indices {
                    let c = sortCompare(a[k], b[k])
                    if c != 0 { return ascending[k] ? c < 0 : c > 0 }
                }
            }
            return slotA < slotB
        }

        /// Where an object goes in `slots` (in this order): a binary search, reading the rows
        /// it compares with.
        func position(of slot: Int, values: [StoreValue], in slots: [Int], table: TableState, snapshot: Snapshot) -> Int {
            var lo = 0, hi = slots.count
            while lo < hi {
                let mid = (lo + hi) / 2
                let other = slots[mid]
                let otherValues = table.row(other).map { self.values($0, snapshot) } ?? []
                if otherValues.count == values.count, precedes(otherValues, other, values, slot) { lo = mid + 1 } else { hi = mid }
            }
            return lo
        }
    }
}
