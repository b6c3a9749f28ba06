import Foundation
import Testing
import TestSupport
@testable import ObjectStore

@Suite(.resourceCheck) struct QueryBuilderTests {
    @Test(arguments: StoreBackend.allCases) func typedQueriesMatchTheirTextTwins(_ backend: StoreBackend) throws {
        let store = try Fixture.store(backend)
        let pizzas = store.objects(Pizza.self)
        let cases: [(StorePredicate, String)] = [
            (StoreQuery<Pizza>().price < 1000, "price < 1000"),
            (StoreQuery<Pizza>().price < 1000 && StoreQuery<Pizza>().name.contains("pep", caseInsensitive: true), "price < 1000 AND name CONTAINS[c] 'pep'"),
            (StoreQuery<Pizza>().vegetarian == true || StoreQuery<Pizza>().id == 4, "vegetarian == true OR id == 4"),
            (!(StoreQuery<Pizza>().price >= 1000), "NOT price >= 1000"),
            (StoreQuery<Pizza>().rating == nil, "rating == nil"),
            (StoreQuery<Pizza>().rating > 3, "rating > 3"),
            (StoreQuery<Pizza>().chef.name == "Mario", "chef.name == 'Mario'"),
            (StoreQuery<Pizza>().main.name == "Classic", "main.name == 'Classic'"),
            (StoreQuery<Pizza>().categories.name == "Spicy", "ANY categories.name == 'Spicy'"),
            (StoreQuery<Pizza>().categories.count > 1, "categories.@count > 1"),
            (StoreQuery<Pizza>().id.in([1, 3, 9]), "id IN {1, 3, 9}"),
            (StoreQuery<Pizza>().price.between(700, 1000), "price BETWEEN {700, 1000}"),
            (StoreQuery<Pizza>().name.starts(with: "ma", caseInsensitive: true), "name BEGINSWITH[c] 'ma'"),
            (StoreQuery<Pizza>().name.ends(with: "a"), "name ENDSWITH 'a'"),
            (StoreQuery<Pizza>().name.like("?iavola"), "name LIKE '?iavola'"),
            (StoreQuery<Pizza>().name.equals("creme brulee", caseInsensitive: true, diacriticInsensitive: true), "name ==[cd] 'creme brulee'"),
        ]
        for (built, text) in cases {
            let want = pizzas.filter(text).map(\.id)
            #expect(pizzas.filter(built).map(\.id) == want, "\(text)")
            #expect(!want.isEmpty || text.contains("nil"), "fixture should make \(text) match something")
            #expect(pizzas.filter(try StorePredicate(format: built.description)).map(\.id) == want)
        }
        #expect(pizzas.where { $0.price < 1000 && $0.name.contains("pep", caseInsensitive: true) }.map(\.id) == [2])
    }
}
