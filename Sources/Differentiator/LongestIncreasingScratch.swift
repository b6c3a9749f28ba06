/// Reusable buffers for finding one longest strictly increasing subsequence, so a diff of many
/// sections allocates them once.
@usableFromInline
struct LongestIncreasingScratch {
    /// Positions of the smallest tail for each length.
    @usableFromInline var tails: [Int] = []
    /// For each position, the previous position of the subsequence ending there, or -1.
    @usableFromInline var previous: [Int] = []

    @inlinable init() {}

    /// Sets `kept[p]` for every position `p` of `values` in one longest strictly increasing
    /// subsequence (among several, the one whose last element is the earliest tail of the
    /// greatest length, followed back through its predecessors).
    @inlinable
    mutating func mark(_ values: [Int], into kept: inout [Bool]) {
        var position = run(values)
        while position >= 0 {
            kept[position] = true
            position = previous[position]
        }
    }

    /// The same, for candidates: sets `kept[rows[p]]` for the positions `p` of the subsequence.
    @inlinable
    mutating func mark(_ values: [Int], rows: [Int], into kept: inout [Bool]) {
        var position = run(values)
        while position >= 0 {
            kept[rows[position]] = true
            position = previous[position]
        }
    }

    /// Runs the patience pass over `values`; returns the last position of the subsequence, or -1.
    @inlinable
    mutating func run(_ values: [Int]) -> Int {
        tails.removeAll(keepingCapacity: true)
        tails.reserveCapacity(values.count)
        previous.removeAll(keepingCapacity: true)
        previous.append(contentsOf: repeatElement(-1, count: values.count))
        for (position, value) in values.enumerated() {
            var low = 0, high = tails.count
            while low < high {
                let mid = (low + high) / 2
                if values[tails[mid]] < value { low = mid + 1 } else { high = mid }
            }
            if low > 0 { previous[position] = tails[low - 1] }
            if low == tails.count { tails.append(position) } else { tails[low] = position }
        }
        return tails.last ?? -1
    }
}
