import Foundation
import Testing
import TestSupport
@testable import ObjectStore

/// Arguments as apps build them: from decoded JSON (`NSNumber`s in an `NSArray`), from
/// `NSNumber(value:)`, and from Swift values. A number is never taken for a `Bool`.
@Suite(.resourceCheck) struct QueryArgumentTests {
    func ids(_ results: Results<Pizza>) -> [Int] { results.sorted(byKeyPath: "id").map(\.id) }

    @Test func numbersFromJSONSerializationAreNumbers() throws {
        let store = try Fixture.store()
        let pizzas = store.objects(Pizza.self)
        let decoded = try #require(try JSONSerialization.jsonObject(with: Data("[1, 0, 2]".utf8)) as? [Any])
        #expect(try ids(pizzas.filter(checked: "id IN %@", decoded)) == [1, 2])
        let one = try #require(try JSONSerialization.jsonObject(with: Data("[1]".utf8)) as? [Any])
        #expect(try ids(pizzas.filter(checked: "id == %@", one[0])) == [1])
        #expect(try ids(pizzas.filter(checked: "id IN %@", one)) == [1])
        let zero = try #require(try JSONSerialization.jsonObject(with: Data("[0]".utf8)) as? [Any])
        #expect(try ids(pizzas.filter(checked: "id == %@", zero[0])) == [])
        let flags = try #require(try JSONSerialization.jsonObject(with: Data("[true, false]".utf8)) as? [Any])
        #expect(try ids(pizzas.filter(checked: "vegetarian == %@", flags[0])) == [1, 3, 5, 6])
        #expect(try ids(pizzas.filter(checked: "vegetarian == %@", flags[1])) == [2, 4])
        let prices = try #require(try JSONSerialization.jsonObject(with: Data("[700, 1250.5]".utf8)) as? [Any])
        #expect(try ids(pizzas.filter(checked: "price IN %@", prices)) == [1, 5])
    }

    /// Swift passes an `[Any]` given to `Any...` as the arguments themselves; a query that
    /// takes one argument gets the whole array back.
    @Test func anArrayOfAnyIsOneArgument() throws {
        let store = try Fixture.store()
        let pizzas = store.objects(Pizza.self)
        let wanted: [Any] = [2, 4, 6]
        #expect(try ids(pizzas.filter(checked: "id IN %@", wanted)) == [2, 4, 6])
        #expect(ids(pizzas.filter("id IN %@", wanted)) == [2, 4, 6])
        #expect(try StorePredicate(format: "id IN %@", wanted).description == "id IN {2, 4, 6}")
        let one: [Any] = [3]
        #expect(try ids(pizzas.filter(checked: "id IN %@", one)) == [3])   // a scalar right of IN is a list of one
        #expect(try ids(pizzas.filter(checked: "id >= %@ AND id <= %@", 2, 3)) == [2, 3])
    }

    @Test func everyKindOfNSNumberKeepsItsKind() {
        let cases: [(NSNumber, StoreValue)] = [
            (NSNumber(value: Int8(1)), .int(1)), (NSNumber(value: Int16(0)), .int(0)), (NSNumber(value: Int32(1)), .int(1)),
            (NSNumber(value: Int64(-7)), .int(-7)), (NSNumber(value: Int(1)), .int(1)), (NSNumber(value: UInt8(1)), .int(1)),
            (NSNumber(value: UInt16(0)), .int(0)), (NSNumber(value: UInt32(1)), .int(1)), (NSNumber(value: UInt64(1)), .int(1)),
            (NSNumber(value: UInt(0)), .int(0)), (NSNumber(value: Float(1)), .double(1)), (NSNumber(value: 0.0), .double(0)),
            (NSNumber(value: true), .bool(true)), (NSNumber(value: false), .bool(false)),
            (NSDecimalNumber(string: "12.5"), .decimal(Decimal(string: "12.5")!)),
        ]
        for (number, expected) in cases {
            #expect(StoreValue.from(any: number) == expected, "\(number) (\(String(cString: number.objCType)))")
        }
    }

    /// An unsigned argument above `Int64.max` can equal no stored integer: a typed error, not a
    /// comparison with its wrapped-around value (`UInt64.max` was read as -1).
    @Test(arguments: [
        (UInt64.max as any Sendable, "UInt64 18446744073709551615", 10),
        (UInt64(Int64.max) + 1 as any Sendable, "UInt64 9223372036854775808", 10),
        (UInt(Int64.max) + 1 as any Sendable, "UInt 9223372036854775808", 10),
        (NSNumber(value: UInt64.max) as any Sendable, "NSNumber 18446744073709551615", 10),
    ])
    func unsignedArgumentsAboveInt64AreRefused(argument: any Sendable, found: String, column: Int) throws {
        let store = try Fixture.store()
        let expected = QueryError(.typeMismatch, expected: "an integer from -9223372036854775808 to 9223372036854775807",
                                  found: found, column: column)
        #expect(throws: expected) { try StorePredicate(format: "price == %@", argument) }
        #expect(throws: expected) { try store.objects(Pizza.self).filter(checked: "price >= $0", argument) }
        #expect(throws: QueryError(.typeMismatch, expected: expected.expected, found: found, column: 7)) {
            try StorePredicate(format: "id IN %@", [1, argument] as [any Sendable])
        }
    }

    @Test func unsignedArgumentsUpToInt64MaxAreIntegers() throws {
        let store = try Fixture.store()
        #expect(try ids(store.objects(Pizza.self).filter(checked: "id == %@", UInt64(2))) == [2])
        #expect(try StorePredicate(format: "id < %@", UInt64(Int64.max)).description == "id < 9223372036854775807")
        #expect(try StorePredicate(format: "id < %@", NSNumber(value: UInt(Int64.max))).description == "id < 9223372036854775807")
    }

    @Test func swiftValuesKeepTheirKind() {
        #expect(StoreValue.from(any: 1) == .int(1))
        #expect(StoreValue.from(any: 0) == .int(0))
        #expect(StoreValue.from(any: true) == .bool(true))
        #expect(StoreValue.from(any: false) == .bool(false))
        #expect(StoreValue.from(any: 1.0) == .double(1))
        #expect(StoreValue.from(any: [1, 0] as [Any]) == .list([.int(1), .int(0)]))
        #expect(StoreValue.from(any: [true] as [Any]) == .list([.bool(true)]))
    }
}
