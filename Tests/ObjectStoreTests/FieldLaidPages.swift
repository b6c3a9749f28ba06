import Foundation
import TestSupport
@testable import ObjectStore
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Random pages laid out by field for `FieldLaidRowsTests`: schemas, rows of values of every
/// kind the encoder writes, the pages written from them, damage done to those pages, and the
/// row-by-row check a page's rows must pass.
enum FieldLaidPages {
    /// Where a page's body starts in its record: after the record header and the kind byte.
    static let bodyStart = FileFormat.recordHeaderSize + 1

    /// A field of a random schema: the check a store makes of its values, whether it may be
    /// null, and which of the kinds the check allows its values are drawn from.
    struct Column {
        let check: ValueCheck
        let optional: Bool
        /// 0: the field's own kind; 1: the other kind its check allows (a double field's
        /// integers, a link's string keys); 2: a link's UUID keys; 3: any kind the check allows.
        let flavour: Int

        var rule: TagRule? { TagRule(check, optional: optional) }
    }

    /// A page as a whole record (a zeroed record header, the kind byte, the body), with the
    /// row-laid encodings it was written from and where each starts (one past the last included).
    struct Page {
        let record: [UInt8]
        let encoded: [UInt8]
        let offsets: [Int]
    }

    static func page(_ rows: [Row], fieldCount: Int) throws -> Page {
        var encoded = ByteWriter()
        var offsets = [0]
        for row in rows {
            encoded.row(row)
            offsets.append(encoded.bytes.count)
        }
        var w = ByteWriter()
        w.bytes = [UInt8](repeating: 0, count: FileFormat.recordHeaderSize) + [FileFormat.Kind.rowPage.rawValue]
        try FieldLaidRows.write(rows.count, fieldCount: fieldCount, into: &w) { encoded.bytes[offsets[$0]..<offsets[$0 + 1]] }
        return Page(record: w.bytes, encoded: encoded.bytes, offsets: offsets)
    }

    // MARK: Schemas and values

    /// The checks of fields of one plain kind (and nulls).
    static var plainChecks: [ValueCheck] { [.int, .double, .bool, .string, .date, .data, .uuid, .link] }

    /// Which fields a random schema has.
    enum Mode {
        /// Fields of one plain kind each (and nulls): the quick check tests them a run at a time.
        case plain
        /// Lists of plain kinds too, and fields of mixed kinds (a double field's integers beside
        /// its doubles, a link's keys of several kinds): every field has a `TagRule`.
        case rules
        /// Decimals, embedded values, lists of lists too: fields with no `TagRule`.
        case any
    }

    /// 1 to 12 fields.
    static func columns(_ rng: inout SeededRandom, _ mode: Mode) -> [Column] {
        let lists: [ValueCheck] = [.list(.int), .list(.string), .list(.link), .list(.double), .list(.uuid)]
        let checks: [ValueCheck] = switch mode {
        case .plain: plainChecks
        case .rules: plainChecks + lists
        case .any: plainChecks + lists + [.decimal, .any, .list(.list(.any)), .decimal]
        }
        return (0..<Int.random(in: 1...12, using: &rng)).map { _ in
            let check = checks.randomElement(using: &rng)!
            let flavours: Int
            switch check {
            case .double: flavours = mode == .plain ? 2 : 4
            case .link: flavours = mode == .plain ? 3 : 4
            default: flavours = 1
            }
            return Column(check: check, optional: Bool.random(using: &rng), flavour: Int.random(in: 0..<flavours, using: &rng))
        }
    }

    /// A row of `columns`; `wide` lets integers take ten-byte varints (magnitudes of 2⁶² and more).
    static func row(_ columns: [Column], wide: Bool, _ rng: inout SeededRandom) -> Row {
        columns.map { column in
            if column.optional || column.check.isLink, Int.random(in: 0..<4, using: &rng) == 0 { return .null }
            return value(column.check, flavour: column.flavour, wide: wide, &rng)
        }
    }

    static func value(_ check: ValueCheck, flavour: Int, wide: Bool, depth: Int = 0, _ rng: inout SeededRandom) -> StoreValue {
        let pick = flavour == 3 ? Int.random(in: 0..<3, using: &rng) : flavour
        switch check {
        case .int: return .int(int(&rng, wide: wide))
        case .double: return pick == 1 ? .int(int(&rng, wide: wide)) : .double(double(&rng))
        case .bool: return .bool(Bool.random(using: &rng))
        case .string: return .string(string(&rng))
        case .date: return .date(Date(timeIntervalSinceReferenceDate: double(&rng)))
        case .data: return .data(data(&rng))
        case .uuid: return .uuid(uuid(&rng))
        case .link: return [.int(int(&rng, wide: wide)), .string(string(&rng)), .uuid(uuid(&rng))][pick]
        case .decimal:
            let texts = ["0", "12.5", "-0.001", "123456789012345678901234567890", "-7", "3.14159"]
            return [.decimal(Decimal(string: texts.randomElement(using: &rng)!)!), .int(int(&rng, wide: wide)), .double(1.5)][pick]
        case .list(let element):
            guard depth < 3 else { return .list([]) }
            return .list((0..<Int.random(in: 0...4, using: &rng)).map { _ in
                Int.random(in: 0..<5, using: &rng) == 0 ? .null
                    : value(element, flavour: 3, wide: wide, depth: depth + 1, &rng)
            })
        case .any:
            let kinds: [ValueCheck] = [.int, .double, .bool, .string, .date, .data, .uuid, .decimal, .list(.any)]
            if depth < 3, Int.random(in: 0..<6, using: &rng) == 0 {
                return .map(["a": value(.any, flavour: 3, wide: wide, depth: depth + 1, &rng),
                             "ключ": value(.any, flavour: 3, wide: wide, depth: depth + 1, &rng)])
            }
            if Int.random(in: 0..<10, using: &rng) == 0 { return .null }
            return value(kinds.randomElement(using: &rng)!, flavour: 3, wide: wide, depth: depth + 1, &rng)
        }
    }

