import Foundation
import ObjectStore
import Repository
import Streams
import Testing
import TestSupport

/// Triggers from many threads while pages are fetched, stored and observed on a background
/// queue: every page is fetched once, in order, and the list ends complete.
@Suite(.resourceCheck) struct PagedListStressTests {
    /// Pages of 5 ids; page 10 holds 3, so it is the last.
    static func ids(of page: Int) -> [Int] {
        let first = (page - 1) * 5 + 1
        return Array(first...(page == 10 ? first + 2 : first + 4))
    }

    /// What the list did, read from any thread.
    final class Progress: @unchecked Sendable {
        private let condition = NSCondition()
        private var state: PagedList<Int>.State?
        private var fetched: [Int] = []

        func fetch(_ page: Int) { condition.withLock { fetched.append(page) } }

        func record(_ new: PagedList<Int>.State) {
            condition.withLock {
                state = new
                condition.broadcast()
            }
        }

        var pages: [Int] { condition.withLock { fetched } }
        var list: [Int]? { condition.withLock { state?.list } }
        var isComplete: Bool { condition.withLock { completed } }

        private var completed: Bool { state?.isEndReached == true && state?.list?.count == 48 && state?.loadingPage == nil }

        func waitUntilComplete(timeout: Double) -> Bool {
            let deadline = Date().addingTimeInterval(timeout)
            return condition.withLock {
                while !completed {
                    if !condition.wait(until: deadline) { return completed }
                }
                return true
            }
        }
    }

    @Test(arguments: 0..<10) func concurrentTriggersFetchEachPageOnce(run: Int) throws {
        let store = try makeBookStore()
        let queue = SerialDispatchQueueScheduler(internalSerialQueueName: "paged.stress.\(run)")
        let network = SerialDispatchQueueScheduler(internalSerialQueueName: "paged.network.\(run)")
        let progress = Progress()
        let triggers = PublishSubject<Void>()
        let query = ViewModelQuery<Book, Int>(store: store, sortedBy: [ObjectStore.SortDescriptor(keyPath: "id")], viewModel: \.id)
        let list = PagedList(local: query.observeAll(on: queue), loadNextPage: triggers.asObservable(),
                             pageSize: 5, scheduler: queue) { page in
            progress.fetch(page)
            return Observable.deferred { () -> Observable<[Int]> in
                let books = Self.ids(of: page).map { book($0) }
                try store.write { try $0.add(books, update: .modified) }
                return .just(books.map(\.id))
            }
            .subscribe(on: network)
        }
        let subscription = list.states.subscribe(onNext: { progress.record($0) })
        defer { subscription.dispose() }
        // Triggers until the list is complete (or a minute passed): a trigger while a page
        // loads is ignored, so the senders keep asking. Four senders at one trigger a
        // millisecond each still send hundreds per page load. Faster than the list can reduce
        // them (every 50 µs, under the thread sanitizer) they pile up in merge's serialization,
        // which queues rather than blocks a sender, and a page's answer waits behind the pile:
        // 5 to 9 pages of 10 in a minute, where these settings finish all 10 runs in 0.3 s.
        let deadline = Date().addingTimeInterval(60)
        let senders = (0..<4).map { _ in
            Thread {
                while !progress.isComplete, Date() < deadline {
                    triggers.onNext(())
                    usleep(1_000)
                }
            }
        }
        senders.forEach { $0.start() }
        #expect(progress.waitUntilComplete(timeout: 60))
        #expect(progress.pages == Array(1...10))
        #expect(progress.list == Array(1...48))
        while senders.contains(where: { !$0.isFinished }) { usleep(1_000) }
        triggers.onCompleted()
    }
}
