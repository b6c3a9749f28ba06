import Foundation
import Testing
import TestSupport
@testable import ObjectStore

/// The query language's limits: hostile and oversized input is a clear `QueryError`, never a
/// stack overflow, on a thread with a 512 KiB stack (a secondary thread's default on Apple
/// platforms); arguments are never read as query syntax; and every predicate the parser accepts
/// prints as text that parses back to the same predicate.
@Suite(.resourceCheck) struct QueryLimitsTests {
    /// Runs `body` on a thread with a 512 KiB stack and returns what it returned. Unbounded
    /// recursion over deep input needs far more than that (several KiB per level in a debug
    /// build), so it would crash the test process here; the deepest legal query must fit.
    private func onSmallStack<T: Sendable>(_ body: @escaping @Sendable () -> T) -> T {
        let done = DispatchSemaphore(value: 0)
        let result = LockedBox<T?>(nil)
        let thread = Thread {
            result.set(body())
            done.signal()
        }
        thread.stackSize = 512 * 1024
        thread.start()
        #expect(done.wait(timeout: .now() + 120) == .success, "the parse did not finish")
        return result.get()!
    }

    private func parseError(_ query: String) -> QueryError? {
        onSmallStack {
            do {
                _ = try StorePredicate(format: query)
                return nil
            } catch let error as QueryError {
                return error
            } catch {
                return QueryError(.syntax, expected: "a QueryError", found: "\(error)", column: 0)
            }
        }
    }

    @Test func tenThousandNestedParenthesesAreAClearError() {
        let query = String(repeating: "(", count: 10_000) + "price < 5" + String(repeating: ")", count: 10_000)
        let error = parseError(query)
        #expect(error?.kind == .unsupported)
        #expect(error?.expected.contains("levels of parentheses, NOT, SUBQUERY and list braces") == true)
        #expect(error?.column == QueryParser.maximumNesting + 1)
    }

    @Test func tenThousandNotsAreAClearError() {
        let error = parseError(String(repeating: "NOT ", count: 10_000) + "vegetarian == true")
        #expect(error?.kind == .unsupported)
    }

    @Test func deeplyNestedSubqueriesAreAClearError() {
        var query = "$c.id > 0"
        for _ in 0..<200 { query = "SUBQUERY(categories, $c, \(query)).@count > 0" }
        #expect(parseError(query)?.kind == .unsupported)
    }

    @Test func anEndlessAndChainIsAClearError() {
        let query = Array(repeating: "price > 1", count: 10_000).joined(separator: " AND ")
        let error = parseError(query)
        #expect(error?.kind == .unsupported)
        #expect(error?.expected.contains("operands joined by AND") == true)
    }

    @Test func nestingUpToTheLimitParsesAndEvaluates() throws {
        let depth = QueryParser.maximumNesting
        let nested = String(repeating: "(", count: depth) + "price < 800" + String(repeating: ")", count: depth)
        let nots = String(repeating: "NOT ", count: depth - 1) + "vegetarian == true"   // odd number of NOTs: not vegetarian
        let chain = Array(repeating: "price > 1", count: QueryParser.maximumChainLength).joined(separator: " AND ")
        let store = try Fixture.store()
        let names = onSmallStack {
            let pizzas = store.objects(Pizza.self).sorted(byKeyPath: "id")
            return [
                (try? pizzas.filter(checked: nested).map(\.name)) ?? ["error"],
                (try? pizzas.filter(checked: nots).map(\.name)) ?? ["error"],
                [String((try? pizzas.filter(checked: chain).count) ?? -1)],
            ]
        }
        #expect(names == [["Margherita", "marinara"], ["Pepperoni", "Diavola"], ["6"]])
    }

    /// `{` list braces nest too: 20,000 of them crashed the process before they were counted.
    @Test func twentyThousandListBracesAreAClearError() {
        let error = parseError("price IN " + String(repeating: "{", count: 20_000))
        #expect(error?.kind == .unsupported)
        #expect(error?.expected.contains("list braces") == true)
        let closed = parseError("price IN " + String(repeating: "{", count: 5_000) + "1" + String(repeating: "}", count: 5_000))
        #expect(closed?.kind == .unsupported)
        #expect(parseError("price IN {{1, 2}, {3}}") == nil)   // nested lists within the limit parse
    }

