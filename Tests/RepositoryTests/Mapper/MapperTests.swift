import Foundation
import ObjectStore
@testable import Repository
import Streams
import StreamsTesting
import Testing
import TestSupport

@Suite(.resourceCheck) struct MapperTests {
    func mapper(_ store: Store, deletesMissing: Bool = true) -> Mapper<[Pizza], Pizza, PizzaViewModel> {
        Mapper(store: store, deletesMissing: deletesMissing, viewModel: PizzaViewModel.init)
    }

    @Test func decodesSnakeCaseStoresAndReturnsViewModels() throws {
        let store = try makePizzaStore()
        let result = try mapper(store).map(Data(pizzasJSON([(2, "Diavola", 9), (1, "Margherita", 7.5)]).utf8))
        #expect(result == [PizzaViewModel(id: 2, title: "Diavola (9.0)"), PizzaViewModel(id: 1, title: "Margherita (7.5)")])
        #expect(storedPizzas(store) == [Pizza(id: 1, name: "Margherita", priceWas: 7.5), Pizza(id: 2, name: "Diavola", priceWas: 9)])
    }

    @Test func writesInOneTransaction() throws {
        let store = try makePizzaStore([Pizza(id: 9, name: "Old", priceWas: 1)])
        let before = store.version
        _ = try mapper(store).map(Data(pizzasJSON([(1, "A", 1), (2, "B", 2), (3, "C", 3)]).utf8))
        #expect(store.version == before + 1)
    }

    @Test func upsertsChangedModels() throws {
        let store = try makePizzaStore([Pizza(id: 1, name: "Margherita", priceWas: 7)])
        _ = try mapper(store).map(Data(pizzasJSON([(1, "Margherita", 8)]).utf8))
        #expect(storedPizzas(store) == [Pizza(id: 1, name: "Margherita", priceWas: 8)])
    }

    @Test func deletesRowsTheResponseNoLongerContains() throws {
        let store = try makePizzaStore([Pizza(id: 1, name: "A", priceWas: 1), Pizza(id: 2, name: "B", priceWas: 2)])
        _ = try mapper(store).map(Data(pizzasJSON([(2, "B", 2), (3, "C", 3)]).utf8))
        #expect(storedPizzas(store).map(\.id) == [2, 3])
    }

    @Test func keepsMissingRowsWhenAskedTo() throws {
        let store = try makePizzaStore([Pizza(id: 1, name: "A", priceWas: 1)])
        _ = try mapper(store, deletesMissing: false).map(Data(pizzasJSON([(3, "C", 3)]).utf8))
        #expect(storedPizzas(store).map(\.id) == [1, 3])
    }

    @Test func malformedJSONIsATypedErrorAndTheStoreIsUnchanged() throws {
        let original = [Pizza(id: 1, name: "A", priceWas: 1)]
        let store = try makePizzaStore(original)
        let version = store.version
        #expect(throws: MapperError.self) { try mapper(store).map(Data(#"[{"id": 1, "#.utf8)) }
        do {
            _ = try mapper(store).map(Data("not json".utf8))
            Issue.record("expected an error")
        } catch let MapperError.couldNotParse(path, reason) {
            #expect(path == "$")
            #expect(reason.hasPrefix("malformed JSON"))
        }
        #expect(storedPizzas(store) == original)
        #expect(store.version == version)
    }

    @Test func aMissingFieldNamesItsJSONPath() throws {
        let store = try makePizzaStore([Pizza(id: 5, name: "E", priceWas: 5)])
        let json = #"[{"id": 1, "name": "A", "price_was": 1}, {"id": 2, "name": "B"}]"#
        #expect(throws: MapperError.couldNotParse(path: "$[1].price_was", reason: "missing field")) {
            try mapper(store).map(Data(json.utf8))
        }
        #expect(storedPizzas(store).map(\.id) == [5])
    }

    @Test func aWrongTypeNamesItsJSONPath() throws {
        let store = try makePizzaStore()
        let json = #"[{"id": 1, "name": "A", "price_was": "cheap"}]"#
        do {
            _ = try mapper(store).map(Data(json.utf8))
            Issue.record("expected an error")
        } catch let MapperError.couldNotParse(path, reason) {
            #expect(path == "$[0].price_was")
            #expect(reason.hasPrefix("expected Double"))
        }
        #expect(storedPizzas(store).isEmpty)
    }

    @Test func fromJSONRunsOnTheGivenScheduler() throws {
        let store = try makePizzaStore()
        let scheduler = TestScheduler(initialClock: 0)
        let data = Data(pizzasJSON([(1, "A", 1)]).utf8)
        let res = scheduler.start { mapper(store).fromJSON(data, on: scheduler).asObservable() }
        #expect(res.events == [.next(201, [PizzaViewModel(id: 1, title: "A (1.0)")]), .completed(201)])
        #expect(storedPizzas(store).map(\.id) == [1])
    }

    /// `asyncMap` writes with `await store.asyncWrite`: one transaction on the
    /// store's writer, the same view models, and bad JSON leaves the store as it was.
    @Test func awaitedMapStoresInOneTransactionOnTheWriter() async throws {
        let store = try makePizzaStore([Pizza(id: 9, name: "Old", priceWas: 1)])
        let before = store.version
        let result = try await mapper(store).asyncMap(Data(pizzasJSON([(2, "Diavola", 9), (1, "Margherita", 7.5)]).utf8))
        #expect(result == [PizzaViewModel(id: 2, title: "Diavola (9.0)"), PizzaViewModel(id: 1, title: "Margherita (7.5)")])
        #expect(storedPizzas(store).map(\.id) == [1, 2])
        #expect(store.version == before + 1)
        await #expect(throws: MapperError.self) { try await mapper(store).asyncMap(Data("not json".utf8)) }
        #expect(store.version == before + 1)
    }
}
