import Foundation
import Streams
import Testing
import TestSupport
@testable import ObjectStore

/// A `.modified` write compares the new row with the stored one by their encodings, in place:
/// the fields it writes and reports must be exactly those whose values differ, whether the
/// stored row lies in the file's pages, was replaced since the open, or is held in memory.
@Suite(.resourceCheck) struct StoredRowComparisonTests {
    struct Reading: StoreObject, Equatable {
        static var primaryKey: KeyPath<Reading, Int> { \.id }
        var id: Int
        var value: Double
        var label: String
        var taken: Date
        var amount: Decimal
        var samples: [Double]
    }

    static func reading(_ i: Int) -> Reading {
        let value: Double = i == 7 ? 0.0 : Double(i) / 4
        let label = i == 7 ? "caf\u{E9}" : "r\(i)"
        let amount: Decimal = Decimal(i) / 10
        return Reading(id: i * 1_000 - 150_000, value: value, label: label, taken: Date(timeIntervalSince1970: Double(i)),
                       amount: amount, samples: [1, Double(i)])
    }

    static let readings: [Reading] = (0..<300).map { reading($0) }

    /// Where the stored rows lie when the write compares with them.
    enum Place: CaseIterable, Sendable {
        case memory, filePages, replacedSinceOpen
    }

    /// A store holding `readings`, its rows where `place` says.
    static func store(_ place: Place, url: URL) throws -> Store {
        switch place {
        case .memory:
            let store = try Store(configuration: .inMemory(identifier: "comparison-\(UUID().uuidString)"))
            try store.write { tx in try tx.add(readings) }
            return store
        case .filePages, .replacedSinceOpen:
            let store = try Store(configuration: .file(url: url, durability: .relaxed))
            try store.write { tx in try tx.add(readings) }
            try store.compact()   // the rows now lie in the file's pages
            if place == .replacedSinceOpen {
                try store.write { tx in try tx.add(readings, update: .all) }
            }
            return store
        }
    }

    /// The fields of `changed` a `.modified` write of it logs, and those an observer of the
    /// object is told of.
    static func written(_ store: Store, _ changed: Reading) throws -> (logged: [Int]?, told: [String]?) {
        let told = UncheckedBox<[String]?>(nil)
        let subscription = store.observe(Reading.self, forPrimaryKey: changed.id, on: ImmediateScheduler.instance).subscribe(onNext: { change in
            if case .change(_, let properties) = change { told.value = properties.map(\.name) }
        })
        defer { subscription.dispose() }
        let version = store.version
        try store.write { tx in try tx.add(changed, update: .modified) }
        guard store.version != version else { return (nil, told.value) }
        guard case .update(_, _, let fields, _)? = store._lastCommitLog.first else { return ([], told.value) }
        return (fields, told.value)
    }

    @Test(arguments: Place.allCases) func equalValuesWithOtherBytesAreNotWritten(_ place: Place) throws {
        let url = FileStoreSupport.temporaryFile()
        defer { FileStoreSupport.cleanUp(url) }
        let store = try Self.store(place, url: url)
        var reading = Self.readings[7]
        // -0.0 == 0.0, and "é" spelled as "e" and a combining accent equals "é": other bytes,
        // equal values.
        reading.value = -0.0
        reading.label = "cafe\u{301}"
        let (logged, told) = try Self.written(store, reading)
        #expect(logged == nil)
        #expect(told == nil)
        #expect(store.object(ofType: Reading.self, forPrimaryKey: reading.id)?.label == "caf\u{E9}")
    }

    @Test(arguments: Place.allCases) func exactlyTheFieldsThatDifferAreWrittenAndReported(_ place: Place) throws {
        let url = FileStoreSupport.temporaryFile()
        defer { FileStoreSupport.cleanUp(url) }
        let store = try Self.store(place, url: url)
        var reading = Self.readings[12]
        reading.label = "changed"
        reading.samples = [1, 3, 5]
        #expect(try Self.written(store, reading) == ([2, 5], ["label", "samples"]))
        var other = Self.readings[299]
        other.amount = Decimal(string: "29.91")!
        other.taken = Date(timeIntervalSince1970: -1)
        #expect(try Self.written(store, other) == ([3, 4], ["taken", "amount"]))
        #expect(try Self.written(store, Self.readings[40]) == (nil, nil))
        #expect(store.objects(Reading.self).count == Self.readings.count)
        #expect(store.object(ofType: Reading.self, forPrimaryKey: reading.id) == reading)
        #expect(store.object(ofType: Reading.self, forPrimaryKey: other.id) == other)
        #expect(store._checkInvariants())
    }