    /// A key path of 100,000 keys (each a link to follow when evaluated) is refused when it is
    /// resolved, in the query language and in the builder alike.
    @Test func anEndlessKeyPathIsAClearError() throws {
        let store = try Fixture.store()
        let path = Array(repeating: "main", count: 100_000).joined(separator: ".") + ".id"
        let outcome = onSmallStack { () -> String in
            do {
                _ = try store.objects(Pizza.self).filter(checked: "\(path) == 1")
                return "accepted"
            } catch let error as QueryError {
                return "\(error.kind) \(error.expected)"
            } catch {
                return "\(error)"
            }
        }
        #expect(outcome == "unsupported a key path of at most \(QueryCompiler.maximumKeyPathLength) keys")
        // At the limit the path is resolved (and here found wrong: a Category has no `main`).
        let sixtyFour = Array(repeating: "main", count: 63).joined(separator: ".") + ".id"
        #expect { try store.objects(Pizza.self).filter(checked: "\(sixtyFour) == 1") } throws: { ($0 as? QueryError)?.kind == .unknownKey }
        let sixtyFive = Array(repeating: "main", count: 64).joined(separator: ".") + ".id"
        #expect { try store.objects(Pizza.self).filter(checked: "\(sixtyFive) == 1") } throws: { ($0 as? QueryError)?.kind == .unsupported }
    }

    /// Predicates built with `!`, `&&` and `||` cannot nest deeper than the limit either: past it
    /// filtering throws, and building, printing and freeing the predicate stay shallow.
    @Test func builtPredicatesNestedTooDeeplyAreAClearError() throws {
        let store = try Fixture.store()
        let outcome = onSmallStack { () -> [String] in
            let leaf = try! StorePredicate(format: "price > 1")
            let other = try! StorePredicate(format: "vegetarian == true")
            var alternating = leaf
            for _ in 0..<100_000 { alternating = !(alternating && other) }
            var nots = leaf
            for _ in 0..<100_001 { nots = !nots }            // double negations cancel out
            var chain = leaf
            for _ in 0..<100_000 { chain = chain || other }  // one flat chain after another
            var results: [String] = []
            for predicate in [alternating, nots, chain] {
                do {
                    results.append("\(try store.objects(Pizza.self).filter(checked: predicate).count)")
                } catch let error as QueryError {
                    results.append("\(error.kind)")
                } catch {
                    results.append("\(error)")
                }
                _ = predicate.description
            }
            return results
        }
        #expect(outcome[0] == "unsupported")
        #expect(outcome[1] == "\(try store.objects(Pizza.self).filter(checked: "NOT price > 1").count)")
        #expect(outcome[2] == "\(try store.objects(Pizza.self).filter(checked: "price > 1 OR vegetarian == true").count)")
    }

    /// The deepest predicates the parser accepts compile, evaluate and print on the small stack.
    @Test func theDeepestLegalQueriesEvaluateOnASmallStack() throws {
        let store = try Fixture.store()
        let depth = QueryParser.maximumNesting
        var mixed = "price > 1"
        for level in 0..<(depth - 1) { mixed = level % 2 == 0 ? "(\(mixed) OR vegetarian == true) AND rating != 0" : "NOT \(mixed)" }
        let lists = "price IN " + String(repeating: "{", count: depth - 1) + "700" + String(repeating: "}", count: depth - 1)
        let queries = [mixed, lists]
        let outcomes = onSmallStack { () -> [String] in
            queries.map { query in
                do {
                    let predicate = try StorePredicate(format: query)
                    _ = predicate.description
                    return "\(try store.objects(Pizza.self).filter(checked: predicate).count)"
                } catch let error as QueryError {
                    return "\(error.kind)"
                } catch {
                    return "\(error)"
                }
            }
        }
        #expect(outcomes[0] == "4")
        #expect(outcomes[1] == "typeMismatch")   // a list of lists is no value for a price: a typed error, no crash
    }

