/// An array kept as chunks of ``chunkSize`` elements, each its own copy-on-write buffer.
///
/// A table's state is copied into every transaction and changed there: a plain array of
/// 100,000 rows would be copied whole (a retain of each row) by the first change, so a
/// one-object write would cost the whole table. Here a copy shares every chunk, and a change
/// copies the list of chunks and the one chunk it changes.
struct ChunkedArray<Element> {
    /// Elements per chunk (a power of two).
    static var chunkSize: Int { 512 }
    private static var shift: Int { 9 }

    private var chunks: [[Element]] = []
    /// The number of elements.
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }
    var indices: Range<Int> { 0..<count }

    subscript(position: Int) -> Element {
        get { chunks[position &>> Self.shift][position & (Self.chunkSize - 1)] }
        set { chunks[position &>> Self.shift][position & (Self.chunkSize - 1)] = newValue }
    }

    mutating func append(_ element: Element) {
        if count & (Self.chunkSize - 1) == 0 {
            var chunk: [Element] = []
            chunk.reserveCapacity(Self.chunkSize)
            chunk.append(element)
            chunks.append(chunk)
        } else {
            chunks[chunks.count - 1].append(element)
        }
        count += 1
    }

    /// Makes room in the list of chunks for `n` elements in all.
    mutating func reserveCapacity(_ n: Int) {
        chunks.reserveCapacity((n + Self.chunkSize - 1) / Self.chunkSize)
    }

    /// Calls `body` with each chunk in order and the position of its first element.
    func forEachChunk(_ body: (Int, UnsafeBufferPointer<Element>) throws -> Void) rethrows {
        for (c, chunk) in chunks.enumerated() {
            try chunk.withUnsafeBufferPointer { try body(c &<< Self.shift, $0) }
        }
    }
}

/// A dictionary kept as shards of at most about ``shardSize`` entries, each its own copy-on-write
/// dictionary, chosen by the high bits of a key's hash: as with ``ChunkedArray``, a change to
/// a copy copies the list of shards and the one shard it changes, not every entry.
struct ShardedDictionary<Key: Hashable, Value> {
    /// About how many entries a shard holds before the shards are multiplied by eight.
    static var shardSize: Int { 1_024 }

    private var shards: [[Key: Value]] = [[:]]
    /// log2 of the number of shards.
    private var bits = 0
    /// The number of entries.
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    @inline(__always)
    private func shard(of key: Key) -> Int {
        bits == 0 ? 0 : Int(truncatingIfNeeded: UInt(bitPattern: key.hashValue) &>> UInt(UInt.bitWidth - bits))
    }

    subscript(key: Key) -> Value? {
        get { shards[shard(of: key)][key] }
        _modify {
            let s = shard(of: key)
            let had = shards[s][key] != nil
            yield &shards[s][key]
            let has = shards[s][key] != nil
            if had != has {
                if has { added() } else { count -= 1 }
            }
        }
    }

    /// The value of `key`, changed in place (`defaultValue` first when there is none).
    subscript(key: Key, default defaultValue: @autoclosure () -> Value) -> Value {
        get { shards[shard(of: key)][key] ?? defaultValue() }
        _modify {
            let s = shard(of: key)
            let had = count
            if shards[s][key] == nil { count += 1 }
            yield &shards[s][key, default: defaultValue()]
            if count != had { grow() }
        }
    }

    /// Calls `body` with every entry, in no particular order.
    func forEach(_ body: (Key, Value) throws -> Void) rethrows {
        for shard in shards {
            for (key, value) in shard { try body(key, value) }
        }
    }

    private mutating func added() {
        count += 1
        grow()
    }

    /// Makes eight times as many shards (rehashing every entry) once they hold about
    /// ``shardSize`` each: a table filled in one transaction rehashes its keys about twice in
    /// all, not once per doubling.
    private mutating func grow() {
        guard count > shards.count * Self.shardSize, bits < 18 else { return }
        let old = shards
        bits += 3
        let perShard = 2 * count >> bits + 16
        shards = (0..<(1 << bits)).map { _ in Dictionary(minimumCapacity: perShard) }
        for shard in old {
            for (key, value) in shard { shards[self.shard(of: key)][key] = value }
        }
    }
}

extension ChunkedArray: Sendable where Element: Sendable {}
extension ShardedDictionary: Sendable where Key: Sendable, Value: Sendable {}
