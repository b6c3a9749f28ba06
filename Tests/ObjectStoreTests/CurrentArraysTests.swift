import Foundation
import Streams
import StreamsTesting
import Testing
import TestSupport
@testable import ObjectStore

/// `asObservable(on:)` gives one array per version; `currentArrays(on:)` gives what the store
/// holds when the observer runs.
@Suite(.resourceCheck) struct CurrentArraysTests {
    private func cheap(_ store: Store) -> Results<Pizza> {
        store.objects(Pizza.self).filter("price < 1000").sorted(byKeyPath: "id")
    }

    private func delete(_ id: Int, from store: Store) throws {
        try store.write { tx in try tx.delete(Fixture.pizzas.first { $0.id == id }!) }
    }

    @Test(arguments: StoreBackend.allCases) func commitsQueuedBeforeTheObserverRunsGiveOneCurrentArray(_ backend: StoreBackend) throws {
        let store = try Fixture.store(backend)
        let scheduler = TestScheduler(initialClock: 0)
        var perVersion: [[Int]] = [], current: [[Int]] = []
        let bag = DisposeBag()
        cheap(store).asObservable(on: scheduler).subscribe(onNext: { perVersion.append($0.map(\.id)) }).disposed(by: bag)
        cheap(store).currentArrays(on: scheduler).subscribe(onNext: { current.append($0.map(\.id)) }).disposed(by: bag)
        try delete(1, from: store)
        try delete(2, from: store)
        scheduler.start()
        #expect(perVersion == [[1, 2, 6], [2, 6], [6]])       // each version, the first two stale when delivered
        #expect(current == [[6]])                             // the store as the observer found it
        try delete(6, from: store)
        scheduler.start()
        #expect(current == [[6], []])
        #expect(current.last == cheap(store).map(\.id))
    }

    @Test func onAnImmediateSchedulerEveryCommitIsCurrent() throws {
        let store = try Fixture.store()
        var current: [[Int]] = []
        let subscription = cheap(store).currentArrays(on: ImmediateScheduler.instance).subscribe(onNext: { current.append($0.map(\.id)) })
        try delete(1, from: store)
        try store.write { tx in try tx.add(Category(id: 9, name: "Other")) }      // does not touch the results
        try delete(2, from: store)
        subscription.dispose()
        #expect(current == [[1, 2, 6], [2, 6], [6]])
    }

    @Test func frozenResultsGiveTheirVersionOnce() throws {
        let store = try Fixture.store()
        let frozen = cheap(store).freeze()
        var current: [[Int]] = []
        let subscription = frozen.currentArrays(on: ImmediateScheduler.instance).subscribe(onNext: { current.append($0.map(\.id)) })
        try delete(1, from: store)
        subscription.dispose()
        #expect(current == [[1, 2, 6]])
    }
}
