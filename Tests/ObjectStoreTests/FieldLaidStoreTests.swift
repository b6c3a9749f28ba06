import Foundation
import Testing
import TestSupport
@testable import ObjectStore

/// A model with a field of each plain kind, optional ones included.
struct Specimen: StoreObject, Equatable {
    static var primaryKey: KeyPath<Specimen, Int> { \.id }
    static var indexedProperties: [String] { ["kind"] }
    var id: Int
    var kind: String
    var note: String?
    var weight: Double
    var seen: Date?
    var photo: Data
    var tag: UUID
    var alive: Bool
    var rank: Int?

    /// Kinds never empty (a page's first kind holds a byte to damage); notes long, not ASCII
    /// or missing; about one rank in 400 a ten-byte varint.
    static func make(_ id: Int, _ rng: inout SeededRandom) -> Specimen {
        let notes: [String?] = [nil, "", "sèche", "日本の苔", String(repeating: "long ", count: 30), "plain"]
        let rank: Int? = switch Int.random(in: 0..<400, using: &rng) {
        case 0: Bool.random(using: &rng) ? .max : .min
        case 1..<100: nil
        default: Int.random(in: -1_000...100_000, using: &rng)
        }
        return Specimen(id: id, kind: ["fern", "moss", "Æble", "lichen", "苔"].randomElement(using: &rng)!,
                        note: notes.randomElement(using: &rng)!, weight: [0.5, -0.0, 2, 1e300, -3.25].randomElement(using: &rng)!,
                        seen: Bool.random(using: &rng) ? nil : Date(timeIntervalSinceReferenceDate: Double(Int.random(in: 0...1_000_000, using: &rng))),
                        photo: Data((0..<Int.random(in: 0...20, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }),
                        tag: FieldLaidPages.uuid(&rng), alive: Bool.random(using: &rng), rank: rank)
    }
}

/// Store files whose row pages are laid out by field (format 5): written, reopened and checked
/// by a first count; format 4 files read and compacted into format 5; and a page whose
/// checksums are right but whose fields are not reported as damage at a first count or listing.
@Suite(.resourceCheck) struct FieldLaidStoreTests {
    typealias S = FileStoreSupport

    /// More objects than a snapshot checked whole at open holds.
    static let count = 7_500

    static func open(_ url: URL) throws -> Store {
        try Store(configuration: .file(url: url, objectTypes: [Specimen.self], autoCompaction: .never))
    }

    static func seed(_ rng: inout SeededRandom, url: URL) throws -> [Specimen] {
        let store = try open(url)
        let objects = (0..<count).map { Specimen.make($0, &rng) }
        try store.write { try $0.add(objects) }
        try store.compact()
        return objects
    }