    /// The guide's promise, over generated predicates: whatever the parser accepts prints as
    /// text that parses back to a predicate printing the same text — long chains, every kind of
    /// literal (infinities, NaNs, dates past the literal range, escapes), nesting at the limit.
    @Test func everyAcceptedPredicatePrintsAsTextThatParsesBack() {
        var random = SeededRandom(seed: 2026)
        var accepted = 0
        for round in 0..<3_000 {
            var generator = PredicateGenerator(random: random)
            let (text, arguments) = generator.predicate(depth: round % 40 == 0 ? 60 : 4)
            random = generator.random
            guard let predicate = try? StorePredicate(format: text, arguments: arguments) else { continue }
            accepted += 1
            let printed = predicate.description
            do {
                let reparsed = try StorePredicate(format: printed)
                #expect(reparsed.description == printed, "\(text)\n→ \(printed)\n→ \(reparsed.description)")
            } catch {
                Issue.record("\(text)\n→ \(printed)\ndoes not parse: \(error)")
            }
        }
        #expect(accepted > 2_000)
    }

    @Test func argumentsContainingQuerySyntaxAreValues() throws {
        let store = try Fixture.store()
        let pizzas = store.objects(Pizza.self)
        let hostile = [
            "Margherita' OR TRUEPREDICATE OR name == '",
            "\" OR 1 == 1 OR name == \"",
            "x) OR (price > 0",
            "%@",
            "$0",
            "SUBQUERY(categories, $c, $c.id > 0).@count > 0",
        ]
        for text in hostile {
            #expect(try pizzas.filter(checked: "name == %@", text).count == 0, "\(text)")
            #expect(try pizzas.filter(checked: "name CONTAINS %@", text).count == 0, "\(text)")
        }
        #expect(try pizzas.filter(checked: "name IN %@", hostile + ["Diavola"]).map(\.name) == ["Diavola"])
    }

    @Test(arguments: StoreBackend.allCases)
    func hugeStringArgumentsAndLiteralsWork(backend: StoreBackend) throws {
        let store = try backend.makeStore()
        let long = String(repeating: "ab", count: 500_000)           // 1 MB
        try store.write { tx in
            try tx.add(Pizza(id: 9, name: long, price: 1, vegetarian: true, rating: nil, tags: [], categories: [],
                             main: nil, chef: nil, baked: Fixture.base, code: Fixture.uuid(9), weight: 1))
        }
        let pizzas = store.objects(Pizza.self)
        #expect(try pizzas.filter(checked: "name == %@", long).count == 1)
        #expect(try pizzas.filter(checked: "name BEGINSWITH[c] 'ABAB'").count == 1)
        #expect(try pizzas.filter(checked: "name == '\(long)'").count == 1)
        #expect(try pizzas.filter(checked: "name LIKE '*ba*'").count == 1)
    }

    @Test func invalidUTF8InAQueryIsReplacedNotFatal() {
        let bytes: [UInt8] = Array("name == '".utf8) + [0xFF, 0xFE, 0xC0] + Array("'".utf8)
        let query = String(decoding: bytes, as: UTF8.self)
        let error = parseError(query)
        #expect(error == nil)    // a string literal of replacement characters: valid, matches nothing
    }
}

/// A value written by one thread and read by another after a semaphore.
private final class LockedBox<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: T
    init(_ value: T) { self.value = value }
    func set(_ newValue: T) { lock.withLock { value = newValue } }
    func get() -> T { lock.withLock { value } }
}

/// Random query text over the fixture's keys, with literals and arguments of every kind.
private struct PredicateGenerator {
    var random: SeededRandom
    var arguments: [Any] = []

