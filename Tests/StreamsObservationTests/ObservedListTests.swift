import Foundation
import ObjectStore
import Observation
import Repository
import Streams
import StreamsObservation
import TestSupport
import Testing

private struct Topping: StoreObject, Equatable {
    static var primaryKey: KeyPath<Topping, Int> { \.id }
    var id: Int
    var name: String
}

private struct Oven: StoreObject, Equatable {
    static var primaryKey: KeyPath<Oven, Int> { \.id }
    var id: Int
    var celsius: Int
}

private func toppingStore(_ names: [String]) throws -> Store {
    let store = Store()
    try store.write { tx in
        for (id, name) in names.enumerated() { try tx.add(Topping(id: id, name: name)) }
    }
    return store
}

private func names(_ store: Store) -> ViewModelQuery<Topping, String> {
    ViewModelQuery(store: store, sortedBy: [ObjectStore.SortDescriptor(keyPath: "name")]) { $0.name }
}

@MainActor @Suite(.resourceCheck) struct ObservedListTests {
    @Test func followsCommitsFromAnyThreadOnTheMainActorWithTheirChangeSets() async throws {
        let store = try toppingStore(["basil", "olives"])
        let toppings = ObservedList(names(store))
        let list = BodyReader { toppings.elements }
        let animation = BodyReader { toppings.lastChange.map { ($0.isInitial, $0.insertions, $0.deletions) } }
        #expect(list.output == ["basil", "olives"])
        #expect(animation.output?.0 == true)

        try await onAnotherThread {
            try store.write { try $0.add(Topping(id: 2, name: "capers")) }
        }
        #expect(list.invalidations == 0)                     // delivered on the main actor only
        MainScheduler.drain()
        #expect(list.invalidations == 1)
        #expect(list.render() == ["basil", "capers", "olives"])
        #expect(animation.render()?.1 == [1])                 // one row in, at 1: nothing reloads

        // A commit that does not touch the query sends nothing.
        try await onAnotherThread { try store.write { try $0.add(Oven(id: 1, celsius: 450)) } }
        MainScheduler.drain()
        #expect(list.invalidations == 1)

        try store.write { _ = try $0.delete(Topping.self, forPrimaryKey: 0) }
        MainScheduler.drain()
        #expect(list.invalidations == 2)
        #expect(list.render() == ["capers", "olives"])
        #expect(animation.render()?.2 == [0])
        #expect(list.offMainActor == 0 && animation.offMainActor == 0)
        #expect(toppings.error == nil)
    }

    @Test func followsAQueryThatChangesWithASearchField() throws {
        let store = try toppingStore(["basil", "olives", "oregano", "rocket"])
        let all = names(store)
        let search = ObservedInput("")
        let found = ObservedList(search.driver.map { text in
            text.isEmpty ? all : all.where { $0.name.contains(text, caseInsensitive: true) }
        })
        // The first list comes on the main scheduler after the driver's first query: one drain.
        MainScheduler.drain()
        let list = BodyReader { found.elements }
        #expect(list.output == ["basil", "olives", "oregano", "rocket"])

        search.value = "O"
        MainScheduler.drain()
        #expect(list.invalidations == 1)
        #expect(list.render() == ["olives", "oregano", "rocket"])
        #expect(found.lastChange?.isInitial == false)         // compared with the rows shown
        #expect(found.lastChange?.deletions == [0])

        try store.write { try $0.add(Topping(id: 9, name: "onion")) }
        MainScheduler.drain()
        #expect(list.invalidations == 2)
        #expect(list.render() == ["olives", "onion", "oregano", "rocket"])
        #expect(found.lastChange?.insertions == [1])
        #expect(list.offMainActor == 0)
    }

    @Test func aBadQueryIsAnErrorInTheStateAndTheLastListStays() throws {
        let store = try toppingStore(["basil"])
        let all = names(store)
        let search = ObservedInput("")
        let found = ObservedList(search.driver.asObservable().map { text -> ViewModelQuery<Topping, String> in
            text.isEmpty ? all : try all.filtered(text)       // a predicate the user typed
        })
        search.value = "name ==="
        MainScheduler.drain()
        #expect(found.error is QueryError)
        #expect(found.elements == ["basil"])
    }

    @Test func theObservationEndsWithTheState() throws {
        let store = try toppingStore(["basil"])
        let before = Resources.total
        var toppings: ObservedList<String>? = ObservedList(names(store))
        weak let released = toppings
        #expect(toppings?.elements == ["basil"])
        toppings = nil
        #expect(released == nil)
        #expect(Resources.total == before)
        try store.write { try $0.add(Topping(id: 5, name: "garlic")) }
        MainScheduler.drain()
    }

    @Test func aChangeHandedToTheMainQueueIsDroppedWhenTheStateIsReleasedMeanwhile() async throws {
        let changes = PublishSubject<ListChange<String>>()
        final class Holder { var list: ObservedList<String>? }
        let holder = Holder()
        holder.list = ObservedList(changes: changes.asObservable())
        weak let released = holder.list
        let view = BodyReader { holder.list?.elements }

        // Sent on another thread: the change waits in the main queue for this test to let go of
        // the main actor, and the state is released before it does.
        let sent = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            changes.onNext(.initial(["basil"]))
            sent.signal()
        }
        sent.wait()
        holder.list = nil
        #expect(released == nil)
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            DispatchQueue.main.async { continuation.resume() }   // after the change's turn
        }
        #expect(view.invalidations == 0)
    }
}

@MainActor @Suite(.resourceCheck) struct ObservedLoadStateTests {
    @Test func theLoadStateTheElementsAndTheirChange() {
        let local = PublishSubject<[String]>()
        let network = PublishSubject<[String]>()
        let menu = ObservedLoadState(LocalFirstList(local: local.asObservable(), network: network.asObservable()))
        let spinner = BodyReader { menu.state.list == nil }
        let rows = BodyReader { menu.elements }
        #expect(spinner.output == true)
        #expect(rows.output == [])

        local.onNext(["margherita"])
        #expect(spinner.invalidations == 1 && spinner.render() == false)
        #expect(rows.invalidations == 1 && rows.render() == ["margherita"])
        #expect(menu.lastChange?.isInitial == true)

        network.onNext(["margherita", "marinara"])
        #expect(rows.invalidations == 2 && rows.render() == ["margherita", "marinara"])
        #expect(menu.lastChange?.insertions == [1])
        #expect(menu.lastChange?.deletions == [])
        if case .loaded(_, origin: .network) = menu.state {} else { Issue.record("expected loaded from the network, got \(menu.state)") }

        struct Offline: Error {}
        network.onError(Offline())
        #expect(menu.state.error is Offline)                  // stale: the list stays
        #expect(rows.invalidations == 2)                      // the elements did not change
        #expect(spinner.offMainActor + rows.offMainActor == 0)
    }
}