    /// Reads every object, a count and an indexed query, against `expected`.
    static func checkReads(_ store: Store, _ expected: [Specimen], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(store.objects(Specimen.self).count == expected.count, sourceLocation: sourceLocation)
        #expect(store.objects(Specimen.self).toArray() == expected, sourceLocation: sourceLocation)
        #expect(Set(store.objects(Specimen.self).filter("kind == %@", "Æble").map(\.id)) == Set(expected.filter { $0.kind == "Æble" }.map(\.id)),
                sourceLocation: sourceLocation)
        #expect(store.objects(Specimen.self).filter("rank == nil").count == expected.filter { $0.rank == nil }.count,
                sourceLocation: sourceLocation)
    }

    /// A `.modified` write of one object in 41, half of them unchanged: the write compares each
    /// with its stored row, and logs the changed ones only.
    static func writeModified(_ store: Store, _ objects: inout [Specimen], _ rng: inout SeededRandom,
                              sourceLocation: SourceLocation = #_sourceLocation) throws {
        var changed = 0
        try store.write { tx in
            for i in stride(from: 3, to: objects.count, by: 41) {
                let object = i % 2 == 0 ? objects[i] : Specimen.make(objects[i].id, &rng)
                if object != objects[i] { changed += 1 }
                try tx.add(object, update: .modified)
                objects[i] = object
            }
        }
        #expect(changed > 50 && store._lastCommitLog.count == changed, sourceLocation: sourceLocation)
    }

    /// A file written now is format 5. Reopened, its first count checks every page (the quick
    /// check accepts each, those holding a ten-byte varint too) without keeping them, every
    /// object reads back, and a `.modified` write compares objects with their stored rows.
    @Test func aFileWrittenNowIsFormatFiveAndReadsBack() throws {
        var rng = SeededRandom(seed: 61)
        let url = S.temporaryFile()
        defer { S.cleanUp(url) }
        let objects = try Self.seed(&rng, url: url)
        let bytes = S.bytes(url)
        #expect(bytes[8] == 5 && bytes.count > FileFormat.checkWholeSnapshotUpTo)
        let store = try Self.open(url)
        let base = try #require(store.core.snapshot().tables["Specimen"]?.base)
        #expect(base.fieldLaid && !base.isAllChecked && base.rowPages.count == 59)
        let quick = try #require(FileFormat.RowRule(base).quick)
        var wide = 0   // pages holding a ten-byte varint
        for (page, ref) in base.rowPages.enumerated() {
            let record = try base.file.readPage(ref, kind: .rowPage)
            let rows = objects[(page * 128)..<min(objects.count, page * 128 + 128)]
            let fits = record.withUnsafeBytes { raw in
                quick.withUnsafeBufferPointer { FieldLaidRows.fits(raw, from: FieldLaidPages.bodyStart, expected: rows.count, rules: $0) }
            }
            #expect(fits, "page \(page)")
            if rows.contains(where: { $0.rank == .max || $0.rank == .min }) { wide += 1 }
        }
        #expect(wide > 5 && wide < base.rowPages.count)
        #expect(store.objects(Specimen.self).count == Self.count)
        #expect(base.isAllChecked && StoredIndexTests.cachedRowPages(base) == 0)
        Self.checkReads(store, objects)
        #expect(base.file.damage.error == nil)
        var written = objects
        try Self.writeModified(store, &written, &rng)
        Self.checkReads(store, written)
        #expect(store._checkInvariants())
    }

    /// A format 4 file (rows laid out one after another) opens in place, counts, lists and
    /// answers queries, takes a write that compares stored rows, and its next compaction writes
    /// format 5 with the same objects.
    @Test func aFormatFourFileIsReadAndCompactedIntoFormatFive() throws {
        var rng = SeededRandom(seed: 62)
        let url = S.temporaryFile()
        defer { S.cleanUp(url) }
        var objects = try Self.seed(&rng, url: url)
        let old = S.inFormat(4, S.bytes(url))
        #expect(old[8] == 4 && old.count > FileFormat.checkWholeSnapshotUpTo)
        S.write(old, to: url)
        do {
            let store = try Self.open(url)
            let base = try #require(store.core.snapshot().tables["Specimen"]?.base)
            #expect(!base.fieldLaid && base.storedIndexes.count == 1)
            Self.checkReads(store, objects)
            try Self.writeModified(store, &objects, &rng)
            Self.checkReads(store, objects)
            #expect(S.bytes(url)[8] == 4)
            try store.compact()
            #expect(S.bytes(url)[8] == 5)
            Self.checkReads(store, objects)
        }
        let store = try Self.open(url)
        #expect(store.core.snapshot().tables["Specimen"]?.base?.fieldLaid == true)
        Self.checkReads(store, objects)
        #expect(store._checkInvariants())
    }

    /// How a row page of a format 5 file is damaged, its checksums then made right.
    enum Damage: String, CaseIterable {
        /// A string's first byte made 0xFF (not UTF-8).
        case notUTF8
        /// A string's tag made data's (the same framing).
        case wrongKind
        /// The last field's end one past the record.
        case fieldEnds
    }

    /// A row page with right checksums and a damaged field, in a snapshot too big to be checked
    /// at open, is reported at the first count or listing with the page's offset; the listing
    /// leaves out what cannot be read (the damaged row, or the whole page when it does not turn
    /// round), which lookups by key do not find either; every other object reads, also through
    /// results evaluated before the damage was found, and writes stop.
    @Test(arguments: Damage.allCases)
    func aDamagedFieldIsReportedAtTheFirstCountOrListing(damage: Damage) throws {
        var rng = SeededRandom(seed: 63)
        let url = S.temporaryFile()
        defer { S.cleanUp(url) }
        let objects = try Self.seed(&rng, url: url)
        let ref = try #require(try Self.open(url).core.snapshot().tables["Specimen"]?.base?.rowPages[2])
        let field = try ObjectSchema.of(Specimen.self).fields.firstIndex { $0.name == "kind" }!
        var bytes = S.bytes(url)
        let record = Array(bytes[ref.offset..<ref.offset + FileFormat.recordHeaderSize + ref.length])
        let s = try #require(record.withUnsafeBytes { FieldLaidRows.Sections($0, from: FieldLaidPages.bodyStart, expected: 128) })
        let reason: String, damagedRow: Int
        switch damage {
        case .notUTF8:
            let tails = record.withUnsafeBytes { s.headsEnd(field, $0) }
            bytes[ref.offset + tails] = 0xFF
            (reason, damagedRow) = ("row 0 of a Specimen page: invalid UTF-8 in a string", 256)
        case .wrongKind:
            let tag = record.withUnsafeBytes { s.start(field, $0) } + 5
            #expect(bytes[ref.offset + tag] == ByteWriter.tagString)
            bytes[ref.offset + tag] = ByteWriter.tagData
            (reason, damagedRow) = ("row 5 of a Specimen page: Specimen.kind holds data, not string", 261)
        case .fieldEnds:
            let last = s.table + 8 * s.fields - 4
            bytes[ref.offset + last] &+= 1
            (reason, damagedRow) = ("a row page's counts or field ends do not hold up", 300)
        }
        S.stampChecksums(&bytes, record: ref.offset)
        S.write(bytes, to: url)
        let store = try Self.open(url)
        // Results over the damaged page's good rows, evaluated before the damage is found.
        let early = store.objects(Specimen.self).filter("id >= 300 AND id < 310")
        let readBefore = damage == .fieldEnds ? [] : Array(objects[300..<310])
        #expect(early.toArray() == readBefore)
        let expected = StoreError.corrupted(offset: ref.offset, reason: reason)
        let unreadable = damage == .fieldEnds ? 256..<384 : damagedRow..<damagedRow + 1
        let left = objects.filter { !unreadable.contains($0.id) }
        if damage == .wrongKind {
            #expect(store.objects(Specimen.self).toArray() == left)
            #expect(store.objects(Specimen.self).count == left.count)
        } else {
            #expect(store.objects(Specimen.self).count == left.count)
            #expect(store.objects(Specimen.self).toArray() == left)
        }
        #expect(store.core.snapshot().tables["Specimen"]?.base?.file.damage.error == expected)
        for id in [0, 255, 384, Self.count - 1] {
            #expect(store.object(ofType: Specimen.self, forPrimaryKey: id) == objects[id])
        }
        #expect(store.object(ofType: Specimen.self, forPrimaryKey: damagedRow) == nil)
        // By key, the page's objects read exactly as the listing has them.
        #expect((256..<384).filter { store.object(ofType: Specimen.self, forPrimaryKey: $0) == nil } == Array(unreadable))
        #expect((0..<early.count).map { early[$0] } == readBefore)
        #expect(throws: expected) { try store.write { try $0.add(Specimen.make(-1, &rng)) } }
        #expect(S.bytes(url) == bytes)
    }
}
