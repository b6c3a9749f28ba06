import Foundation
import ObjectStore
import Repository
import Streams
import StreamsTesting
import Testing
import TestSupport

/// The acceptance tests of issue 4: a Manager over a FixtureNetwork, a Mapper and a Query, all
/// on one TestScheduler.
@Suite(.resourceCheck) struct ManagerTests {
    static let url = URL(string: "https://api.example.com/pizzas")!

    struct Rig {
        let scheduler = TestScheduler(initialClock: 0)
        let store: Store
        let network: FixtureNetwork
        let manager: Manager<PizzaViewModel>

        init(stored: [Pizza], route: FixtureNetwork.Route?) throws {
            store = try makePizzaStore(stored)
            network = FixtureNetwork(scheduler: scheduler)
            network.setRoute(route, for: "/pizzas")
            let query = Query<Pizza, PizzaViewModel>(store: store, sortedBy: [ObjectStore.SortDescriptor(keyPath: "id")], viewModel: PizzaViewModel.init)
            let mapper = Mapper<[Pizza], Pizza, PizzaViewModel>(store: store, viewModel: PizzaViewModel.init)
            let network = self.network
            manager = Manager(
                local: query.observeAll(on: scheduler),
                network: network.fetch(url: ManagerTests.url).asObservable()
                    .flatMap { mapper.fromJSON($0, on: ImmediateScheduler.instance).asObservable() }
            )
        }

        func recordStatus() -> TestableObserver<ResourceStatus> {
            let observer = scheduler.createObserver(ResourceStatus.self)
            scheduler.scheduleAt(100) { _ = manager.status.subscribe(observer) }
            return observer
        }
    }

    static func vm(_ id: Int, _ name: String, _ price: Double) -> PizzaViewModel {
        PizzaViewModel(Pizza(id: id, name: name, priceWas: price))
    }

    @Test func localFirstThenNetwork() throws {
        let rig = try Rig(stored: [Pizza(id: 1, name: "A", priceWas: 1)],
                          route: .json(pizzasJSON([(1, "A", 1), (2, "B", 2)]), delay: .seconds(10)))
        let res = rig.scheduler.start { rig.manager.all() }
        #expect(res.events == [.next(201, [Self.vm(1, "A", 1)]), .next(210, [Self.vm(1, "A", 1), Self.vm(2, "B", 2)])])
        #expect(storedPizzas(rig.store).map(\.id) == [1, 2])
    }

    @Test func equalDataFromTheNetworkEmitsNothingNew() throws {
        let rig = try Rig(stored: [Pizza(id: 1, name: "A", priceWas: 1), Pizza(id: 2, name: "B", priceWas: 2)],
                          route: .json(pizzasJSON([(2, "B", 2), (1, "A", 1)]), delay: .seconds(10)))
        let status = rig.recordStatus()
        let res = rig.scheduler.start { rig.manager.all() }
        #expect(res.events == [.next(201, [Self.vm(1, "A", 1), Self.vm(2, "B", 2)])])
        #expect(status.events.last?.value.element == .loaded(origin: .network))
    }

    @Test func changedDataEmitsOnce() throws {
        let rig = try Rig(stored: [Pizza(id: 1, name: "A", priceWas: 1)],
                          route: .json(pizzasJSON([(1, "A", 1.5)]), delay: .seconds(10)))
        let res = rig.scheduler.start { rig.manager.all() }
        #expect(res.events == [.next(201, [Self.vm(1, "A", 1)]), .next(210, [Self.vm(1, "A", 1.5)])])
    }

    @Test func aOneItemListIsShown() throws {
        let rig = try Rig(stored: [], route: .json(pizzasJSON([(7, "Solo", 7)]), delay: .seconds(10)))
        let res = rig.scheduler.start { rig.manager.all() }
        #expect(res.events == [.next(210, [Self.vm(7, "Solo", 7)])])
    }

