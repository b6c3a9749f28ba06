import Foundation
import Testing
import TestSupport
@testable import ObjectStore

@Suite(.resourceCheck) struct QueryParserTests {
    /// Valid queries and the ids they match on the fixture (in store order unless sorted).
    nonisolated(unsafe) static let valid: [(query: String, args: [Any], ids: [Int])] = [
        ("TRUEPREDICATE", [], [1, 2, 3, 4, 5, 6]),
        ("FALSEPREDICATE", [], []),
        ("price < 1000", [], [1, 2, 6]),
        ("price <= 1000", [], [1, 2, 4, 6]),
        ("price > 1000", [], [3, 5]),
        ("price >= 1100", [], [3, 5]),
        ("price == 700", [], [1]),
        ("price = 700", [], [1]),
        ("price != 700", [], [2, 3, 4, 5, 6]),
        ("price <> 700", [], [2, 3, 4, 5, 6]),
        ("price => 1100", [], [3, 5]),
        ("price =< 700", [], [1, 6]),
        ("1000 > price", [], [1, 2, 6]),
        ("price < %@", [1000], [1, 2, 6]),
        ("price < $0 AND vegetarian == $1", [1000, true], [1, 6]),
        ("price BETWEEN {700, 1000}", [], [1, 2, 4]),
        ("id IN {1, 3, 5}", [], [1, 3, 5]),
        ("id IN %@", [[2, 4, 9]], [2, 4]),
        ("id IN $0", [[6, 1]], [1, 6]),
        ("name IN {'Diavola', 'marinara'}", [], [4, 6]),
        ("name == 'Margherita'", [], [1]),
        ("name == \"Margherita\"", [], [1]),
        ("name ==[c] 'MARINARA'", [], [6]),
        ("name BEGINSWITH 'Ma'", [], [1]),
        ("name BEGINSWITH[c] 'ma'", [], [1, 6]),
        ("name ENDSWITH 'a'", [], [1, 4, 6]),
        ("name CONTAINS 'Form'", [], [3]),
        ("name CONTAINS[c] 'pep'", [], [2]),
        ("name CONTAINS[d] 'Creme'", [], [5]),
        ("name CONTAINS[cd] 'creme brulee'", [], [5]),
        ("name LIKE 'M*a'", [], [1]),
        ("name LIKE[c] 'm*a'", [], [1, 6]),
        ("name LIKE '?iavola'", [], [4]),
        ("vegetarian == true", [], [1, 3, 5, 6]),
        ("vegetarian == false AND price > 950", [], [4]),
        ("vegetarian == true && price > 1000 || id == 2", [], [2, 3, 5]),
        ("NOT vegetarian == true", [], [2, 4]),
        ("!(price < 1000)", [], [3, 4, 5]),
        ("(id == 1 OR id == 2) AND NOT id == 2", [], [1]),
        ("rating == nil", [], [3]),
        ("rating == null", [], [3]),
        ("rating != nil AND rating >= 4", [], [1, 2, 6]),
        ("chef.name == 'Mario'", [], [2, 4]),
        ("chef.age < 36", [], [2, 4, 5]),
        ("chef == nil", [], [3, 6]),
        ("main.name == 'Classic'", [], [1, 2, 6]),
        ("main == nil", [], [5]),
        ("main == %@", [Fixture.veggie], [3]),
        ("categories.name == 'Classic'", [], [1, 2, 6]),
        ("ANY categories.name == 'Spicy'", [], [2, 4, 6]),
        ("SOME categories.id == 2", [], [1, 3, 6]),
        ("ALL categories.name != 'Spicy'", [], [1, 3, 5]),
        ("NONE categories.id == 1", [], [3, 4, 5]),
        ("ANY categories.id IN %@", [[3]], [2, 4, 6]),
        ("categories.@count > 1", [], [1, 2, 6]),
        ("categories.@size == 0", [], [5]),
        ("categories.@count == 3", [], [6]),
        ("categories.@sum.id >= 4", [], [2, 6]),
        ("categories.@max.id == 2", [], [1, 3]),
        ("categories.@min.id == 1", [], [1, 2, 6]),
        ("categories.@avg.id == 2", [], [2, 3, 6]),
        ("tags.@count == 2", [], [1, 5]),
        ("'cheese' IN tags", [], [1, 3, 5]),
        ("ANY tags == 'meat'", [], [2]),
        ("ANY tags BEGINSWITH 'g'", [], [6]),
        ("SUBQUERY(categories, $c, $c.name BEGINSWITH 'V').@count > 0", [], [1, 3, 6]),
        ("SUBQUERY(categories, $c, $c.id > 1 AND $c.name != 'Veggie').@count == 1", [], [2, 4, 6]),
        ("baked > 2023-11-14@22:13:20", [], [2, 3, 5, 6]),
        ("baked == T1700000000:0", [], [1]),
        ("baked < %@", [Fixture.base], [4]),
        ("code == %@", [Fixture.uuid(3)], [3]),
        ("weight > 320", [], [2, 4]),
        ("price == 1250.5", [], [5]),
        ("price > 1.25e3", [], [5]),
        ("%K == %@", ["name", "Diavola"], [4]),
        ("%K.%K == 'Luigi'", ["chef", "name"], [1]),
        ("name == %@", ["x' OR TRUEPREDICATE OR name == 'y"], []),
        ("name == 'it\\'s'", [], []),
        ("price > 0 SORT(price DESC)", [], [5, 3, 4, 2, 1, 6]),
        ("vegetarian == true SORT(name ASC) LIMIT(2)", [], [5, 1]),
        ("TRUEPREDICATE SORT(chef.name ASC, id DESC)", [], [6, 3, 1, 4, 2, 5]),
        ("TRUEPREDICATE DISTINCT(main) SORT(id DESC)", [], [5, 4, 3, 1]),
        ("price < 2000 LIMIT(3)", [], [1, 2, 3]),
        ("SORT(price ASC)", [], [6, 1, 2, 4, 3, 5]),
        ("id == 2 AND price < 1000", [], [2]),
        ("rating < id", [], [4, 5, 6]),
        ("ANY categories.id == main.id AND categories.@count == 1", [], [3, 4]),
        ("name == 'Pepperoni' OR name == 'Diavola'", [], [2, 4]),
    ]

