import Foundation
import Testing
import TestSupport
@testable import ObjectStore

@Suite(.resourceCheck) struct ResultsTests {
    @Test(arguments: StoreBackend.allCases) func liveResultsFollowCommitsAndLoopsIterateASnapshot(_ backend: StoreBackend) throws {
        let store = try Fixture.store(backend)
        let cheap = store.objects(Pizza.self).filter("price < %@", 1000)
        #expect(cheap.count == 3)
        var seen: [Int] = []
        for pizza in cheap {
            if seen.isEmpty { try store.write { try $0.delete(Pizza.self, forPrimaryKey: 6) } }
            seen.append(pizza.id)
        }
        #expect(seen == [1, 2, 6])
        #expect(cheap.map(\.id) == [1, 2])
        #expect(cheap.first?.id == 1 && cheap.last?.id == 2 && cheap[1].id == 2)
        #expect(!cheap.isEmpty)
    }

    @Test(arguments: StoreBackend.allCases) func frozenResultsKeepTheirVersion(_ backend: StoreBackend) throws {
        let store = try Fixture.store(backend)
        let live = store.objects(Pizza.self).filter("price < 1000")
        let frozen = live.freeze()
        #expect(frozen.isFrozen && !live.isFrozen)
        try store.write { try $0.deleteAll(Pizza.self) }
        #expect(frozen.map(\.id) == [1, 2, 6])
        #expect(live.isEmpty)
    }

    @Test(arguments: StoreBackend.allCases) func sortingDistinctAndLimit(_ backend: StoreBackend) throws {
        let store = try Fixture.store(backend)
        let all = store.objects(Pizza.self)
        #expect(all.sorted(byKeyPath: "price").map(\.id) == [6, 1, 2, 4, 3, 5])
        #expect(all.sorted(byKeyPath: "price", ascending: false).map(\.id) == [5, 3, 4, 2, 1, 6])
        #expect(all.sorted(by: \.name).map(\.id) == [5, 4, 1, 2, 3, 6])
        #expect(all.sorted(by: [SortDescriptor(keyPath: "vegetarian"), SortDescriptor(keyPath: "price", ascending: false)]).map(\.id) == [4, 2, 5, 3, 1, 6])
        #expect(all.sorted(byKeyPath: "main.name").map(\.id) == [5, 1, 2, 6, 4, 3])
        #expect(all.distinct(by: ["vegetarian"]).map(\.id) == [1, 2])
        #expect(all.sorted(byKeyPath: "price").prefix(2).map(\.id) == [6, 1])
        #expect(all.prefix(2).sorted(byKeyPath: "price", ascending: false).map(\.id) == [2, 1])
        #expect(all.filter("vegetarian == true").limit(3).map(\.id) == [1, 3, 5])
    }

    @Test(arguments: StoreBackend.allCases) func aggregates(_ backend: StoreBackend) throws {
        let store = try Fixture.store(backend)
        let all = store.objects(Pizza.self)
        #expect(all.sum(ofProperty: "price") == 5550.5)
        #expect(all.sum(ofProperty: "weight") == 1790)
        #expect(all.filter("id < 3").average(ofProperty: "price") == 800.0)
        #expect(all.min(ofProperty: "price") == 600.0)
        #expect(all.max(ofProperty: "rating") == 5)
        #expect(all.max(ofProperty: "baked") == Fixture.base.addingTimeInterval(86400))
        #expect(all.filter(FALSEPREDICATE_()).average(ofProperty: "price") as Double? == nil)
        #expect(all.filter("id > 100").sum(ofProperty: "price") == 0.0)
    }

    func FALSEPREDICATE_() -> StorePredicate { try! StorePredicate(format: "FALSEPREDICATE") }

    @Test(arguments: StoreBackend.allCases) func primaryKeyAndSecondaryIndexesAnswerLookups(_ backend: StoreBackend) throws {
        let store = try Fixture.store(backend)
        let table = store.core.snapshot().tables["Pizza"]!
        #expect(ResultsEngine.indexCandidates(try StorePredicate(format: "id IN {2, 5, 9}").node, table) == [1, 4])
        #expect(ResultsEngine.indexCandidates(try StorePredicate(format: "name == 'Diavola' AND price > 1").node, table) == [3])
        #expect(ResultsEngine.indexCandidates(try StorePredicate(format: "price == 700").node, table) == nil)
        #expect(store.objects(Pizza.self).filter("id IN %@ AND vegetarian == true", [1, 2, 3]).map(\.id) == [1, 3])
        #expect(store.objects(Pizza.self).filter("name IN %@", ["marinara", "Diavola"]).map(\.id) == [4, 6])
        try store.write { tx in
            var p = Fixture.pizzas[3]
            p.name = "Inferno"
            try tx.add(p, update: .modified)
        }
        #expect(store.objects(Pizza.self).filter("name == 'Diavola'").isEmpty)
        #expect(store.objects(Pizza.self).filter("name == 'Inferno'").map(\.id) == [4])
        #expect(store._checkInvariants())
    }

    @Test(arguments: StoreBackend.allCases) func unknownKeysInCheckedFiltersThrow(_ backend: StoreBackend) throws {
        let store = try Fixture.store(backend)
        #expect(throws: QueryError.self) { try store.objects(Pizza.self).filter(checked: "cost < 3") }
        #expect(try store.objects(Pizza.self).filter(checked: "price < %@", 650).map(\.id) == [6])
        #expect(store.objects(Pizza.self).filter("price < 1000").queryDescription == "price < 1000")
    }
}