    /// A NaN equals nothing, itself included, so a NaN field is written each time, as a
    /// comparison of the values says (its bytes are the same).
    @Test(arguments: Place.allCases) func aNaNIsWrittenEachTime(_ place: Place) throws {
        let url = FileStoreSupport.temporaryFile()
        defer { FileStoreSupport.cleanUp(url) }
        let store = try Self.store(place, url: url)
        var reading = Self.readings[20]
        reading.value = Double.nan
        #expect(try Self.written(store, reading) == ([1], ["value"]))
        #expect(try Self.written(store, reading) == ([1], ["value"]))
        reading.value = 1
        reading.samples = [Double.nan]
        #expect(try Self.written(store, reading) == ([1, 5], ["value", "samples"]))
        #expect(try Self.written(store, reading) == ([5], ["samples"]))
    }

    /// Integer keys of every varint length (negative ones, and the extremes) are found in the
    /// key pages, and keys between them are not.
    @Test func integerKeysOfEveryLengthAreFoundInTheKeyPages() throws {
        let url = FileStoreSupport.temporaryFile()
        defer { FileStoreSupport.cleanUp(url) }
        var keys: [Int] = [Int.min, Int.max, 0, -1, 1]
        for shift in stride(from: 6, to: 63, by: 7) { keys += [1 << shift, (1 << shift) - 1, -(1 << shift), -(1 << shift) - 1] }
        keys += (0..<2_000).map { $0 * 37 - 20_000 }
        keys = Array(Set(keys))
        let store = try Store(configuration: .file(url: url, durability: .relaxed))
        try store.write { tx in
            try tx.add(keys.map { Reading(id: $0, value: Double($0 % 1_000), label: "k\($0)", taken: Date(timeIntervalSince1970: 0), amount: 1, samples: []) })
        }
        try store.compact()
        for key in keys { #expect(store.object(ofType: Reading.self, forPrimaryKey: key)?.label == "k\(key)") }
        let known = Set(keys)
        for key in [Int.min + 1, Int.max - 1, 2, -2, 1 << 62 + 1, -20_001, -19_999, 53_963] where !known.contains(key) {
            #expect(store.object(ofType: Reading.self, forPrimaryKey: key) == nil)
        }
        // A `.modified` write finds each stored object too: nothing is inserted.
        try store.write { tx in
            try tx.add(keys.map { Reading(id: $0, value: -1, label: "k\($0)", taken: Date(timeIntervalSince1970: 0), amount: 1, samples: []) },
                       update: .modified)
        }
        #expect(store.objects(Reading.self).count == keys.count)
        #expect(store._lastCommitLog.count == keys.filter { $0 % 1_000 != -1 }.count)
    }

    /// A `.modified` write over a row the key pages list under another key reports the damage
    /// and is not written, as a read of the key does (no read comes first here).
    @Test func aWriteOverARowThatDoesNotHoldItsKeyReportsTheDamage() throws {
        typealias S = FileStoreSupport
        let url = S.temporaryFile()
        defer { S.cleanUp(url) }
        let (bytes, page) = try S.snapshotWithAKeyNamingTheWrongRow(url)

        let store = try Store(configuration: .file(url: url, objectTypes: [Entry.self]))
        let damage = StoreError.corrupted(offset: page, reason: "a Entry key page names slot 1 for a key its row does not hold")
        #expect(throws: damage) {
            try store.write { tx in try tx.add(Entry(id: "k0", batch: 1, payload: "p1"), update: .modified) }
        }
        #expect(store.object(ofType: Entry.self, forPrimaryKey: "k1")?.payload == "p1")
        let untouched = S.bytes(url) == bytes
        #expect(untouched)
    }
}
