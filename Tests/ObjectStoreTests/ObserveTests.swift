import Foundation
import Streams
import StreamsTesting
import Testing
import TestSupport
@testable import ObjectStore

/// A change flattened for comparison.
enum Seen: Equatable {
    case initial([Int])
    case update([Int], deletions: [Int], insertions: [Int], modifications: [Int])
}

func record(_ results: Results<Pizza>, into seen: UncheckedBox<[Seen]>) -> Disposable {
    results.observe(on: ImmediateScheduler.instance).subscribe(onNext: { change in
        switch change {
        case .initial(let r): seen.value.append(.initial(r.map(\.id)))
        case .update(let r, let d, let i, let m): seen.value.append(.update(r.map(\.id), deletions: d, insertions: i, modifications: m))
        case .error: break
        }
    })
}

final class UncheckedBox<T>: @unchecked Sendable {
    var value: T
    init(_ value: T) { self.value = value }
}

@Suite(.resourceCheck) struct ObserveTests {
    @Test(arguments: StoreBackend.allCases) func initialThenOneUpdatePerCommitThatChangedTheResults(_ backend: StoreBackend) throws {
        let store = try Fixture.store(backend)
        let seen = UncheckedBox<[Seen]>([])
        let subscription = record(store.objects(Pizza.self).filter("price < 1000").sorted(byKeyPath: "price"), into: seen)
        #expect(seen.value == [.initial([6, 1, 2])])

        try store.write { tx in
            var p = Fixture.pizzas[0]
            p.price = 950                                   // moves after Pepperoni
            try tx.add(p, update: .modified)
            var q = Fixture.pizzas[1]
            q.name = "Pepperoni!"                           // modified in place
            try tx.add(q, update: .modified)
        }
        try store.write { tx in try tx.add(Category(id: 9, name: "Other")) }    // unrelated: nothing
        try store.write { tx in try tx.delete(Fixture.pizzas[5]) }
        try store.write { tx in
            var p = Fixture.pizzas[3]
            p.price = 500
            try tx.add(p, update: .modified)                // enters at the front
        }
        #expect(throws: TestError.boom) {
            try store.write { tx in
                try tx.deleteAll(Pizza.self)
                throw TestError.boom                        // rolled back: nothing
            }
        }
        #expect(seen.value == [
            .initial([6, 1, 2]),
            .update([6, 2, 1], deletions: [2], insertions: [1], modifications: [2]),  // Pepperoni moves; Margherita stays, modified
            .update([2, 1], deletions: [0], insertions: [], modifications: []),
            .update([4, 2, 1], deletions: [], insertions: [0], modifications: []),
        ])
        subscription.dispose()
        try store.write { tx in try tx.deleteAll() }
        #expect(seen.value.count == 4)
    }

    @Test(arguments: StoreBackend.allCases) func changesToLinkedObjectsAreModifications(_ backend: StoreBackend) throws {
        let store = try Fixture.store(backend)
        let seen = UncheckedBox<[Seen]>([])
        let subscription = record(store.objects(Pizza.self).filter("price < 1000"), into: seen)
        try store.write { tx in try tx.add(Category(id: 3, name: "Hot"), update: .modified) }
        try store.write { tx in try tx.add(Category(id: 9, name: "Unused")) }
        #expect(seen.value == [
            .initial([1, 2, 6]),
            .update([1, 2, 6], deletions: [], insertions: [], modifications: [1, 2]),
        ])
        subscription.dispose()
    }

    @Test(arguments: StoreBackend.allCases) func defaultDeliveryIsOnTheMainScheduler(_ backend: StoreBackend) throws {
        let store = try Fixture.store(backend)
        let arrays = UncheckedBox<[[Int]]>([])
        let lock = NSLock()
        let subscription = store.objects(Pizza.self).filter("id < 3").asObservable()
            .subscribe(onNext: { value in
                MainScheduler.ensureExecutingOnScheduler()
                lock.withLock { arrays.value.append(value.map(\.id)) }
            })
        try store.write { tx in try tx.delete(Fixture.pizzas[0]) }
        #expect(MainScheduler.run(until: { lock.withLock { arrays.value.count == 2 } }, timeout: 10))
        #expect(lock.withLock { arrays.value } == [[1, 2], [2]])
        subscription.dispose()
    }

    @Test(arguments: StoreBackend.allCases) func plainArrayForm(_ backend: StoreBackend) throws {
        let store = try Fixture.store(backend)
        let arrays = UncheckedBox<[[Int]]>([])
        let subscription = store.objects(Pizza.self).filter("vegetarian == false")
            .asObservable(on: ImmediateScheduler.instance)
            .subscribe(onNext: { arrays.value.append($0.map(\.id)) })
        try store.write { tx in try tx.delete(Fixture.pizzas[1]) }
        try store.write { tx in try tx.delete(Fixture.pizzas[0]) }
        #expect(arrays.value == [[2, 4], [4]])
        subscription.dispose()
    }

    @Test(arguments: StoreBackend.allCases) func objectObservation(_ backend: StoreBackend) throws {
        let store = try Fixture.store(backend)
        let events = UncheckedBox<[String]>([])
        let subscription = store.observe(Pizza.self, forPrimaryKey: 2, on: ImmediateScheduler.instance)
            .subscribe(onNext: { change in
                switch change {
                case .change(let pizza, let properties):
                    events.value.append("change \(pizza.price) " + properties.map { "\($0.name):\($0.oldValue ?? "nil")→\($0.newValue ?? "nil")" }.joined(separator: ","))
                case .deleted: events.value.append("deleted")
                case .error: events.value.append("error")
                }
            }, onCompleted: { events.value.append("completed") })
        try store.write { tx in
            var p = Fixture.pizzas[1]
            p.price = 950
            try tx.add(p, update: .modified)
        }
        try store.write { tx in try tx.delete(Fixture.pizzas[0]) }
        try store.write { tx in try tx.delete(Fixture.pizzas[1]) }
        #expect(events.value == ["change 950.0 price:900.0→950.0", "deleted", "completed"])
        subscription.dispose()
    }

    @Test(arguments: StoreBackend.allCases) func deliveryOnATestScheduler(_ backend: StoreBackend) throws {
        let store = try Fixture.store(backend)
        let scheduler = TestScheduler(initialClock: 0)
        let observer = scheduler.createObserver([Int].self)
        let subscription = store.objects(Pizza.self).filter("id > 4").asObservable(on: scheduler).map { $0.map(\.id) }.subscribe(observer)
        try store.write { tx in try tx.delete(Fixture.pizzas[4]) }
        #expect(observer.events.isEmpty)
        scheduler.start()
        #expect(observer.events.map { $0.value.element ?? [] } == [[5, 6], [6]])
        subscription.dispose()
    }

    @Test(arguments: StoreBackend.allCases) func observersOnOtherThreadsSeeEveryCommitInOrder(_ backend: StoreBackend) async throws {
        let store = try backend.makeStore()
        let counts = UncheckedBox<[Int]>([])
        let lock = NSLock()
        let subscription = store.objects(Category.self).asObservable(on: ImmediateScheduler.instance)
            .subscribe(onNext: { value in lock.withLock { counts.value.append(value.count) } })
        await withTaskGroup(of: Void.self) { group in
            for w in 0..<3 {
                group.addTask {
                    for i in 0..<30 { try? store.write { try $0.add(Category(id: w * 100 + i, name: "c")) } }
                }
            }
        }
        subscription.dispose()
        let seen = lock.withLock { counts.value }
        #expect(seen == Array(0...90))
    }
}

@Suite(.resourceCheck) struct RxRealmStyleTests {
    @Test(arguments: StoreBackend.allCases) func collectionAndArrayFrom(_ backend: StoreBackend) throws {
        let store = try Fixture.store(backend)
        let counts = UncheckedBox<[Int]>([])
        let arrays = UncheckedBox<[[Int]]>([])
        let pizzas = store.objects(Pizza.self).filter("price > 1000")
        let a = Observable.collection(from: pizzas, on: ImmediateScheduler.instance).subscribe(onNext: { counts.value.append($0.count) })
        let b = Observable.array(from: pizzas, on: ImmediateScheduler.instance).subscribe(onNext: { arrays.value.append($0.map(\.id)) })
        try store.write { tx in try tx.delete(Fixture.pizzas[2]) }
        #expect(counts.value == [2, 1])
        #expect(arrays.value == [[3, 5], [5]])
        a.dispose()
        b.dispose()
    }
}
