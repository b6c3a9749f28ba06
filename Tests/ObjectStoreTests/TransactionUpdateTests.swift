import Foundation
import Streams
import Testing
import TestSupport
@testable import ObjectStore

/// `Transaction.update(_:forPrimaryKey:_:)`: read-modify-write by primary key.
@Suite(.resourceCheck) struct TransactionUpdateTests {
    @Test(arguments: StoreBackend.allCases) func changesTheStoredObjectAndReturnsIt(_ backend: StoreBackend) throws {
        let store = try Fixture.store(backend)
        let written = try store.write { tx in
            try tx.update(Pizza.self, forPrimaryKey: 2) { $0.name = "Pepperoni Piccante"; $0.rating = nil }
        }
        var expected = Fixture.pizzas[1]
        expected.name = "Pepperoni Piccante"
        expected.rating = nil
        #expect(written == expected)
        #expect(store.object(ofType: Pizza.self, forPrimaryKey: 2) == expected)
        // Only the changed fields are written, as `add(_:update: .modified)` writes them.
        #expect(store._lastCommitLog == [.update(table: "Pizza", key: .int(2), fields: [1, 4], values: [.string("Pepperoni Piccante"), .null])])
        #expect(store._checkInvariants())
    }

    @Test func theShortSpellingIsTheSameCall() throws {
        let store = try Fixture.store()
        try store.write { tx in try tx.update(Pizza.self, 3) { $0.price += 100 } }
        #expect(store.object(ofType: Pizza.self, forPrimaryKey: 3)?.price == 1200)
    }

    @Test func seesEarlierChangesOfTheSameTransaction() throws {
        let store = try Fixture.store()
        try store.write { tx in
            try tx.update(Pizza.self, forPrimaryKey: 1) { $0.price = 750 }
            try tx.update(Pizza.self, forPrimaryKey: 1) { $0.price += 25 }
            var fresh = Fixture.pizzas[0]
            fresh.id = 7
            try tx.add(fresh, update: .modified)   // its categories are stored already
            try tx.update(Pizza.self, forPrimaryKey: 7) { $0.name = "Seven" }
        }
        #expect(store.object(ofType: Pizza.self, forPrimaryKey: 1)?.price == 775)
        #expect(store.object(ofType: Pizza.self, forPrimaryKey: 7)?.name == "Seven")
    }

    @Test(arguments: StoreBackend.allCases) func aMissingObjectIsATypedErrorAndNothingIsWritten(_ backend: StoreBackend) throws {
        let store = try Fixture.store(backend)
        let version = store.version
        #expect(throws: StoreError.objectNotFound(type: "Pizza", key: "99")) {
            try store.write { tx in
                try tx.update(Pizza.self, forPrimaryKey: 1) { $0.price = 1 }   // rolled back with the rest
                try tx.update(Pizza.self, forPrimaryKey: 99) { $0.price = 1 }
            }
        }
        #expect(store.version == version)
        #expect(store.object(ofType: Pizza.self, forPrimaryKey: 1) == Fixture.pizzas[0])
        #expect("\(StoreError.objectNotFound(type: "Pizza", key: "99"))" == "no Pizza with primary key 99")
        // A string key is quoted as the query language writes it.
        #expect(throws: StoreError.objectNotFound(type: "Tag", key: "\"none\"")) {
            try store.write { tx in try tx.update(Tag.self, forPrimaryKey: "none") { $0.small = 1 } }
        }
    }

    @Test func changingThePrimaryKeyIsATypedError() throws {
        let store = try Fixture.store()
        #expect(throws: StoreError.primaryKeyChanged(type: "Pizza", key: "1", newKey: "8")) {
            try store.write { tx in try tx.update(Pizza.self, forPrimaryKey: 1) { $0.id = 8 } }
        }
        #expect(store.object(ofType: Pizza.self, forPrimaryKey: 8) == nil)
        #expect(store.object(ofType: Pizza.self, forPrimaryKey: 1) == Fixture.pizzas[0])
    }

    @Test func anErrorFromTheBodyRollsBack() throws {
        let store = try Fixture.store()
        #expect(throws: TestError.boom) {
            try store.write { tx in
                try tx.update(Pizza.self, forPrimaryKey: 1) { pizza in
                    pizza.price = 1
                    throw TestError.boom
                }
            }
        }
        #expect(store.object(ofType: Pizza.self, forPrimaryKey: 1) == Fixture.pizzas[0])
    }

    @Test func observersSeeAModification() throws {
        let store = try Fixture.store()
        let seen = UncheckedBox<[Seen]>([])
        let subscription = record(store.objects(Pizza.self).sorted(byKeyPath: "id"), into: seen)
        var properties: [[String]] = []
        let watching = store.observe(Pizza.self, forPrimaryKey: 2, on: ImmediateScheduler.instance).subscribe(onNext: { change in
            if case .change(_, let changes) = change { properties.append(changes.map(\.name)) }
        })
        try store.write { tx in try tx.update(Pizza.self, forPrimaryKey: 2) { $0.vegetarian = true } }
        // Nothing changed: no commit reaches the observers.
        try store.write { tx in try tx.update(Pizza.self, forPrimaryKey: 2) { $0.vegetarian = true } }
        subscription.dispose()
        watching.dispose()
        #expect(seen.value == [.initial([1, 2, 3, 4, 5, 6]), .update([1, 2, 3, 4, 5, 6], deletions: [], insertions: [], modifications: [1])])
        #expect(properties == [["vegetarian"]])
    }

    @Test func aClosedTransactionThrows() throws {
        let store = try Fixture.store()
        var kept: Transaction?
        try store.write { kept = $0 }
        #expect(throws: StoreError.transactionClosed) {
            try kept?.update(Pizza.self, forPrimaryKey: 1) { $0.price = 1 }
        }
    }
}