    mutating func pick<T>(_ options: [T]) -> T { options[Int.random(in: 0..<options.count, using: &random)] }
    mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }

    mutating func predicate(depth: Int) -> (String, [Any]) {
        arguments = []
        var text = node(depth: depth)
        if chance(20) { text += " SORT(\(pick(["price", "name", "id"])) \(pick(["ASC", "DESC", ""])))" }
        if chance(10) { text += " DISTINCT(name)" }
        if chance(10) { text += " LIMIT(\(Int.random(in: 0...9, using: &random)))" }
        return (text, arguments)
    }

    mutating func node(depth: Int) -> String {
        guard depth > 0, chance(70) else { return comparison(depth: depth) }
        switch Int.random(in: 0..<4, using: &random) {
        case 0, 1:
            // One operand goes deeper; the others stay shallow, so the text stays small however
            // deep the nesting (and chains of 60 to 130 operands appear).
            let count = chance(10) ? Int.random(in: 60...130, using: &random) : Int.random(in: 2...4, using: &random)
            let deep = Int.random(in: 0..<count, using: &random)
            let operands = (0..<count).map { i in node(depth: i == deep ? depth - 1 : min(depth - 1, 1)) }
            return operands.joined(separator: random.next() % 2 == 0 ? pick([" AND ", " && "]) : pick([" OR ", " || "]))
        case 2: return pick(["NOT ", "!"]) + node(depth: depth - 1)
        default: return "(" + node(depth: depth - 1) + ")"
        }
    }

    mutating func comparison(depth: Int) -> String {
        switch Int.random(in: 0..<10, using: &random) {
        case 0: return pick(["TRUEPREDICATE", "FALSEPREDICATE"])
        case 1: return "price BETWEEN {\(number()), \(number())}"
        case 2: return "\(pick(["ANY", "ALL", "NONE", "SOME"])) tags \(pick(["==", "BEGINSWITH", "CONTAINS[c]", "LIKE[cd]"])) \(string())"
        case 3: return "categories.@count \(pick(["==", ">", "<="])) \(Int.random(in: 0...3, using: &random))"
        case 4:
            guard depth > 0 else { return "name == nil" }
            return "SUBQUERY(categories, $c, $c.id \(pick(["==", "!=", ">"])) \(Int.random(in: -2...9, using: &random))).@count > 0"
        case 5: return "baked \(pick(["==", "<", ">="])) \(date())"
        case 6: return "price IN {\((0..<Int.random(in: 0...4, using: &random)).map { _ in number() }.joined(separator: ", "))}"
        case 7: return "name \(pick(["==", "!=", "BEGINSWITH", "ENDSWITH", "CONTAINS", "LIKE"]))\(pick(["", "[c]", "[d]", "[cd]"])) \(string())"
        case 8: return "rating \(pick(["==", "!=", "<", ">"])) \(pick(["nil", "NULL", number()]))"
        default:
            arguments.append(argument())
            return "\(pick(["price", "baked", "name", "code", "rating"])) \(pick(["==", "!="])) %@"
        }
    }

    mutating func number() -> String {
        pick(["0", "-0.0", "1", "-7", "3.25", "1e-05", "1.5e+300", "inf", "-inf", "INFINITY", "-infinity", "nan",
              "9223372036854775807", "-9223372036854775808", "0x1F", "decimal128(12.5)", "decimal128(NaN)", "decimal128(-0.001)"])
    }

    mutating func string() -> String {
        pick(["'Margherita'", "\"quoted \\\" inside\"", "'tab\\there'", "'new\\nline'", "'üñî©ødé'", "''", "'back\\\\slash'", "'%@ $0 SUBQUERY('"])
    }

    mutating func date() -> String {
        pick(["T0:0", "T-1:500", "T1700000000:123456789", "2026-11-24@07:15:00", "2026-11-24T07:15:00:5", "T1e+16:0", "Tinf:0", "T-inf:0", "Tnan:0"])
    }

    mutating func argument() -> Any {
        pick([
            Date(timeIntervalSince1970: 1e20), Date(timeIntervalSince1970: -1e17), Date(timeIntervalSince1970: 0.999_999_999_9),
            Date.distantFuture, Date.distantPast, Double.infinity, -Double.infinity, Double.nan, Double.leastNonzeroMagnitude,
            Decimal.nan, Decimal(string: "-12.345")!, "it's \"quoted\"", Int64.min, UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!,
            Data([0, 1, 2, 255]), [1, 2, 3] as [Int], true,
        ] as [Any])
    }
}
