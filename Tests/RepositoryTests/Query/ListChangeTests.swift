import Differentiator
import Foundation
import ObjectStore
import Repository
import Streams
import Testing
import TestSupport

/// `ViewModelQuery.observeChanges(on:)` and `ListChange`: the store's change set, mapped to view models.
@Suite(.resourceCheck) struct ListChangeTests {
    func query(_ store: Store) -> ViewModelQuery<Pizza, PizzaViewModel> {
        ViewModelQuery(store: store, sortedBy: [ObjectStore.SortDescriptor(keyPath: "name")], viewModel: PizzaViewModel.init)
    }

    @Test func theFirstListIsInitialThenEachCommitBringsItsChangeSet() throws {
        let store = try makePizzaStore([Pizza(id: 1, name: "Quattro", priceWas: 9), Pizza(id: 2, name: "Diavola", priceWas: 8)])
        let recorder = EventRecorder<ListChange<PizzaViewModel>>()
        let subscription = query(store).observeChanges(on: ImmediateScheduler.instance).subscribe(recorder)
        defer { subscription.dispose() }
        let first = try #require(recorder.elements.first)
        #expect(first.isInitial)
        #expect(first.items.map(\.id) == [2, 1])
        try store.write { tx in
            try tx.add(Pizza(id: 3, name: "Bianca", priceWas: 7))                       // inserted at 0
            try tx.add(Pizza(id: 1, name: "Quattro", priceWas: 10), update: .modified)   // modified, now at 2
        }
        let change = try #require(recorder.elements.last)
        #expect(!change.isInitial)
        #expect(change.items.map(\.id) == [3, 2, 1])
        #expect(change.insertions == [0])
        #expect(change.deletions == [])
        #expect(change.modifications == [2])
        #expect(change.reloads == [1])
        #expect(change.difference.updates == [ListDifference.Update(old: 1, new: 2)])
        try store.write { tx in try tx.delete(try #require(tx.object(ofType: Pizza.self, forPrimaryKey: 2))) }
        #expect(recorder.elements.last?.deletions == [1])
        #expect(recorder.elements.count == 3)
    }

    /// A new query with the rows shown sends nothing, though its view model differs; the next
    /// change maps every row with that query's view model.
    @Test func aNewQueryWithTheRowsShownSendsNothingAndItsViewModelMapsTheNextChange() throws {
        let store = try makePizzaStore([Pizza(id: 1, name: "Quattro", priceWas: 9), Pizza(id: 2, name: "Diavola", priceWas: 8)])
        let queries = PublishSubject<ViewModelQuery<Pizza, PizzaViewModel>>()
        let recorder = EventRecorder<ListChange<PizzaViewModel>>()
        let subscription = queries.observeChanges(on: ImmediateScheduler.instance).subscribe(recorder)
        defer { subscription.dispose() }
        queries.onNext(query(store))
        let loud = ViewModelQuery(store: store, sortedBy: [ObjectStore.SortDescriptor(keyPath: "name")]) { (pizza: Pizza) in
            PizzaViewModel(id: pizza.id, title: pizza.name.uppercased())
        }
        queries.onNext(loud)
        #expect(recorder.elements.count == 1)
        #expect(recorder.elements.last?.items.map(\.title) == ["Diavola (8.0)", "Quattro (9.0)"])
        try store.write { tx in try tx.add(Pizza(id: 3, name: "Bianca", priceWas: 7)) }
        #expect(recorder.elements.count == 2)
        #expect(recorder.elements.last?.insertions == [0])
        #expect(recorder.elements.last?.items.map(\.title) == ["BIANCA", "DIAVOLA", "QUATTRO"])
    }

    /// Random commits (adds, deletes, re-keyed objects, renames that move sort positions,
    /// price changes in place) under a sorted and a filtered query, on both paths of the store
    /// (a few objects placed, or the query evaluated again and diffed): every `ListChange`'s
    /// difference turns the list before into the list after, and each reload is where the
    /// modified object was in the list before.
    @Test(arguments: [11, 12, 13] as [UInt64])
    func everyDifferenceTurnsTheListBeforeIntoTheListAfter(seed: UInt64) throws {
        var random = SeededRandom(seed: seed)
        let store = try makePizzaStore((0..<200).map { Pizza(id: $0, name: "p\($0 % 37)", priceWas: Double($0 % 9)) })
        let queries = [
            query(store),
            try ViewModelQuery(store: store, viewModel: PizzaViewModel.init).filtered("priceWas < 5"),
        ]
        var next = 1_000
        for query in queries {
            let recorder = EventRecorder<ListChange<PizzaViewModel>>()
            let subscription = query.observeChanges(on: ImmediateScheduler.instance).subscribe(recorder)
            defer { subscription.dispose() }
            for _ in 0..<150 {
                let big = Int.random(in: 0..<10, using: &random) == 0
                try store.write { tx in
                    let ids = storedPizzas(store).map(\.id)
                    for _ in 0..<(big ? 40 : Int.random(in: 1...3, using: &random)) {
                        guard let id = ids.randomElement(using: &random),
                              let pizza = tx.object(ofType: Pizza.self, forPrimaryKey: id) else { continue }
                        switch Int.random(in: 0..<5, using: &random) {
                        case 0: try tx.add(Pizza(id: next, name: "n\(next % 41)", priceWas: Double(next % 7)))
                        case 1: try tx.delete(pizza)
                        case 2:
                            try tx.delete(pizza)
                            try tx.add(Pizza(id: next, name: pizza.name, priceWas: pizza.priceWas))
                        case 3: try tx.add(Pizza(id: id, name: "r\(Int.random(in: 0..<50, using: &random))", priceWas: pizza.priceWas), update: .modified)
                        default: try tx.add(Pizza(id: id, name: pizza.name, priceWas: Double(Int.random(in: 0..<9, using: &random))), update: .modified)
                        }
                        next += 1
                    }
                }
            }
            let changes = recorder.elements
            #expect(changes.count > 100)
            for (before, after) in zip(changes, changes.dropFirst()) {
                #expect(after.difference.applied(to: before.items, taking: after.items) == after.items, "seed \(seed)")
                for update in after.difference.updates {
                    #expect(before.items[update.old].id == after.items[update.new].id, "seed \(seed)")
                }
            }
            #expect(changes.last?.items == query.results().toArray().map(PizzaViewModel.init))
        }
    }
}
