import Foundation
import Testing
import TestSupport
@testable import ObjectStore

/// Format 5's row pages (`FieldLaidRows`): a page written from row-laid rows turns round into
/// the same bytes, and the quick check of a page accepts it only when every row it gives is
/// accepted by the row-by-row check, on random pages and on thousands of damaged ones.
@Suite(.resourceCheck) struct FieldLaidRowsTests {
    typealias P = FieldLaidPages

    /// Pages of 1 to 128 rows of random schemas, with values of every kind the encoder writes
    /// (ten-byte varints, NaNs, strings of two-byte lengths, nested lists, embedded values,
    /// fields of mixed kinds): turned round, each gives its rows' encodings byte for byte, and
    /// `rowItems` gives the same as a format 4 page of those rows gives.
    @Test func aPageTurnsRoundIntoItsRowsByteForByte() throws {
        var rng = SeededRandom(seed: 51)
        var tags = Set<UInt8>()
        for round in 0..<300 {
            let columns = P.columns(&rng, [.plain, .rules, .any][round % 3])
            let count = round < 4 ? [1, 2, 127, 128][round] : Int.random(in: 1...128, using: &rng)
            let rows = (0..<count).map { _ in P.row(columns, wide: true, &rng) }
            let page = try P.page(rows, fieldCount: columns.count)
            let turned = try page.record.withUnsafeBytes { try FieldLaidRows.rowMajor($0, from: P.bodyStart, expected: count) }
            #expect(turned.bytes == page.encoded, "round \(round)")
            #expect(turned.offsets == page.offsets, "round \(round)")
            let items = try FileFormat.rowItems(page.record, at: 0, expected: count, fieldLaid: true)
            #expect(items.bytes == page.encoded && items.offsets == page.offsets)
            // The same rows in a format 4 page: its own bytes, each row where its offsets say.
            var old = ByteWriter()
            old.bytes = page.record[..<P.bodyStart].map { $0 }
            FileFormat.writeItems(count, into: &old) { w, i in w.row(rows[i]) }
            let oldItems = try FileFormat.rowItems(old.bytes, at: 0, expected: count, fieldLaid: false)
            #expect(oldItems.bytes == old.bytes)
            #expect((0..<count).allSatisfy { Array(oldItems.bytes[oldItems.offsets[$0]..<oldItems.offsets[$0 + 1]]) ==
                                                Array(page.encoded[page.offsets[$0]..<page.offsets[$0 + 1]]) })
            // The page read with another row count is not these rows.
            for wrong in [count - 1, count + 1] {
                #expect(throws: FileFormatError.self) {
                    try page.record.withUnsafeBytes { try FieldLaidRows.rowMajor($0, from: P.bodyStart, expected: wrong) }
                }
            }
            for row in rows { for value in row { var w = ByteWriter(); w.value(value); tags.insert(w.bytes[0]) } }
        }
        #expect(tags == Set(0...11))   // every tag the encoder writes
    }

    /// A row whose bytes are not the page's field count of values is refused, and nothing of
    /// the page is written.
    @Test func aRowThatIsNotItsFieldsIsNotWritten() throws {
        var good = ByteWriter()
        good.row([.int(1), .string("a")])
        let bad: [[UInt8]] = [[1, ByteWriter.tagInt, 2], [2, ByteWriter.tagInt, 2], [2, ByteWriter.tagInt, 2, 12],
                              [2, ByteWriter.tagInt, 2, ByteWriter.tagString, 5, 0x61], good.bytes + [0]]
        for row in bad {
            var w = ByteWriter()
            w.bytes = [7]
            #expect(throws: FileFormatError.self, "\(row)") {
                try FieldLaidRows.write(2, fieldCount: 2, into: &w) { $0 == 0 ? good.bytes[...] : row[...] }
            }
            #expect(w.bytes == [7])
        }
    }

    /// Pages whose values fit their fields (nulls in optional fields, long and non-ASCII
    /// strings, data, ten-byte varints, lists, fields of mixed kinds) pass the quick check; with
    /// one value of a kind its field does not allow (a list's element too), the page still
    /// turns round, the quick check refuses it, and so does the row-by-row check, from that row.
    @Test func theQuickCheckAcceptsPagesThatFitAndRefusesAWrongKind() throws {
        var rng = SeededRandom(seed: 52)
        var pagesWith: [String: Int] = [:]   // the pages accepted holding each kind of value that matters
        for round in 0..<400 {
            let columns = P.columns(&rng, round % 2 == 0 ? .plain : .rules)
            let rules = columns.map { $0.rule! }
            var rows = (0..<Int.random(in: 1...128, using: &rng)).map { _ in P.row(columns, wide: round % 4 == 1, &rng) }
            let page = try P.page(rows, fieldCount: columns.count)
            #expect(fits(page.record, rows.count, rules), "round \(round): \(columns.map(\.check))")
            #expect(P.rowsFit(page.encoded, page.offsets, columns))
            var features = Set(rows.flatMap { zip($0, columns).compactMap(Self.feature) })
            for f in columns.indices where Set(rows.compactMap { $0[f] == .null ? nil : Self.tag($0[f]) | 3 }).count > 1 {   // false and true alike
                features.insert("field of mixed kinds")
            }
            for feature in features { pagesWith[feature, default: 0] += 1 }

            // One value of a kind its field refuses.
            let k = Int.random(in: rows.indices, using: &rng), f = Int.random(in: columns.indices, using: &rng)
            rows[k][f] = wrongValue(for: columns[f], &rng)
            let wrong = try P.page(rows, fieldCount: columns.count)
            #expect(!fits(wrong.record, rows.count, rules), "round \(round): \(rows[k][f]) in \(columns[f].check)")
            let turned = try wrong.record.withUnsafeBytes { try FieldLaidRows.rowMajor($0, from: P.bodyStart, expected: rows.count) }
            #expect(!P.rowsFit(turned.bytes, turned.offsets, columns))
            #expect(P.plainRowsAccepted(turned.bytes, turned.offsets, rules) == k)
        }
        #expect(pagesWith.count == 10 && pagesWith.values.allSatisfy { $0 >= 20 }, "\(pagesWith)")
    }

    static func tag(_ value: StoreValue) -> UInt8 {
        var w = ByteWriter()
        w.value(value)
        return w.bytes[0]
    }

    /// What makes a value worth counting among the pages the quick check accepts.
    static func feature(_ value: StoreValue, _ column: P.Column) -> String? {
        switch (value, column.check) {
        case (.null, .link): return nil
        case (.null, _): return "null in an optional field"
        case (.list, _): return "list"
        case (.int(let v), _) where v >= 1 << 62 || v < -(1 << 62): return "ten-byte varint"
        case (.string(let text), _) where text.utf8.count >= 128: return "string of 128 bytes or more"
        case (.string(let text), _) where !text.utf8.allSatisfy({ $0 < 0x80 }): return "non-ASCII string"
        case (.data, _): return "data"
        case (.int, .double): return "integer in a double field"
        case (.string, .link), (.uuid, .link): return "link by string or UUID"
        case (.uuid, _): return "UUID"
        default: return nil
        }
    }

    func fits(_ record: [UInt8], _ expected: Int, _ rules: [TagRule]) -> Bool {
        let guarded = GuardedRecord(record)
        return rules.withUnsafeBufferPointer { FieldLaidRows.fits(guarded.bytes, from: P.bodyStart, expected: expected, rules: $0) }
    }

    /// A value of a kind `column` does not hold (null where it may not be null).
    func wrongValue(for column: P.Column, _ rng: inout SeededRandom) -> StoreValue {
        var choices: [StoreValue]
        switch column.check {
        case .int: choices = [.string("1"), .double(1), .bool(true), .date(Date(timeIntervalSinceReferenceDate: 1))]
        case .double: choices = [.string("x"), .date(Date(timeIntervalSinceReferenceDate: 1)), .uuid(P.uuid(&rng))]
        case .bool: choices = [.int(1), .int(0), .string("true")]
        case .string: choices = [.data(Data("text".utf8)), .data(Data()), .int(5)]
        case .date: choices = [.double(1), .int(7)]
        case .data: choices = [.string("bytes"), .string(""), .uuid(P.uuid(&rng))]
        case .uuid: choices = [.int(1), .data(Data(repeating: 1, count: 16)), .string("E621E1F8-C36C-495A-93FC-0C247A3E6E5F")]
        default: choices = [.double(1), .bool(false), .date(Date(timeIntervalSinceReferenceDate: 0))]   // a link
        }
        if !column.optional, !column.check.isLink { choices.append(.null) }
        if case .list(let element) = column.check {
            // A list holding an element its element check refuses.
            let inner = wrongValue(for: P.Column(check: element, optional: true, flavour: 0), &rng)
            choices = [.int(1), .string("[]"), .list([inner]), .list([.int(0), inner]), .list([.list([])])]
        } else {
            choices.append(.list([.int(1)]))
        }
        choices += [.map(["a": .int(1)]), .decimal(Decimal(string: "1.5")!)]
        return choices.randomElement(using: &rng)!
    }

    /// Thousands of pages, each damaged (bytes flipped or set to 0x00, 0x7F, 0x80, 0xFF, the
    /// page cut short, a field's end in the table moved, bytes inserted or removed with the
    /// table made to agree, tags changed, stop bytes of varints changed, bytes swapped; or, half
    /// the time, changes that keep the page framed: bytes of one string given to the next, a
    /// varint's stop bit moved to the next byte, a tag made another of the same framing): turning
    /// a page round never traps (it returns rows or throws), and whenever the quick check
    /// accepts a page (which never reads past its record), the page turns round and every row
    /// it gives passes the row-by-row check and `PlainRows`. The damage both passes and fails
    /// the quick check many times, so neither half of the test is empty.
    @Test func aPageTheQuickCheckAcceptsGivesRowsThatAllFit() throws {
        var rng = SeededRandom(seed: 53)
        var tried = 0, accepted = 0, acceptedChanged = 0, acceptedWithLists = 0, refused = 0, refusedButFit = 0, notTurned = 0
        for round in 0..<500 {
            // Three pages in five of fields of one plain kind each, one with lists and mixed kinds,
            // one with fields the quick check is not given (it is not called then).
            let columns = P.columns(&rng, [.plain, .plain, .plain, .rules, .any][round % 5])
            let rules = columns.compactMap(\.rule)
            let count = Int.random(in: 1...(round % 2 == 0 ? 16 : 128), using: &rng)
            let rows = (0..<count).map { _ in P.row(columns, wide: round % 4 == 1, &rng) }
            let page = try P.page(rows, fieldCount: columns.count)
            for _ in 0..<8 {
                var record = page.record
                for _ in 0..<[1, 1, 1, 1, 2, 2, 3].randomElement(using: &rng)! { Self.damage(&record, expected: count, &rng) }
                tried += 1
                let guarded = GuardedRecord(record)
                let turned = try? FieldLaidRows.rowMajor(guarded.bytes, from: P.bodyStart, expected: count)
                if turned == nil { notTurned += 1 }
                guard rules.count == columns.count else { continue }
                let fits = rules.withUnsafeBufferPointer { FieldLaidRows.fits(guarded.bytes, from: P.bodyStart, expected: count, rules: $0) }
                if fits {
                    accepted += 1
                    if record != page.record { acceptedChanged += 1 }
                    if round % 5 == 3, record != page.record { acceptedWithLists += 1 }
                    guard let turned else {
                        Issue.record("round \(round): the quick check accepts a page that does not turn round")
                        continue
                    }
                    #expect(P.rowsFit(turned.bytes, turned.offsets, columns), "round \(round)")
                    #expect(P.plainRowsAccepted(turned.bytes, turned.offsets, rules) == count, "round \(round)")
                } else {
                    refused += 1
                    if let turned, P.rowsFit(turned.bytes, turned.offsets, columns) { refusedButFit += 1 }
                }
            }
        }
        print("FieldLaidRows damage: \(tried) pages, quick check accepted \(accepted) (\(acceptedChanged) changed, \(acceptedWithLists) of lists and mixed kinds), refused \(refused) (\(refusedButFit) whose rows fit), \(notTurned) did not turn round")
        #expect(tried == 4_000)
        #expect(acceptedChanged > 200 && acceptedWithLists > 20 && refused > 1_000 && refused - refusedButFit > 1_000 && notTurned > 500)
    }

    /// One random change to a page (its record: header, kind byte, body).
    static func damage(_ record: inout [UInt8], expected: Int, _ rng: inout SeededRandom) {
        let start = P.bodyStart
        let s = record.withUnsafeBytes { FieldLaidRows.Sections($0, from: start, expected: expected) }
        // A byte range to aim at: one field's tags, heads or tails (when the table holds up),
        // else the body.
        func target() -> Range<Int> {
            guard let s, Int.random(in: 0..<4, using: &rng) != 0 else { return start..<record.count }
            let ranges = record.withUnsafeBytes { raw -> [Range<Int>] in
                let f = Int.random(in: 0..<s.fields, using: &rng)
                let tags = s.start(f, raw), headsEnd = s.headsEnd(f, raw), tailsEnd = s.tailsEnd(f, raw)
                return [tags..<tags + s.rows, tags + s.rows..<headsEnd, headsEnd..<tailsEnd].filter { !$0.isEmpty }
            }
            return ranges.randomElement(using: &rng) ?? start..<record.count
        }
        func end(_ e: Int) -> Int { s!.table + 4 * e }
        func readEnd(_ e: Int) -> Int { record[end(e)..<end(e) + 4].reversed().reduce(0) { $0 << 8 | Int($1) } }
        func writeEnd(_ e: Int, _ value: Int) {
            for b in 0..<4 { record[end(e) + b] = UInt8(truncatingIfNeeded: value >> (8 * b)) }
        }
        let aim = target()
        let i = Int.random(in: aim, using: &rng)
        // Half the time a change that keeps the page framed (two strings' lengths, two varints'
        // lengths, a tag of the same framing), which only the values can tell.
        if let s, Bool.random(using: &rng) {
            for _ in 0..<20 where reframe(&record, s, &rng) { return }
        }
        switch Int.random(in: 0..<10, using: &rng) {
        case 0:
            record[i] ^= UInt8.random(in: 1...255, using: &rng)
        case 1:
            record[i] = [0x00, 0x01, 0x02, 0x03, 0x7F, 0x80, 0x81, 0xFF].randomElement(using: &rng)!
        case 2:
            // A stop byte of a varint (or any byte under 0x80) made another.
            if record[i] < 0x80 { record[i] = UInt8.random(in: 0...0x7F, using: &rng) } else { record[i] &-= 0x80 }
        case 3:
            // Cut short, the last end in the table made to agree half the time.
            let cut = min(Int.random(in: 1...16, using: &rng), record.count - start - 1)
            record.removeLast(cut)
            if let s, end(2 * s.fields) <= record.count, Bool.random(using: &rng) { writeEnd(2 * s.fields - 1, readEnd(2 * s.fields - 1) - cut) }
        case 4:
            // A field's end moved.
            guard let s else {
                record[i] = 0x80
                return
            }
            let e = Int.random(in: 0..<2 * s.fields, using: &rng)
            writeEnd(e, max(0, readEnd(e) + Int.random(in: -8...8, using: &rng)))
        case 5, 6:
            // Bytes inserted or removed, the ends after them moved to agree.
            let n = Int.random(in: 1...4, using: &rng)
            let insert = Bool.random(using: &rng)
            guard let s, i >= s.itemsStart, insert || i + n <= record.count else {
                record.insert(0x80, at: i)
                return
            }
            let at = i - s.itemsStart
            if insert {
                record.insert(contentsOf: (0..<n).map { _ in UInt8.random(in: 0...0x85, using: &rng) }, at: i)
            } else {
                record.removeSubrange(i..<i + n)
            }
            for e in 0..<2 * s.fields {
                let old = readEnd(e)
                if insert, old > at || (old == at && Bool.random(using: &rng)) { writeEnd(e, old + n) }
                if !insert, old > at { writeEnd(e, max(at, old - n)) }
            }
        case 7:
            // A tag changed.
            guard let s else {
                record[i] = ByteWriter.tagString
                return
            }
            let f = Int.random(in: 0..<s.fields, using: &rng)
            let t = record.withUnsafeBytes { s.start(f, $0) } + Int.random(in: 0..<s.rows, using: &rng)
            record[t] = Int.random(in: 0..<8, using: &rng) == 0 ? UInt8.random(in: 0...255, using: &rng) : UInt8.random(in: 0...11, using: &rng)
        case 8:
            let other = target()
            record.swapAt(i, Int.random(in: other, using: &rng))
        default:
            // A byte of the counts before the table.
            let j = Int.random(in: start..<min(record.count, s?.table ?? start + 2), using: &rng)
            record[j] = [0x00, 0x01, 0x80, 0xFF, record[j] &+ 1, record[j] &- 1].randomElement(using: &rng)!
        }
    }

    /// A change to one field of a page that keeps its framing: bytes of one string given to
    /// the next (a character of several bytes may be split), a stop bit moved to the next byte
    /// (a varint may grow past ten bytes), or a tag made another of the same framing.
    /// Returns whether it changed a byte.
    static func reframe(_ record: inout [UInt8], _ s: FieldLaidRows.Sections, _ rng: inout SeededRandom) -> Bool {
        let f = Int.random(in: 0..<s.fields, using: &rng)
        let (tags, headsEnd) = record.withUnsafeBytes { (s.start(f, $0), s.headsEnd(f, $0)) }
        let heads = tags + s.rows..<headsEnd
        let k = Int.random(in: 0..<s.rows, using: &rng)
        switch Int.random(in: 0..<3, using: &rng) {
        case 0:
            // Lengths of one byte each: move up to 3 bytes from one string to the next.
            let strings = record[tags..<tags + s.rows].filter { [ByteWriter.tagString, ByteWriter.tagData].contains($0) }.count
            guard heads.count == strings, heads.count >= 2, record[heads].allSatisfy({ $0 < 0x80 }) else { return false }
            let a = Int.random(in: heads.lowerBound..<heads.upperBound - 1, using: &rng)
            let d = Int.random(in: 1...3, using: &rng)
            guard record[a] >= d, record[a + 1] + UInt8(d) < 0x80 else { return false }
            record[a] -= UInt8(d)
            record[a + 1] += UInt8(d)
        case 1:
            // A stop byte of a varint and the byte after it swap their high bits.
            guard heads.count >= 2 else { return false }
            let j = Int.random(in: heads.lowerBound..<heads.upperBound - 1, using: &rng)
            guard (record[j] < 0x80) != (record[j + 1] < 0x80) else { return false }
            record[j] ^= 0x80
            record[j + 1] ^= 0x80
        default:
            let same: [UInt8: [UInt8]] = [0: [1, 2], 1: [0, 2], 2: [0, 1], 4: [6], 6: [4], 5: [7, 9], 7: [5, 9], 9: [5, 7]]
            guard let others = same[record[tags + k]] else { return false }
            record[tags + k] = others.randomElement(using: &rng)!
        }
        return true
    }
}
