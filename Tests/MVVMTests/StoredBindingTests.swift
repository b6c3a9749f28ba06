import Foundation
import HeadlessUI
import MVVM
import ObjectStore
import Streams
import TestSupport
import Testing

private struct StoredPizza: StoreObject, Equatable {
    static var primaryKey: KeyPath<StoredPizza, Int> { \.id }
    var id: Int
    var name: String
    var price: Int
}

@MainActor @Suite(.resourceCheck) struct StoredBindingTests {
    private func makeStore() throws -> Store {
        let store = Store()
        try store.write { try $0.add(StoredPizza(id: 1, name: "Margherita", price: 899)) }
        return store
    }

    /// Counts the commits that changed the pizza table.
    private func countCommits(_ store: Store) -> (Disposable, () -> Int) {
        var updates = 0
        let subscription = store.objects(StoredPizza.self).observe(on: CurrentThreadScheduler.instance)
            .subscribe(onNext: { change in
                if case .update = change { updates += 1 }
            })
        return (subscription, { updates })
    }

    @Test func bindingWritesNothingAtConstructionAndTakesTheStoredValue() throws {
        let store = try makeStore()
        let (counter, commits) = countCommits(store)
        let name = Variable("placeholder")
        let binding = name.bindTwoWay(to: store, StoredPizza.self, primaryKey: 1, property: \.name, on: CurrentThreadScheduler.instance)
        #expect(name.value == "Margherita")
        #expect(commits() == 0)
        binding.dispose()
        counter.dispose()
    }

    @Test func settingTheVariableWritesOneModifiedCommitWithoutEcho() throws {
        let store = try makeStore()
        let (counter, commits) = countCommits(store)
        let name = Variable("")
        let price = Variable(0)
        let nameBinding = name.bindTwoWay(to: store, StoredPizza.self, primaryKey: 1, property: \.name, on: CurrentThreadScheduler.instance)
        let priceBinding = price.bindTwoWay(to: store, StoredPizza.self, primaryKey: 1, property: \.price, on: CurrentThreadScheduler.instance)
        name.value = "Margherita DOP"
        #expect(store.object(ofType: StoredPizza.self, forPrimaryKey: 1) == StoredPizza(id: 1, name: "Margherita DOP", price: 899))
        #expect(commits() == 1)
        #expect(name.value == "Margherita DOP")
        #expect(price.value == 899)
        nameBinding.dispose()
        priceBinding.dispose()
        counter.dispose()
    }

    @Test func aStoreChangeUpdatesTheVariableAndIsNotWrittenBack() throws {
        let store = try makeStore()
        let name = Variable("")
        let binding = name.bindTwoWay(to: store, StoredPizza.self, primaryKey: 1, property: \.name, on: CurrentThreadScheduler.instance)
        let (counter, commits) = countCommits(store)
        try store.write { try $0.add(StoredPizza(id: 1, name: "Marinara", price: 799), update: .modified) }
        #expect(name.value == "Marinara")
        #expect(commits() == 1)
        binding.dispose()
        counter.dispose()
    }

    @Test func writingToADeletedObjectReportsAndRestores() throws {
        let store = try makeStore()
        let name = Variable("")
        var errors: [Error] = []
        let binding = name.bindTwoWay(to: store, StoredPizza.self, primaryKey: 1, property: \.name, on: CurrentThreadScheduler.instance, onError: { errors.append($0) })
        try store.write { transaction in
            if let pizza = transaction.object(ofType: StoredPizza.self, forPrimaryKey: 1) { try transaction.delete(pizza) }
        }
        name.value = "Ghost"
        #expect(errors.count == 1)
        #expect((errors.first as? StoredBindingError) == .objectNotFound(type: "StoredPizza", key: "1"))
        #expect(name.value == "Margherita")
        binding.dispose()
    }
}
