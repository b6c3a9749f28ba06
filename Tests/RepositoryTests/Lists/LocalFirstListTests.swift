import Foundation
import ObjectStore
import Repository
import Streams
import StreamsTesting
import Testing
import TestSupport

/// A LocalFirstList over a FixtureNetwork, a Mapper and a Query, all on one TestScheduler: its
/// lists (`all()`) and its load states, errors included, as values.
@Suite(.resourceCheck) struct LocalFirstListTests {
    static let url = URL(string: "https://api.example.com/pizzas")!

    struct Rig {
        let scheduler = TestScheduler(initialClock: 0)
        let store: Store
        let network: FixtureNetwork
        let manager: LocalFirstList<PizzaViewModel>

        init(stored: [Pizza], route: FixtureNetwork.Route?, reloads: [Int] = []) throws {
            store = try makePizzaStore(stored)
            network = FixtureNetwork(scheduler: scheduler)
            network.setRoute(route, for: "/pizzas")
            let query = ViewModelQuery<Pizza, PizzaViewModel>(store: store, sortedBy: [ObjectStore.SortDescriptor(keyPath: "id")], viewModel: PizzaViewModel.init)
            let mapper = Mapper<[Pizza], Pizza, PizzaViewModel>(store: store, viewModel: PizzaViewModel.init)
            let network = self.network
            manager = LocalFirstList(
                local: query.observeAll(on: scheduler),
                network: network.fetch(url: LocalFirstListTests.url).asObservable()
                    .flatMap { mapper.fromJSON($0, on: ImmediateScheduler.instance).asObservable() },
                reload: scheduler.createHotObservable(reloads.map { .next($0, ()) }).asObservable()
            )
        }

        /// The states from 200 on, beside `all()`'s subscriber (one shared load).
        func recordStates() -> TestableObserver<LoadState<PizzaViewModel>> {
            let observer = scheduler.createObserver(LoadState<PizzaViewModel>.self)
            var subscription: Disposable?
            scheduler.scheduleAt(200) { subscription = manager.states.subscribe(observer) }
            scheduler.scheduleAt(1000) { subscription?.dispose() }
            return observer
        }
    }

    static func vm(_ id: Int, _ name: String, _ price: Double) -> PizzaViewModel {
        PizzaViewModel(Pizza(id: id, name: name, priceWas: price))
    }

