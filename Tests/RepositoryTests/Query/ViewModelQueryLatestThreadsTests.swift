import Foundation
import Locking
import ObjectStore
import Repository
import Streams
import Testing
import TestSupport

/// `Observable<ViewModelQuery>.observeChanges(on:)` with its queries sent on one thread and its
/// changes delivered on another: every list is mapped with the `viewModel` of the query whose
/// results it shows, never with a query's that came before or after.
@Suite(.resourceCheck) struct ViewModelQueryLatestThreadsTests {
    /// A row that says which query's `viewModel` made it.
    struct Row: Hashable {
        let name: String
        let madeFor: String
    }

    /// What the changes' observer saw, on the queue.
    final class Seen: @unchecked Sendable {
        private let lock = Lock()
        private var delivered = 0
        private var mistakes: [String] = []

        func record(_ mistake: String?) {
            lock.withLock {
                delivered += 1
                if let mistake { mistakes.append(mistake) }
            }
        }

        func read() -> (Int, [String]) { lock.withLock { (delivered, mistakes) } }
    }

    /// Queries for names starting "a" and "b" in turn, each mapping with its own letter, sent
    /// from a background thread while the changes arrive on a serial queue: each delivered
    /// list's rows all carry the letter their names start with.
    @Test func eachListIsMappedWithTheViewModelOfItsOwnQuery() throws {
        let pizzas = (0..<2_000).map { Pizza(id: $0, name: ($0 % 2 == 0 ? "a" : "b") + "\($0)", priceWas: 1) }
        let store = try makePizzaStore(pizzas)
        let queries = PublishSubject<ViewModelQuery<Pizza, Row>>()
        let seen = Seen()
        let done = DispatchSemaphore(value: 0)
        let scheduler = SerialDispatchQueueScheduler(qos: .userInitiated, internalSerialQueueName: "changes")
        let subscription = queries
            .observeChanges(on: scheduler)
            .subscribe(onNext: { change in
                let row = change.items.first { !$0.name.hasPrefix($0.madeFor) }
                seen.record(row.map { "\($0.name) mapped for \($0.madeFor)" })
            })
        defer { subscription.dispose() }
        let rounds = 400
        Thread.detachNewThread {
            for round in 0..<rounds {
                let letter = round % 2 == 0 ? "a" : "b"
                let query = try! ViewModelQuery(store: store, viewModel: { (pizza: Pizza) in Row(name: pizza.name, madeFor: letter) })
                    .filtered("name BEGINSWITH %@", letter)
                queries.onNext(query)
            }
            done.signal()
        }
        done.wait()
        // Everything sent before this block has been delivered once it runs.
        let drained = DispatchSemaphore(value: 0)
        _ = scheduler.schedule(()) { _ in drained.signal(); return Disposables.create() }
        drained.wait()
        let (delivered, mistakes) = seen.read()
        #expect(delivered > 1)
        #expect(mistakes.isEmpty, "\(mistakes.count) lists mapped with another query's view model, first: \(mistakes.first ?? "")")
    }
}
