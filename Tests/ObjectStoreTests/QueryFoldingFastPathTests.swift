import Foundation
import Testing
@testable import ObjectStore

/// `[c]`/`[d]` comparisons against an ASCII constant compare ASCII rows as bytes; every answer
/// must equal the general path's (fold the row's string, then compare the strings).
@Suite struct QueryFoldingFastPathTests {
    static let values: [StoreValue] = [
        "Margherita", "MARGHERITA", "marg", "", "a", "A", "abcABCabc", "zzz", "Quattro Formaggi",
        "A\r\nb", "x\rA", "\r\n", "line\nfeed",
        "Crème brûlée", "ÉCLAIR", "éclair", "Straße", "STRASSE", "naïve", "Ⅻ", "e\u{301}clair",
    ].map(StoreValue.string) + [.int(5), .null, .double(1.5)]

    static let needles = ["", "a", "A", "marg", "RITA", "rita", "\n", "b", "abc", "CA", "ss", "ECLAIR", "clair", "Margherita", "margherita "]
    static let operators: [ComparisonOperator] = [.contains, .beginsWith, .endsWith, .equal, .notEqual]
    static let optionSets: [StringOptions] = [[.caseInsensitive], [.diacriticInsensitive], [.caseInsensitive, .diacriticInsensitive]]

    /// The general path, as the query compiler builds it: fold the row's value, then compare.
    static func reference(_ op: ComparisonOperator, _ options: StringOptions, _ folded: StoreValue) -> (StoreValue) -> Bool {
        let scalar = QueryCompiler.scalarTest(op)
        return { scalar(fold($0, options), folded) }
    }

    @Test func everyAnswerEqualsTheGeneralPath() throws {
        var compared = 0
        for op in Self.operators {
            for options in Self.optionSets {
                for needle in Self.needles {
                    let folded = fold(.string(needle), options)
                    guard case .string(let foldedNeedle) = folded else { Issue.record("folding changed the kind"); continue }
                    let general = Self.reference(op, options, folded)
                    let fast = try #require(asciiFoldedTest(op, options, needle: foldedNeedle, general: general))
                    for value in Self.values {
                        #expect(fast(value) == general(value), "\(value) \(op.rawValue)\(options.description) '\(needle)'")
                        compared += 1
                    }
                }
            }
        }
        #expect(compared == Self.operators.count * Self.optionSets.count * Self.needles.count * Self.values.count)
    }

    @Test func nonASCIINeedlesAndOtherOperatorsKeepTheGeneralPath() {
        let general: (StoreValue) -> Bool = { _ in true }
        #expect(asciiFoldedTest(.contains, [.caseInsensitive], needle: "crème", general: general) == nil)
        #expect(asciiFoldedTest(.contains, [.caseInsensitive], needle: "a\rb", general: general) == nil)
        #expect(asciiFoldedTest(.like, [.caseInsensitive], needle: "a*", general: general) == nil)
        #expect(asciiFoldedTest(.less, [.caseInsensitive], needle: "a", general: general) == nil)
    }

    @Test(arguments: StoreBackend.allCases)
    func queriesUseItEndToEnd(backend: StoreBackend) throws {
        let store = try backend.makeStore()
        let names = ["Margherita", "MARINARA", "Crème Brûlée", "Quattro Formaggi", "marinara\r\nbis"]
        try store.write { tx in
            for (index, name) in names.enumerated() {
                var pizza = Fixture.pizzas[0]
                pizza.id = index + 1
                pizza.name = name
                try tx.add(pizza, update: .modified)
            }
        }
        func ids(_ query: String) -> [Int] {
            store.objects(Pizza.self).filter(query).sorted(byKeyPath: "id").map(\.id)
        }
        #expect(ids("name CONTAINS[c] 'mar'") == [1, 2, 5])
        #expect(ids("name BEGINSWITH[c] 'MAR'") == [1, 2, 5])
        #expect(ids("name ENDSWITH[c] 'NARA'") == [2])
        #expect(ids("name ==[c] 'marinara'") == [2])
        #expect(ids("name !=[c] 'marinara'") == [1, 3, 4, 5])
        #expect(ids("name CONTAINS[cd] 'creme'") == [3])
        #expect(ids("name CONTAINS[d] 'Bru'") == [3])
    }
}