    @Test func offlineWithLocalDataShowsTheDataAndReportsStale() throws {
        // Offline fails at once, in the same tick as (and before) the local store's answer.
        let rig = try Rig(stored: [Pizza(id: 1, name: "A", priceWas: 1)], route: .json(pizzasJSON([(1, "A", 1)]), delay: .seconds(10)))
        rig.network.isOffline = true
        let status = rig.recordStatus()
        let res = rig.scheduler.start { rig.manager.all() }
        #expect(res.events == [.next(201, [Self.vm(1, "A", 1)])])
        #expect(status.events.map(\.value.element) == [.loading, .loaded(origin: .local), .stale(FixtureNetwork.offlineError)])
    }

    @Test func aNetworkFailureAfterTheLocalDataIsStaleToo() throws {
        let rig = try Rig(stored: [Pizza(id: 1, name: "A", priceWas: 1)], route: .failure(.timedOut, delay: .seconds(30)))
        let status = rig.recordStatus()
        let res = rig.scheduler.start { rig.manager.all() }
        #expect(res.events == [.next(201, [Self.vm(1, "A", 1)])])
        #expect(status.events.map(\.value.element) == [.loading, .loaded(origin: .local), .stale(NetworkError.timedOut)])
    }

    @Test func offlineWithoutLocalDataFailsThenRetryAfterGoingOnlineLoads() throws {
        let rig = try Rig(stored: [], route: .json(pizzasJSON([(1, "A", 1)]), delay: .seconds(10)))
        rig.network.isOffline = true
        let first = rig.scheduler.createObserver([PizzaViewModel].self)
        let retried = rig.scheduler.createObserver([PizzaViewModel].self)
        let status = rig.recordStatus()
        var subscriptions: [Disposable] = []
        rig.scheduler.scheduleAt(200) { subscriptions.append(rig.manager.all().subscribe(first)) }
        rig.scheduler.scheduleAt(300) { rig.network.isOffline = false }
        rig.scheduler.scheduleAt(400) { subscriptions.append(rig.manager.all().subscribe(retried)) }
        rig.scheduler.scheduleAt(1000) { subscriptions.forEach { $0.dispose() } }
        rig.scheduler.start()
        #expect(first.events == [.error(201, FixtureNetwork.offlineError)])
        #expect(retried.events == [.next(410, [Self.vm(1, "A", 1)])])
        #expect(rig.network.requestCount(for: "/pizzas") == 2)
        // The store's notification of the mapper's write carries the same list: it changes
        // neither the screen nor the status (which stays "from the network").
        #expect(status.events.map(\.value.element) == [
            .loading, .failed(FixtureNetwork.offlineError), .loading, .loaded(origin: .network),
        ])
    }

    @Test func retryOperatorRerunsBothSources() throws {
        let rig = try Rig(stored: [], route: .json(pizzasJSON([(1, "A", 1)]), delay: .seconds(10)))
        rig.network.isOffline = true
        rig.scheduler.scheduleAt(250) { rig.network.isOffline = false }
        let res = rig.scheduler.start {
            rig.manager.all().catch { _ in
                // The error view's retry button, pressed 100 ticks after the error.
                rig.manager.all().delaySubscription(.seconds(100), scheduler: rig.scheduler)
            }
        }
        #expect(res.events == [.next(311, [Self.vm(1, "A", 1)])])
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
        let status = rig.recordStatus()
        let res = rig.scheduler.start { rig.manager.all() }
        let error = MapperError.couldNotParse(path: "$[0].price_was", reason: "missing field")
        #expect(res.events == [.next(201, [Self.vm(1, "A", 1)])])
        #expect(status.events.last?.value.element == .stale(error))
        #expect(storedPizzas(rig.store) == original)

        let empty = try Rig(stored: [], route: .json("{", delay: .seconds(10)))
        let failed = empty.scheduler.start { empty.manager.all() }
        #expect(failed.events.count == 1)
        #expect(failed.events.first?.value.error is MapperError)
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
