import Foundation
import Streams
import Testing
import TestSupport
@testable import ObjectStore

/// `add(_:update: .modified)` of many objects that link the same few: a linked object is
/// written, and reported, exactly when its row differs from the stored one at that point of
/// the transaction, however many objects carried it before.
@Suite(.resourceCheck) struct LinkedObjectWriteTests {
    /// Pizzas 1...n, each linking `classic`; pizza `renamedAt` carries it renamed.
    static func pizzas(_ n: Int, renamedAt: Int?, name: String = "Classico") -> [Pizza] {
        (1...n).map { id in
            var pizza = Fixture.pizzas[0]
            pizza.id = id
            pizza.categories = [Fixture.classic]
            pizza.main = Fixture.classic
            if id == renamedAt {
                pizza.categories = [Category(id: 1, name: name)]
                pizza.main = Category(id: 1, name: name)
            }
            return pizza
        }
    }

    static func categoryRecords(_ store: Store) -> [ChangeRecord] {
        store._lastCommitLog.filter {
            switch $0 {
            case .insert(let table, _), .update(let table, _, _, _), .delete(let table, _): table == "Category"
            }
        }
    }

    @Test(arguments: StoreBackend.allCases) func aLinkedObjectChangedByTheLastOfManyObjectsIsWrittenAndReported(_ backend: StoreBackend) throws {
        let store = try backend.makeStore()
        try store.write { tx in try tx.add(Self.pizzas(50, renamedAt: nil), update: .modified) }
        let seen = UncheckedBox<[[Int]]>([])
        let subscription = store.objects(Category.self).observe(on: ImmediateScheduler.instance).subscribe(onNext: { change in
            if case .update(_, _, _, let modifications) = change { seen.value.append(modifications) }
        })
        defer { subscription.dispose() }
        // 49 pizzas carry the stored category; the last carries it renamed.
        var batch = Self.pizzas(50, renamedAt: 50)
        for i in batch.indices { batch[i].price += 1 }
        try store.write { tx in try tx.add(batch, update: .modified) }
        #expect(store.object(ofType: Category.self, forPrimaryKey: 1)?.name == "Classico")
        #expect(Self.categoryRecords(store) == [.update(table: "Category", key: .int(1), fields: [1], values: [.string("Classico")])])
        #expect(seen.value == [[0]])
        #expect(store._checkInvariants())
    }