    /// Integers of one to nine bytes as varints; of ten with `wide` (the ends of the range).
    static func int(_ rng: inout SeededRandom, wide: Bool) -> Int64 {
        switch Int.random(in: 0..<10, using: &rng) {
        case 0..<5: return Int64.random(in: -70...200, using: &rng)
        case 5..<8: return Int64.random(in: -(1 << 62)..<(1 << 62), using: &rng) >> Int64.random(in: 0...60, using: &rng)
        default:
            guard wide else { return Int64.random(in: -(1 << 62)..<(1 << 62), using: &rng) }
            return [Int64.min, Int64.max, Int64.min + 1, Int64.max - 1, 1 << 62, -(1 << 62) - 1].randomElement(using: &rng)!
        }
    }

    static func double(_ rng: inout SeededRandom) -> Double {
        switch Int.random(in: 0..<3, using: &rng) {
        case 0: return [0, -0.0, .nan, -.nan, .infinity, -.infinity, .greatestFiniteMagnitude, .leastNonzeroMagnitude, 1.5]
            .randomElement(using: &rng)!
        case 1: return Double(bitPattern: rng.next())
        default: return Double.random(in: -1e12...1e12, using: &rng)
        }
    }

    /// Empty, ASCII, not ASCII, and of 128 bytes or more (a length of two bytes).
    static func string(_ rng: inout SeededRandom) -> String {
        let ascii = Array("abcdefghijklmnopqrstuvwxyz ABC-0123456789")
        let pieces = ["é", "日本", "🍕", "ß", "a", "Ω", "e\u{301}"]
        switch Int.random(in: 0..<6, using: &rng) {
        case 0: return ""
        case 1, 2: return String((0..<Int.random(in: 1...20, using: &rng)).map { _ in ascii.randomElement(using: &rng)! })
        case 3: return (0..<Int.random(in: 1...8, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
        case 4: return String(repeating: String(ascii.randomElement(using: &rng)!), count: Int.random(in: 128...400, using: &rng))
        default: return String(repeating: "日", count: Int.random(in: 40...150, using: &rng))
        }
    }

    static func data(_ rng: inout SeededRandom) -> Data {
        let count = Int.random(in: 0..<8, using: &rng) == 0 ? Int.random(in: 128...300, using: &rng) : Int.random(in: 0...24, using: &rng)
        return Data((0..<count).map { _ in UInt8.random(in: 0...255, using: &rng) })
    }

    static func uuid(_ rng: inout SeededRandom) -> UUID {
        var u: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &u) { raw in for i in raw.indices { raw[i] = UInt8.random(in: 0...255, using: &rng) } }
        return UUID(uuid: u)
    }

    // MARK: The row-by-row check

    /// Whether every row (`bytes[offsets[k] ..< offsets[k + 1]]`) is accepted as the check of
    /// every page accepts it: each decodes as one value per column and nothing more, and each
    /// value fits its column's check (`ValueCheck.problem(in:schema:checks:)`, field by field).
    static func rowsFit(_ bytes: [UInt8], _ offsets: [Int], _ columns: [Column]) -> Bool {
        bytes.withUnsafeBytes { raw in
            offsets.indices.dropLast().allSatisfy { k in
                var r = ByteReader(raw, from: offsets[k], to: offsets[k + 1])
                guard let row = try? r.row(), r.isAtEnd, row.count == columns.count else { return false }
                return zip(row, columns).allSatisfy { $1.check.accepts($0, optional: $1.optional) }
            }
        }
    }

    /// The quick check of rows laid out one after another (`PlainRows`): how many rows it
    /// accepts before the first it refuses.
    static func plainRowsAccepted(_ bytes: [UInt8], _ offsets: [Int], _ rules: [TagRule]) -> Int {
        bytes.withUnsafeBytes { raw in
            offsets.withUnsafeBufferPointer { offsets in
                rules.withUnsafeBufferPointer { PlainRows.firstRowNotFitting(raw, offsets: offsets, rules: $0) }
            }
        }
    }
}

extension ValueCheck {
    var isLink: Bool { if case .link = self { return true } else { return false } }
}

/// A record's bytes placed so that they end where a page of memory that cannot be read
/// begins: a check that reads one byte past the record stops the test with a fault instead of
/// reading what follows by chance.
final class GuardedRecord {
    private let base: UnsafeMutableRawPointer
    private let mapped: Int
    let bytes: UnsafeRawBufferPointer

    init(_ record: [UInt8]) {
        let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))
        let dataPages = (record.count + pageSize - 1) / pageSize
        mapped = (dataPages + 1) * pageSize
        let mapping = mmap(nil, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0)
        precondition(mapping != nil && Int(bitPattern: mapping) != -1, "mmap failed")
        base = mapping!
        precondition(mprotect(base + dataPages * pageSize, pageSize, PROT_NONE) == 0)
        let start = base + dataPages * pageSize - record.count
        record.withUnsafeBytes { start.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
        bytes = UnsafeRawBufferPointer(start: start, count: record.count)
    }

    deinit { munmap(base, mapped) }
}