    func ids(_ results: Results<Pizza>) -> [Int] { results.map(\.id) }

    @Test func validQueriesMatchTheFixture() throws {
        let store = try Fixture.store()
        for entry in Self.valid {
            let predicate = try StorePredicate(format: entry.query, arguments: entry.args)
            let results = try store.objects(Pizza.self).filter(checked: predicate)
            #expect(ids(results) == entry.ids, "\(entry.query)")
        }
    }

    @Test func descriptionsParseBackToTheSameMatches() throws {
        let store = try Fixture.store()
        for entry in Self.valid {
            let predicate = try StorePredicate(format: entry.query, arguments: entry.args)
            let text = predicate.description
            let reparsed = try StorePredicate(format: text)
            let results = try store.objects(Pizza.self).filter(checked: reparsed)
            #expect(ids(results) == entry.ids, "\(entry.query) → \(text)")
        }
    }

    nonisolated(unsafe) static let invalid: [(query: String, args: [Any], message: String)] = [
        ("price < ", [], "expected a value after '<' at column 9, found end of query"),
        ("", [], "expected a predicate at column 1, found end of query"),
        ("price", [], "expected an operator after 'price' at column 6, found end of query"),
        ("price <<", [], "expected a value after '<' at column 8, found '<'"),
        ("price < 10 AND", [], "expected a predicate after 'AND' at column 15, found end of query"),
        ("(price < 10", [], "expected ')' or an operator at column 12, found end of query"),
        ("name == 'abc", [], "expected a closing ' at column 13, found end of query"),
        ("price < %@", [], "expected argument #1 (0 given) at column 9, found '%@'"),
        ("price < $2", [1], "expected argument $2 (1 given) at column 9, found '$2'"),
        ("price BETWEEN {1 2}", [], "expected ',' between the BETWEEN bounds at column 18, found '2'"),
        ("name CONTAINS[x] 'a'", [], "expected c, d or cd inside '[ ]' at column 15, found 'x'"),
        ("price < 10 price", [], "expected AND, OR or the end of the query at column 12, found 'price'"),
        ("categories.@foo > 1", [], "expected @count, @size, @sum, @avg, @min or @max at column 12, found '@foo'"),
        ("price < 10 LIMIT(x)", [], "expected a non-negative whole number in LIMIT at column 18, found 'x'"),
        ("name # 'a'", [], "expected a key, value or operator at column 6, found '#'"),
        ("prize < 10", [], "unknown key 'prize' in Pizza at column 1; Pizza has keys: id, name, price, vegetarian, rating, tags, categories, main, chef, baked, code, weight"),
        ("categories.title == 'x'", [], "unknown key 'title' in Category at column 1; Category has keys: id, name"),
        ("price > 1 SORT(name ASC, cost DESC)", [], "unknown key 'cost' in Pizza at column 26; Pizza has keys: id, name, price, vegetarian, rating, tags, categories, main, chef, baked, code, weight"),
        ("TRUEPREDICATE DISTINCT(chef.nick)", [], "unknown key 'nick' at column 24; known keys: age, name"),
        ("name < 5", [], "expected a string value for 'name' at column 1, found 5"),
        ("price == 'cheap'", [], "expected a double value for 'price' at column 1, found \"cheap\""),
        ("price BEGINSWITH 'x'", [], "expected a string key path for BEGINSWITH at column 1, found \"x\""),
    ]

    @Test func invalidQueriesNameWhatWasExpectedAndWhere() throws {
        let store = try Fixture.store()
        for entry in Self.invalid {
            do {
                let predicate = try StorePredicate(format: entry.query, arguments: entry.args)
                _ = try store.objects(Pizza.self).filter(checked: predicate)
                Issue.record("no error for \(entry.query)")
            } catch let error as QueryError {
                #expect(error.description == entry.message, "\(entry.query)")
            }
        }
    }

    @Test func argumentsAreNeverParsedAsQueryText() throws {
        let store = try Fixture.store()
        let injected = store.objects(Pizza.self).filter("name == %@", "' OR TRUEPREDICATE")
        #expect(injected.isEmpty)
        let key = store.objects(Pizza.self).filter("name == $0", "Diavola")
        #expect(key.map(\.id) == [4])
    }

    @Test func errorCarriesItsParts() throws {
        #expect(throws: QueryError(.syntax, expected: "a value after '<'", found: "end of query", column: 9)) {
            _ = try StorePredicate(format: "price < ")
        }
    }
}