    @Test(arguments: StoreBackend.allCases) func aLinkedObjectChangedInTheMiddleIsWrittenThenWrittenBack(_ backend: StoreBackend) throws {
        let store = try backend.makeStore()
        try store.write { tx in try tx.add(Self.pizzas(9, renamedAt: nil), update: .modified) }
        // The last copy wins, as in Realm: renamed by pizza 5, named back by pizza 6.
        try store.write { tx in try tx.add(Self.pizzas(9, renamedAt: 5), update: .modified) }
        #expect(store.object(ofType: Category.self, forPrimaryKey: 1)?.name == "Classic")
        #expect(Self.categoryRecords(store) == [
            .update(table: "Category", key: .int(1), fields: [1], values: [.string("Classico")]),
            .update(table: "Category", key: .int(1), fields: [1], values: [.string("Classic")]),
        ])
        #expect(store._checkInvariants())
    }

    @Test(arguments: StoreBackend.allCases) func unchangedLinkedObjectsAreNeitherWrittenNorReported(_ backend: StoreBackend) throws {
        let store = try backend.makeStore()
        try store.write { tx in try tx.add(Self.pizzas(20, renamedAt: nil), update: .modified) }
        let seen = UncheckedBox<Int>(0)
        let subscription = store.objects(Category.self).observe(on: ImmediateScheduler.instance).subscribe(onNext: { change in
            if case .update = change { seen.value += 1 }
        })
        defer { subscription.dispose() }
        var batch = Self.pizzas(20, renamedAt: nil)
        for i in batch.indices { batch[i].price += 1 }
        try store.write { tx in try tx.add(batch, update: .modified) }
        #expect(Self.categoryRecords(store).isEmpty)
        #expect(store._lastCommitLog.count == 20)
        #expect(seen.value == 0)
    }

    @Test(arguments: StoreBackend.allCases) func aLinkedObjectChangedDirectlyIsWrittenBackByTheNextObjectLinkingIt(_ backend: StoreBackend) throws {
        let store = try backend.makeStore()
        try store.write { tx in try tx.add(Self.pizzas(3, renamedAt: nil), update: .modified) }
        try store.write { tx in
            try tx.add(Self.pizzas(1, renamedAt: nil), update: .modified)        // links the stored classic
            try tx.add(Category(id: 1, name: "Renamed"), update: .modified)      // then renamed on its own
            try tx.add(Self.pizzas(2, renamedAt: nil)[1], update: .modified)     // carries the old name again
        }
        #expect(store.object(ofType: Category.self, forPrimaryKey: 1)?.name == "Classic")
        try store.write { tx in
            try tx.add(Self.pizzas(1, renamedAt: nil), update: .modified)
            try tx.delete(Category.self, forPrimaryKey: 1)
            try tx.add(Self.pizzas(2, renamedAt: nil)[1], update: .modified)     // adds it again
        }
        #expect(store.object(ofType: Category.self, forPrimaryKey: 1) == Fixture.classic)
        try store.write { tx in
            try tx.add(Self.pizzas(1, renamedAt: nil), update: .modified)
            try tx.update(Category.self, forPrimaryKey: 1) { $0.name = "Updated" }
            try tx.add(Self.pizzas(2, renamedAt: nil)[1], update: .modified)
        }
        #expect(store.object(ofType: Category.self, forPrimaryKey: 1) == Fixture.classic)
        #expect(store._checkInvariants())
    }

    final class Note: Codable {
        var text: String
        init(_ text: String) { self.text = text }
    }

    /// A linked model holding a class: the same bytes (the same instance) need not be the same
    /// value.
    struct Labelled: StoreObject {
        static var primaryKey: KeyPath<Labelled, Int> { \.id }
        var id: Int
        var note: Note
    }

    struct Holder: StoreObject {
        static var primaryKey: KeyPath<Holder, Int> { \.id }
        var id: Int
        var labels: [Labelled]
    }

    /// A linked object is known again by its bytes only when its bytes are its value: one
    /// holding a class instance changed in place between two objects carrying it is written
    /// again, as is a plain one changed between them.
    @Test(arguments: StoreBackend.allCases) func aLinkedObjectChangedInPlaceIsWrittenAgain(_ backend: StoreBackend) throws {
        let store = try backend.makeStore()
        let note = Note("first")
        let label = Labelled(id: 1, note: note)
        try store.write { tx in
            try tx.add(Holder(id: 1, labels: [label]), update: .modified)
            note.text = "second"
            try tx.add(Holder(id: 2, labels: [label]), update: .modified)
        }
        #expect(store.object(ofType: Labelled.self, forPrimaryKey: 1)?.note.text == "second")
        try store.write { tx in
            var pizzas = Self.pizzas(3, renamedAt: nil)
            pizzas[2].categories[0].name = String(repeating: "Long name, not inline ", count: 3)
            try tx.add(pizzas, update: .modified)
        }
        #expect(store.object(ofType: Category.self, forPrimaryKey: 1)?.name == String(repeating: "Long name, not inline ", count: 3))
        #expect(store._checkInvariants())
    }

    @Test(arguments: StoreBackend.allCases) func theOtherPoliciesStillWriteEveryLinkedObject(_ backend: StoreBackend) throws {
        let store = try backend.makeStore()
        try store.write { tx in try tx.add(Self.pizzas(4, renamedAt: nil), update: .modified) }
        try store.write { tx in try tx.add(Self.pizzas(4, renamedAt: nil), update: .all) }
        // `.all` writes (and reports) the category once per add: once per object carrying it.
        #expect(Self.categoryRecords(store).count == 4)
        #expect(throws: StoreError.duplicatePrimaryKey(type: "Category", key: "1")) {
            try store.write { tx in
                try tx.deleteAll(Pizza.self)
                try tx.add(Self.pizzas(2, renamedAt: nil), update: .error)
            }
        }
    }
}
