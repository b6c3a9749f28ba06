import Testing

/// Runs a generated test in rounds, each on a new store: `total` steps in rounds of at most
/// `roundLength`, round k seeded `firstSeed &+ k`. Each round returns its failures; the first
/// round that has any is recorded as one issue naming its seed and `label`, and ends the run.
///
///     guard let done = try runSeededRounds(total: 1_000, roundLength: 300, firstSeed: 7, label: "memory",
///                                          { seed, count in try round(seed, count) }) else { return }
///     // rounds seeded 7, 8, 9, 10 of 300, 300, 300, 100 steps; done == 1_000
///
/// - Parameters:
///   - total: The steps of the whole run.
///   - roundLength: The most steps of one round.
///   - firstSeed: The first round's seed.
///   - label: What the failure message names beside the seed (the backend, for example).
///   - round: Runs one round of `count` steps from `seed` and returns what went wrong.
/// - Returns: The steps run, or `nil` when a round failed (its issue is recorded).
public func runSeededRounds(total: Int, roundLength: Int, firstSeed: UInt64, label: String,
                            sourceLocation: SourceLocation = #_sourceLocation,
                            _ round: (_ seed: UInt64, _ count: Int) throws -> [String]) rethrows -> Int? {
    var done = 0, index: UInt64 = 0
    while done < total {
        let count = min(roundLength, total - done)
        let seed = firstSeed &+ index
        let failures = try round(seed, count)
        if !failures.isEmpty {
            Issue.record("seed \(seed) (\(label)): \(failures.prefix(8).joined(separator: "; "))", sourceLocation: sourceLocation)
            return nil
        }
        done += count
        index += 1
    }
    return done
}