    @Test func localFirstThenNetwork() throws {
        let rig = try Rig(stored: [Pizza(id: 1, name: "A", priceWas: 1)],
                          route: .json(pizzasJSON([(1, "A", 1), (2, "B", 2)]), delay: .seconds(10)))
        let states = rig.recordStates()
        let res = rig.scheduler.start { rig.manager.all() }
        #expect(res.events == [.next(201, [Self.vm(1, "A", 1)]), .next(210, [Self.vm(1, "A", 1), Self.vm(2, "B", 2)])])
        // The store's notification of the mapper's write (211) carries the same list: nothing new.
        #expect(states.events == [
            .next(200, .loading),
            .next(201, .loaded([Self.vm(1, "A", 1)], origin: .local)),
            .next(210, .loaded([Self.vm(1, "A", 1), Self.vm(2, "B", 2)], origin: .network)),
        ])
        #expect(storedPizzas(rig.store).map(\.id) == [1, 2])
    }

    @Test func equalDataFromTheNetworkEmitsNothingNew() throws {
        let rig = try Rig(stored: [Pizza(id: 1, name: "A", priceWas: 1), Pizza(id: 2, name: "B", priceWas: 2)],
                          route: .json(pizzasJSON([(2, "B", 2), (1, "A", 1)]), delay: .seconds(10)))
        let states = rig.recordStates()
        let res = rig.scheduler.start { rig.manager.all() }
        #expect(res.events == [.next(201, [Self.vm(1, "A", 1), Self.vm(2, "B", 2)])])
        #expect(states.events.last == .next(210, .loaded([Self.vm(2, "B", 2), Self.vm(1, "A", 1)], origin: .network)))
    }

    @Test func changedDataEmitsOnce() throws {
        let rig = try Rig(stored: [Pizza(id: 1, name: "A", priceWas: 1)],
                          route: .json(pizzasJSON([(1, "A", 1.5)]), delay: .seconds(10)))
        let res = rig.scheduler.start { rig.manager.all() }
        #expect(res.events == [.next(201, [Self.vm(1, "A", 1)]), .next(210, [Self.vm(1, "A", 1.5)])])
    }

    @Test func aOneItemListIsShown() throws {
        let rig = try Rig(stored: [], route: .json(pizzasJSON([(7, "Solo", 7)]), delay: .seconds(10)))
        let states = rig.recordStates()
        let res = rig.scheduler.start { rig.manager.all() }
        #expect(res.events == [.next(210, [Self.vm(7, "Solo", 7)])])
        // The empty store's answer (201) is filtered out: loading until the network's list.
        #expect(states.events == [.next(200, .loading), .next(210, .loaded([Self.vm(7, "Solo", 7)], origin: .network))])
    }

    @Test func offlineWithLocalDataShowsTheDataAsStale() throws {
        // Offline fails at once, before the local store's answer: the stored list wins.
        let rig = try Rig(stored: [Pizza(id: 1, name: "A", priceWas: 1)], route: .json(pizzasJSON([(1, "A", 1)]), delay: .seconds(10)))
        rig.network.isOffline = true
        let states = rig.recordStates()
        let res = rig.scheduler.start { rig.manager.all() }
        #expect(res.events == [.next(201, [Self.vm(1, "A", 1)])])
        #expect(states.events == [.next(200, .loading), .next(201, .stale([Self.vm(1, "A", 1)], error: FixtureNetwork.offlineError))])
    }

    @Test func aNetworkFailureAfterTheLocalDataIsStaleToo() throws {
        let rig = try Rig(stored: [Pizza(id: 1, name: "A", priceWas: 1)], route: .failure(.timedOut, delay: .seconds(30)))
        let states = rig.recordStates()
        let res = rig.scheduler.start { rig.manager.all() }
        #expect(res.events == [.next(201, [Self.vm(1, "A", 1)])])
        #expect(states.events == [
            .next(200, .loading),
            .next(201, .loaded([Self.vm(1, "A", 1)], origin: .local)),
            .next(230, .stale([Self.vm(1, "A", 1)], error: NetworkError.timedOut)),
        ])
    }

    @Test func offlineWithoutLocalDataFailsAsAValueThenReloadAfterGoingOnlineLoads() throws {
        let rig = try Rig(stored: [], route: .json(pizzasJSON([(1, "A", 1)]), delay: .seconds(10)), reloads: [400])
        rig.network.isOffline = true
        rig.scheduler.scheduleAt(300) { rig.network.isOffline = false }
        let res = rig.scheduler.start { rig.manager.states }
        // No error event: the failure is a state, and the reload at 400 starts again.
        #expect(res.events == [
            .next(200, .loading),
            .next(201, .failed(FixtureNetwork.offlineError)),
            .next(400, .loading),
            .next(410, .loaded([Self.vm(1, "A", 1)], origin: .network)),
        ])
        #expect(rig.network.requestCount(for: "/pizzas") == 2)
    }

    @Test func aReloadWithDataOnScreenKeepsItAndAsksTheNetworkAgain() throws {
        let rig = try Rig(stored: [Pizza(id: 1, name: "A", priceWas: 1)], route: .json(pizzasJSON([(1, "A", 1), (2, "B", 2)]), delay: .seconds(10)), reloads: [500])
        let res = rig.scheduler.start { rig.manager.all() }
        // The reload's stored list is the one shown: all() says nothing new.
        #expect(res.events == [.next(201, [Self.vm(1, "A", 1)]), .next(210, [Self.vm(1, "A", 1), Self.vm(2, "B", 2)])])
        #expect(rig.network.requestCount(for: "/pizzas") == 2)
    }

    @Test func twoSubscribersShareOneRequest() throws {
        let rig = try Rig(stored: [Pizza(id: 1, name: "A", priceWas: 1)], route: .json(pizzasJSON([(1, "A", 1), (2, "B", 2)]), delay: .seconds(10)))
        let late = rig.scheduler.createObserver([PizzaViewModel].self)
        var lateSubscription: Disposable?
        rig.scheduler.scheduleAt(205) { lateSubscription = rig.manager.all().subscribe(late) }
        rig.scheduler.scheduleAt(1000) { lateSubscription?.dispose() }
        let res = rig.scheduler.start { rig.manager.all() }
        #expect(res.events == [.next(201, [Self.vm(1, "A", 1)]), .next(210, [Self.vm(1, "A", 1), Self.vm(2, "B", 2)])])
        #expect(late.events == [.next(205, [Self.vm(1, "A", 1)]), .next(210, [Self.vm(1, "A", 1), Self.vm(2, "B", 2)])])
        #expect(rig.network.requestCount(for: "/pizzas") == 1)
    }

    @Test func malformedJSONIsATypedErrorAndTheStoreIsUnchanged() throws {
        let original = [Pizza(id: 1, name: "A", priceWas: 1)]
        let rig = try Rig(stored: original, route: .json(#"[{"id": 1, "name": "A"}]"#, delay: .seconds(10)))
        let states = rig.recordStates()
        let res = rig.scheduler.start { rig.manager.all() }
        let error = MapperError.couldNotParse(path: "$[0].price_was", reason: "missing field")
        #expect(res.events == [.next(201, [Self.vm(1, "A", 1)])])
        #expect(states.events.last?.value.element == .stale([Self.vm(1, "A", 1)], error: error))
        #expect(storedPizzas(rig.store) == original)

        let empty = try Rig(stored: [], route: .json("{", delay: .seconds(10)))
        let failed = empty.scheduler.start { empty.manager.states }
        #expect(failed.events.count == 2)
        #expect(failed.events.last?.value.element?.error is MapperError)
        #expect(storedPizzas(empty.store).isEmpty)
    }

    @Test func staleRowsAreDeleted() throws {
        let rig = try Rig(stored: [Pizza(id: 1, name: "A", priceWas: 1), Pizza(id: 2, name: "B", priceWas: 2)],
                          route: .json(pizzasJSON([(2, "B", 2)]), delay: .seconds(10)))
        let res = rig.scheduler.start { rig.manager.all() }
        #expect(res.events == [.next(201, [Self.vm(1, "A", 1), Self.vm(2, "B", 2)]), .next(210, [Self.vm(2, "B", 2)])])
        #expect(storedPizzas(rig.store).map(\.id) == [2])
    }
}
