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
        #expect(change.modificationsInPreviousList == [1])
        try store.write { tx in try tx.delete(try #require(tx.object(ofType: Pizza.self, forPrimaryKey: 2))) }
        #expect(recorder.elements.last?.deletions == [1])
        #expect(recorder.elements.count == 3)
    }

    /// Random edits of a list of unique ids: the old position of every modified row, as
    /// `modificationsInPreviousList` computes it, is where that id was before.
    @Test func modificationsInThePreviousListMatchARecomputation() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<500 {
            let oldCount = Int.random(in: 0...12, using: &generator)
            let old = Array(0..<oldCount)
            let deletions = old.indices.filter { _ in Bool.random(using: &generator) }
            var new = old.enumerated().filter { !deletions.contains($0.offset) }.map(\.element)
            var next = 100
            for _ in 0..<Int.random(in: 0...5, using: &generator) {
                new.insert(next, at: Int.random(in: 0...new.count, using: &generator))
                next += 1
            }
            let insertions = new.indices.filter { new[$0] >= 100 }
            let modifications = new.indices.filter { new[$0] < 100 && Bool.random(using: &generator) }
            let change = ListChange(items: new, deletions: deletions, insertions: insertions, modifications: modifications)
            #expect(change.modificationsInPreviousList == modifications.map { old.firstIndex(of: new[$0])! },
                    "old \(old) new \(new) deletions \(deletions)")
        }
    }
}
