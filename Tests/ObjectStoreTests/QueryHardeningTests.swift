import Foundation
import Testing
import TestSupport
@testable import ObjectStore

/// Hostile and oversized query input (issue 9's bad-input list): a clear `QueryError`, never a
/// stack overflow, and arguments that are never read as query syntax.
@Suite(.resourceCheck) struct QueryHardeningTests {
    /// Runs `body` on a thread with a 4 MiB stack and returns what it returned. Without the
    /// parser's nesting limit, 10,000 levels need far more than that (several KiB per level in
    /// a debug build), so an unbounded recursion over deep input would crash the test process
    /// here; with it, the deepest legal query fits with room to spare even unoptimised.
    private func onSmallStack<T: Sendable>(_ body: @escaping @Sendable () -> T) -> T {
        let done = DispatchSemaphore(value: 0)
        let result = LockedBox<T?>(nil)
        let thread = Thread {
            result.set(body())
            done.signal()
        }
        thread.stackSize = 4 * 1024 * 1024
        thread.start()
        done.wait()
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
        #expect(error?.expected.contains("levels of parentheses") == true)
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

    @Test func hugeStringArgumentsAndLiteralsWork() throws {
        let store = Store()
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
