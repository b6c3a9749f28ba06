import Foundation
import Testing
import TestSupport
@testable import ObjectStore

/// Generated hostile queries and argument lists: every one is answered (parsed, compiled against
/// the fixture's model and counted) or refused with a `QueryError`; none crashes the process.
/// Before the `$n` index was checked, `"$9223372036854775807 == 1"` with one argument stopped
/// the whole test run with an arithmetic overflow.
@Suite(.resourceCheck) struct QueryHostileInputTests {
    /// Runs one query: the outcome is a count, or the `QueryError`'s kind and column.
    private func outcome(_ text: String, _ arguments: [Any], variadic: Bool, in results: Results<Pizza>) -> String {
        do {
            // Half through the variadic path (`StorePredicate(format:_:)`), which counts the
            // arguments a query uses: that count overflowed on a huge `$n`.
            let predicate = variadic ? try StorePredicate(format: text, variadicArguments: arguments)
                                     : try StorePredicate(format: text, arguments: arguments)
            _ = predicate.description
            return "\(try results.filter(checked: predicate).count)"
        } catch let error as QueryError {
            #expect(error.column >= 0 && error.column <= text.count + 1, "column \(error.column) of \(text.debugDescription)")
            #expect(!error.description.isEmpty)
            return "\(error.kind)@\(error.column)"
        } catch {
            Issue.record("not a QueryError: \(error) for \(text.debugDescription)")
            return "\(error)"
        }
    }

    @Test func fiveThousandGeneratedQueriesAreAnsweredOrRefused() throws {
        let store = try Fixture.store()
        let pizzas = store.objects(Pizza.self)
        var generator = HostileQueryGenerator(random: SeededRandom(seed: 29))
        var answered = 0
        var refused = 0
        for round in 0..<5_000 {
            let (text, arguments) = generator.query(round: round)
            let result = outcome(text, arguments, variadic: round % 2 == 0, in: pizzas)
            if Int(result) != nil { answered += 1 } else { refused += 1 }
        }
        // Both sides are exercised: hostile input is mostly refused, but not all of it.
        #expect(answered > 50)
        #expect(refused > 2_000)
    }

    /// The reported crash, and its neighbours: `$n` past the arguments is a missing argument at
    /// the `$n`'s column, whatever the size of `n`.
    @Test(arguments: ["$9223372036854775807 == 1", "$9223372036854775806 == 1", "$9223372036854775808 == 1",
                      "$99999999999999999999999999 == 1", "price == $18446744073709551615"])
    func hugeArgumentIndexesAreMissingArguments(text: String) throws {
        let column = text.hasPrefix("$") ? 1 : 10
        #expect { try StorePredicate(format: text, arguments: [1]) } throws: { error in
            guard let error = error as? QueryError else { return false }
            return error.kind == .missingArgument && error.column == column && error.expected.hasSuffix("(1 given)")
        }
        #expect { try StorePredicate(format: text, 1) } throws: { ($0 as? QueryError)?.kind == .missingArgument }
    }

    @Test func theHugeIndexMessageIsTheGuides() {
        #expect { try StorePredicate(format: "$9223372036854775807 == 1", 1) } throws: { error in
            "\(error)" == "expected argument $9223372036854775807 (1 given) at column 1, found '$9223372036854775807'"
        }
    }
}

/// Random query text and argument lists meant to break the lexer, parser and compiler: every
/// token in every position, numbers and indexes at and past the integer limits, malformed
/// dates, deep nesting, long strings and odd Unicode.
struct HostileQueryGenerator {
    var random: SeededRandom

