import Foundation
import ObjectStore
import Repository
import Streams
import StreamsBlocking
import StreamsTesting
import Testing
import TestSupport

@Suite(.resourceCheck) struct QueryTests {
    func query(_ store: Store) -> ViewModelQuery<Pizza, PizzaViewModel> {
        ViewModelQuery(store: store, sortedBy: [ObjectStore.SortDescriptor(keyPath: "name")], viewModel: PizzaViewModel.init)
    }

    /// `Query` is the RxSwift-era spelling of the same type: code written with it compiles and
    /// reads the same list.
    @Test func queryIsTheSameTypeUnderItsOlderName() throws {
        let store = try makePizzaStore([Pizza(id: 1, name: "Quattro", priceWas: 9), Pizza(id: 2, name: "Diavola", priceWas: 8)])
        let older: Query<Pizza, PizzaViewModel> = Query(store: store, sortedBy: [ObjectStore.SortDescriptor(keyPath: "name")], viewModel: PizzaViewModel.init)
        let newer: ViewModelQuery<Pizza, PizzaViewModel> = older
        #expect(Query<Pizza, PizzaViewModel>.self == ViewModelQuery<Pizza, PizzaViewModel>.self)
        #expect(try newer.all().toBlocking().single() == [PizzaViewModel(id: 2, title: "Diavola (8.0)"), PizzaViewModel(id: 1, title: "Quattro (9.0)")])
    }

    @Test func allReadsOnceInListOrder() throws {
        let store = try makePizzaStore([Pizza(id: 1, name: "Quattro", priceWas: 9), Pizza(id: 2, name: "Diavola", priceWas: 8)])
        let scheduler = TestScheduler(initialClock: 0)
        let all = query(store).all()
        scheduler.scheduleAt(150) { try? store.write { try $0.add(Pizza(id: 3, name: "Bianca", priceWas: 7)) } }
        let res = scheduler.start { all.asObservable() }
        #expect(res.events == [
            .next(200, [PizzaViewModel(id: 3, title: "Bianca (7.0)"), PizzaViewModel(id: 2, title: "Diavola (8.0)"), PizzaViewModel(id: 1, title: "Quattro (9.0)")]),
            .completed(200),
        ])
    }

    @Test func observeAllEmitsAgainWhenTheStoreChanges() throws {
        let store = try makePizzaStore([Pizza(id: 1, name: "Quattro", priceWas: 9)])
        let recorder = EventRecorder<[PizzaViewModel]>()
        let subscription = query(store).observeAll(on: ImmediateScheduler.instance).subscribe(recorder)
        defer { subscription.dispose() }
        #expect(recorder.elements == [[PizzaViewModel(id: 1, title: "Quattro (9.0)")]])
        try store.write { try $0.add(Pizza(id: 2, name: "Diavola", priceWas: 8)) }
        #expect(recorder.elements.last == [PizzaViewModel(id: 2, title: "Diavola (8.0)"), PizzaViewModel(id: 1, title: "Quattro (9.0)")])
        #expect(recorder.elements.count == 2)
    }

    @Test func filteredNarrowsTheQuery() throws {
        let store = try makePizzaStore([
            Pizza(id: 1, name: "Quattro", priceWas: 9), Pizza(id: 2, name: "Diavola", priceWas: 8), Pizza(id: 3, name: "Bianca", priceWas: 7),
        ])
        let recorder = EventRecorder<[PizzaViewModel]>()
        let subscription = try query(store).filtered("priceWas >= %@", 8.0).all().asObservable().subscribe(recorder)
        defer { subscription.dispose() }
        #expect(recorder.elements.map { $0.map(\.id) } == [[2, 1]])
        #expect(throws: (any Error).self) { try query(store).filtered("priceWas >>= 1") }
    }
}