    mutating func pick<T>(_ options: [T]) -> T { options[Int.random(in: 0..<options.count, using: &random)] }
    mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }

    static let keys = ["id", "name", "price", "vegetarian", "rating", "tags", "categories", "main", "chef", "chef.name",
                       "chef.age", "baked", "code", "weight", "main.name", "categories.id", "categories.@count", "tags.@size",
                       "categories.@sum.id", "categories.@avg.id", "categories.@min.name", "@count", "prize", "main.main.id", "ÿ"]
    static let operators = ["==", "=", "!=", "<>", "<", "<=", "=<", ">", ">=", "=>", "BEGINSWITH", "ENDSWITH", "CONTAINS",
                            "LIKE", "IN", "BETWEEN", "[c]", "[d]", "[cd]", "[x]", "[", "]"]
    static let logic = ["AND", "OR", "NOT", "&&", "||", "!", "(", ")", "{", "}", ",", ".", "ANY", "SOME", "ALL", "NONE",
                        "TRUEPREDICATE", "FALSEPREDICATE", "SUBQUERY(", "SORT(", "DISTINCT(", "LIMIT(", "ASC", "DESC", ").@count"]
    static let numbers = ["0", "-0", "1", "-1", "9223372036854775807", "-9223372036854775808", "9223372036854775808",
                          "-9223372036854775809", "99999999999999999999999999999", "0x7FFFFFFFFFFFFFFF", "0xFFFFFFFFFFFFFFFF",
                          "0x", "0x1G", "1e308", "1e309", "-1e309", "1e-400", ".5", "5.", "1e", "1e+", "1.5.5", "--1", "-",
                          "inf", "-inf", "nan", "NaN", "-nan", "١٢٣", "½", "²"]
    static let dates = ["2024-01-01@00:00:00", "2024-13-45@99:00:00", "2024-02-30@00:00:00", "2024-02-29@23:59:59",
                        "2023-02-29@00:00:00", "2024-01-01@25:61:61", "2024-1-1@1:1:1", "2024-01-01T00:00:00:999999999",
                        "2024-01-01@00:00:00:1000000000", "2024-01-01@00:00:00:99999999999999999999999",
                        "99999999999999999999-01-01@00:00:00", "0000-01-01@00:00:00", "2024-00-00@00:00:00", "2024-01-01",
                        "2024-01-01@", "2024-01-01@12", "2024-01-01@12:00", "2024-01-01@12:00:", "2024--01@00:00:00",
                        "T0:0", "T-1:-1", "T9223372036854775807:999999999", "T-9223372036854775808:0",
                        "T99999999999999999999999:0", "T1:99999999999999999999", "T1:1000000000", "T:", "T1:", "T:1",
                        "Tinf:0", "Tnan:nan", "T1e400:0"]
    static let arguments = ["%@", "%K", "$0", "$1", "$2", "$9223372036854775807", "$9223372036854775808",
                            "$99999999999999999999999", "$-1", "$", "$x", "$٣", "%", "%d", "%%"]
    static let oddText = ["@", "#", "`", ";", "\\", "\u{0}", "\u{7F}", "😀", "👩‍👩‍👧", "é", "e\u{301}", "ﬁ", "\u{202E}",
                          "\u{FEFF}", "\r\n", "\t", "İ", "ß", "Ⅻ", "𝟙", "\u{10FFFF}"]

    mutating func string() -> String {
        switch Int.random(in: 0..<8, using: &random) {
        case 0: return "'" + String(repeating: pick(["a", "é", "😀", "*", "?"]), count: Int.random(in: 1_000...50_000, using: &random)) + "'"
        case 1: return "'\\u\(pick(["D800", "DFFF", "FFFF", "0000", "12", "ZZZZ", "110000"]))'"
        case 2: return "'unterminated"
        case 3: return "\"\\"
        case 4: return "'" + pick(Self.oddText) + "'"
        case 5: return "B64\"\(pick(["", "!!!", "AAEC", "A"]))\""
        case 6: return pick(["uuid(", "uuid()", "uuid(00000000-0000-0000-0000-000000000001)", "uuid(zzz)",
                             "decimal128(", "decimal128(1e999999999)", "decimal128(-)", "decimal128(NaN)", "decimal128(1" + String(repeating: "0", count: 200) + ")"])
        default: return pick(["'Margherita'", "''", "'%@ $0 )('", "'*'", "'?*?*?*'"])
        }
    }

    mutating func token() -> String {
        switch Int.random(in: 0..<10, using: &random) {
        case 0, 1: return pick(Self.keys)
        case 2: return pick(Self.operators)
        case 3: return pick(Self.logic)
        case 4: return pick(Self.numbers)
        case 5: return pick(Self.dates)
        case 6: return pick(Self.arguments)
        case 7: return string()
        case 8: return pick(Self.oddText)
        default: return pick(["nil", "null", "true", "false", "yes", "no", "SUBQUERY(categories, $c, $c.id > 0).@count", "$c", "uuid"])
        }
    }

    /// A well-formed comparison whose value is hostile, so that the compiler and evaluation see it.
    mutating func comparison() -> String {
        let key = pick(Self.keys)
        let op = pick(["==", "!=", "<", ">=", "IN", "CONTAINS[c]", "LIKE", "BEGINSWITH"])
        let value = pick([pick(Self.numbers), pick(Self.dates), pick(Self.arguments), string(), "{\(pick(Self.numbers)), \(pick(Self.dates))}"])
        if chance(10) { return "\(key) BETWEEN {\(pick(Self.numbers)), \(pick(Self.arguments))}" }
        return chance(10) ? "\(value) \(op) \(key)" : "\(key) \(op) \(value)"
    }

    mutating func argument() -> Any {
        switch Int.random(in: 0..<4, using: &random) {
        case 0: return String(repeating: pick(Self.oddText), count: Int.random(in: 1...5_000, using: &random))
        case 1:
            var nested: Any = 1
            for _ in 0..<Int.random(in: 1...200, using: &random) { nested = [nested] }
            return nested
        default:
            return pick([Int.max, Int.min, UInt64.max, Int8.min, Double.nan, Double.infinity, -Double.greatestFiniteMagnitude,
                         Decimal.nan, Decimal.greatestFiniteMagnitude, Date.distantFuture, Date(timeIntervalSince1970: -1e300),
                         "", "name", "chef.name", "main.main.main", "@count", "categories.@count", NSNull(), [String: Int](),
                         ["a": 1], Data(), UUID(), Fixture.classic, [Fixture.classic, Fixture.spicy], NSObject(), (1, 2),
                         Optional<Int>.none as Any, [Int](), Set([1, 2]), NSNumber(value: UInt64.max), NSNumber(value: true),
                         NSNumber(value: Double.nan)] as [Any])
        }
    }

    mutating func query(round: Int) -> (String, [Any]) {
        let arguments = (0..<Int.random(in: 0...3, using: &random)).map { _ in argument() }
        var text: String
        switch round % 5 {
        case 0, 1:
            // Token soup: every token in every position, with or without spaces between.
            let separator = chance(30) ? "" : " "
            text = (0..<Int.random(in: 1...12, using: &random)).map { _ in token() }.joined(separator: separator)
        case 2:
            text = (0..<Int.random(in: 1...4, using: &random)).map { _ in comparison() }.joined(separator: pick([" AND ", " || "]))
            if chance(20) { text += " " + pick(["SORT(", "DISTINCT(", "LIMIT("]) + pick(Self.keys + Self.numbers) + pick([")", " DESC)", ""]) }
        case 3:
            // Deep nesting, near and past the parser's limits, opened and not always closed.
            let depth = Int.random(in: 1...200, using: &random)
            let open = pick(["(", "NOT ", "!", "{", "SUBQUERY(categories, $c, "])
            let close = open == "(" ? ")" : open == "{" ? "}" : open.hasPrefix("SUBQUERY") ? ").@count > 0" : ""
            text = String(repeating: open, count: depth) + comparison() + String(repeating: close, count: chance(80) ? depth : depth / 2)
        default:
            // A valid query cut or spliced at a random place.
            let valid = "name CONTAINS[c] 'a' AND baked > 2024-01-01@00:00:00 OR price IN {1, 2} SORT(price DESC) LIMIT(3)"
            let cut = Int.random(in: 0...valid.count, using: &random)
            text = String(valid.prefix(cut)) + token() + String(valid.dropFirst(cut))
        }
        return (text, arguments)
    }
}
