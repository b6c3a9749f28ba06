import Foundation
import Streams
import StreamsTesting
import Testing
import TestSupport
@testable import ObjectStore

private struct Topic: StoreObject, Equatable {
    static var primaryKey: KeyPath<Topic, Int> { \.id }
    var id: Int
    var name: String
}

private struct Article: StoreObject, Equatable {
    static var primaryKey: KeyPath<Article, Int> { \.id }
    var id: Int
    var title: String
    var price: Int
    var topics: [Topic]
}

/// The list an observer builds by applying every change it is sent, checked at each event
/// against the event's own list and against a simple longest-common-subsequence diff.
private final class ShownList: @unchecked Sendable {
    var rows: [Article]?
    var events = 0
    var initials = 0
    var updates: [(deletions: [Int], insertions: [Int], modifications: [Int])] = []

    func apply(_ change: ResultsChange<Article>) {
        events += 1
        switch change {
        case .initial(let results):
            initials += 1
            rows = results.toArray()
        case .update(let results, let deletions, let insertions, let modifications):
            let new = results.toArray()
            guard let old = rows else { Issue.record("an update before the initial list"); return }
            #expect(apply(deletions: deletions, insertions: insertions, modifications: modifications, to: old, new: new) == new,
                    "the change set does not turn the list shown into the new one")
            let kept = old.count - deletions.count
            #expect(kept == longestCommonSubsequence(old.map(\.id), new.map(\.id)),
                    "\(kept) rows kept where \(longestCommonSubsequence(old.map(\.id), new.map(\.id))) could stay")
            updates.append((deletions, insertions, modifications))
            rows = new
        case .error(let error):
            Issue.record("unexpected \(error)")
        }
    }

    /// Removes the deletions, inserts the insertions and replaces the modifications (Realm's
    /// rule), with values from `new`.
    private func apply(deletions: [Int], insertions: [Int], modifications: [Int], to old: [Article], new: [Article]) -> [Article] {
        var rows = old
        for index in deletions.reversed() { rows.remove(at: index) }
        for index in insertions { rows.insert(new[index], at: index) }
        for index in modifications { rows[index] = new[index] }
        return rows
    }
}

/// The length of a longest common subsequence, by the textbook table (independent of the
/// store's diff, which keeps a longest increasing subsequence of old positions).
private func longestCommonSubsequence(_ a: [Int], _ b: [Int]) -> Int {
    guard !a.isEmpty, !b.isEmpty else { return 0 }
    var previous = [Int](repeating: 0, count: b.count + 1)
    for x in a {
        var current = [Int](repeating: 0, count: b.count + 1)
        for (j, y) in b.enumerated() {
            current[j + 1] = x == y ? previous[j] + 1 : max(previous[j + 1], current[j])
        }
        previous = current
    }
    return previous[b.count]
}

private let topics = (1...4).map { Topic(id: $0, name: "topic \($0)") }
private let words = ["margherita", "marinara", "diavola", "funghi", "capricciosa", "quattro", "bianca", "ortolana"]

private func randomArticle(_ id: Int, _ rng: inout SeededRandom) -> Article {
    Article(id: id, title: words.randomElement(using: &rng)! + " \(Int.random(in: 0..<10, using: &rng))",
            price: Int.random(in: 0..<50, using: &rng),
            topics: topics.filter { _ in Int.random(in: 0..<3, using: &rng) == 0 })
}

/// A random query: a predicate from a few shapes with random arguments, and a random sort.
private func randomQuery(_ store: Store, _ rng: inout SeededRandom) -> Results<Article> {
    var results = store.objects(Article.self)
    switch Int.random(in: 0..<6, using: &rng) {
    case 0: break
    case 1: results = results.filter("price < %@", Int.random(in: 0..<50, using: &rng))
    case 2: results = results.filter("price >= %@ AND price < %@", Int.random(in: 0..<25, using: &rng), Int.random(in: 25..<50, using: &rng))
    case 3: results = results.filter("title BEGINSWITH %@", String(words.randomElement(using: &rng)!.prefix(Int.random(in: 1...3, using: &rng))))
    case 4: results = results.filter("title CONTAINS[c] %@", String(words.randomElement(using: &rng)!.prefix(2)))
    default: results = results.filter("ANY topics.id == %@", Int.random(in: 1...4, using: &rng))
    }
    switch Int.random(in: 0..<5, using: &rng) {
    case 0: return results
    case 1: return results.sorted(byKeyPath: "price")
    case 2: return results.sorted(byKeyPath: "price", ascending: false)
    case 3: return results.sorted(by: [ObjectStore.SortDescriptor(keyPath: "title"), ObjectStore.SortDescriptor(keyPath: "id", ascending: false)])
    default: return results.sorted(byKeyPath: "title", ascending: false)
    }
}

/// A random commit: one to three inserts, deletes, edits or topic renames.
private func randomCommit(_ store: Store, nextID: inout Int, _ rng: inout SeededRandom) throws {
    let ids = store.objects(Article.self).map(\.id)
    let count = Int.random(in: 1...3, using: &rng)
    var id = nextID
    try store.write { tx in
        for _ in 0..<count {
            switch Int.random(in: 0..<4, using: &rng) {
            case 0:
                try tx.add(randomArticle(id, &rng), update: .modified)    // its topics are stored already
                id += 1
            case 1:
                if let victim = ids.randomElement(using: &rng), let object = tx.object(ofType: Article.self, forPrimaryKey: victim) {
                    try tx.delete(object)
                }
            case 2:
                if let target = ids.randomElement(using: &rng), tx.object(ofType: Article.self, forPrimaryKey: target) != nil {
                    try tx.add(randomArticle(target, &rng), update: .modified)
                }
            default:
                let topic = topics.randomElement(using: &rng)!
                try tx.add(Topic(id: topic.id, name: "\(topic.name) \(Int.random(in: 0..<1000, using: &rng))"), update: .modified)
            }
        }
    }
    nextID = id
}

private func filledStore(_ backend: StoreBackend, _ rng: inout SeededRandom, count: Int = 40) throws -> Store {
    let store = try backend.makeStore()
    try store.write { tx in
        try tx.add(topics)
        for id in 0..<count { try tx.add(randomArticle(id, &rng), update: .modified) }
    }
    return store
}

@Suite(.resourceCheck) struct ObserveChangesTests {
    @Test func aNewQueryIsAChangeSetAgainstTheListShown() throws {
        var rng = SeededRandom(seed: 1)
        let store = try filledStore(.memory, &rng, count: 12)
        let queries = PublishSubject<Results<Article>>()
        let shown = ShownList()
        let subscription = queries.observeChanges(on: ImmediateScheduler.instance).subscribe(onNext: shown.apply)
        let all = store.objects(Article.self).sorted(byKeyPath: "title")
        queries.onNext(all)
        queries.onNext(all.filter("price < 25"))            // a narrower query: rows leave
        queries.onNext(all.filter("price < 25").sorted(byKeyPath: "price"))    // another order: rows move
        queries.onNext(all)                                 // back to everything: rows come
        #expect(shown.initials == 1)
        #expect(shown.events == 4)
        #expect(shown.updates[0].insertions.isEmpty && !shown.updates[0].deletions.isEmpty)
        #expect(shown.updates.allSatisfy { $0.modifications.isEmpty })   // no commit: nothing modified
        #expect(shown.rows == all.toArray())
        subscription.dispose()
    }

    /// A new query whose results are the objects shown, in the order shown, none changed by a
    /// commit, sends nothing (the list shown is already right); the next commit is reported
    /// against that query's results.
    @Test func aNewQueryWithTheListShownSendsNothing() throws {
        var rng = SeededRandom(seed: 4)
        let store = try filledStore(.memory, &rng, count: 12)
        let queries = PublishSubject<Results<Article>>()
        let shown = ShownList()
        let subscription = queries.observeChanges(on: ImmediateScheduler.instance).subscribe(onNext: shown.apply)
        let all = store.objects(Article.self).sorted(byKeyPath: "id")
        queries.onNext(all.filter("price < 1000"))
        queries.onNext(all.filter("price >= 0"))              // every article again, in the same order
        #expect(shown.events == 1)
        let dearest = try #require(all.sorted(byKeyPath: "price", ascending: false).first)
        try store.write { tx in try tx.add(Article(id: 100, title: "dearest", price: dearest.price + 1, topics: [])) }
        #expect(shown.events == 2)
        #expect(shown.updates.last.map { ($0.deletions, $0.insertions) } ?? ([], []) == ([], [12]))
        #expect(shown.rows == all.toArray())
        subscription.dispose()
    }

    @Test(arguments: StoreBackend.allCases) func commitsBetweenAndAfterQueryChangesStillAnimate(_ backend: StoreBackend) throws {
        var rng = SeededRandom(seed: 2)
        let store = try filledStore(backend, &rng, count: 10)
        let queries = PublishSubject<Results<Article>>()
        let shown = ShownList()
        let subscription = queries.observeChanges(on: ImmediateScheduler.instance).subscribe(onNext: shown.apply)
        let cheap = store.objects(Article.self).filter("price < 100").sorted(byKeyPath: "price")
        queries.onNext(cheap)
        let first = try #require(shown.rows?.first)
        try store.write { tx in try tx.add(Article(id: first.id, title: "renamed", price: first.price, topics: []), update: .modified) }
        #expect(shown.updates.last?.modifications == [0])
        queries.onNext(cheap.filter("title == 'renamed'"))
        #expect(shown.rows?.map(\.id) == [first.id])
        try store.write { tx in try tx.add(Article(id: 100, title: "renamed", price: -1, topics: [])) }    // the cheapest: first
        #expect(shown.updates.last.map { ($0.deletions, $0.insertions, $0.modifications) } ?? ([], [], []) == ([], [0], []))
        #expect(shown.initials == 1 && shown.events == 4)
        subscription.dispose()
    }

    /// Keystrokes faster than the scheduler: the queries in between fold into one change set,
    /// computed against the list the observer saw.
    @Test func aBurstOfQueriesIsOneChangeAgainstTheListSeen() throws {
        var rng = SeededRandom(seed: 3)
        let store = try filledStore(.memory, &rng, count: 30)
        let scheduler = TestScheduler(initialClock: 0)
        let queries = PublishSubject<Results<Article>>()
        let shown = ShownList()
        let subscription = queries.observeChanges(on: scheduler).subscribe(onNext: shown.apply)
        let all = store.objects(Article.self).sorted(byKeyPath: "title")
        scheduler.scheduleAt(10) { queries.onNext(all) }
        scheduler.scheduleAt(20) {
            for prefix in ["m", "ma", "mar", "mari"] { queries.onNext(all.filter("title BEGINSWITH %@", prefix)) }
        }
        scheduler.scheduleAt(30) {
            try? store.write { tx in try tx.add(Article(id: 500, title: "marinara 9", price: 3, topics: [])) }
            queries.onNext(all.filter("title BEGINSWITH %@", "mar"))
        }
        scheduler.start()
        #expect(shown.initials == 1)
        #expect(shown.updates.count == 2)
        #expect(shown.rows == all.filter("title BEGINSWITH %@", "mar").toArray())
        subscription.dispose()
    }

    /// The property: for many random stores, queries (predicates and sorts) and commits, every
    /// change set turns the list the observer was shown into the new one, keeps a longest
    /// common subsequence of rows in place, and the list shown is always the query's results.
    @Test(arguments: [(StoreBackend.memory, false), (.memory, true), (.file, true)])
    func everyChangeSetIsTheDiffOfTheTwoLists(_ backend: StoreBackend, folded: Bool) throws {
        for seed in UInt64(10)..<UInt64(16) {
            var rng = SeededRandom(seed: seed)
            let store = try filledStore(backend, &rng)
            let scheduler = TestScheduler(initialClock: 0)
            let queries = PublishSubject<Results<Article>>()
            let shown = ShownList()
            let subscription = queries.observeChanges(on: folded ? scheduler as ImmediateSchedulerType : ImmediateScheduler.instance)
                .subscribe(onNext: shown.apply)
            var current = randomQuery(store, &rng)
            queries.onNext(current)
            var nextID = 1000
            for _ in 0..<60 {
                // One step: a few query changes and commits, delivered at once or one by one.
                for _ in 0..<(folded ? Int.random(in: 1...4, using: &rng) : 1) {
                    if Bool.random(using: &rng) {
                        current = randomQuery(store, &rng)
                        queries.onNext(current)
                    } else {
                        try randomCommit(store, nextID: &nextID, &rng)
                    }
                }
                if folded { scheduler.advanceTo(scheduler.clock + 10) }
                #expect(shown.rows == current.toArray(), "seed \(seed)")
            }
            #expect(shown.initials == 1)
            #expect(shown.updates.count > 20)
            subscription.dispose()
        }
    }

    /// Writers on two threads commit while a third changes the query: every change set is
    /// applied to the list its observer was shown (one delivery at a time, whichever thread
    /// makes it), and the list ends as the last query's results.
    @Test(arguments: StoreBackend.allCases) func commitsAndQueriesFromSeveralThreads(_ backend: StoreBackend) async throws {
        var rng = SeededRandom(seed: 6)
        let store = try filledStore(backend, &rng, count: 30)
        let queries = UncheckedBox(PublishSubject<Results<Article>>())
        let shown = ShownList()
        let subscription = queries.value.observeChanges(on: ImmediateScheduler.instance).subscribe(onNext: shown.apply)
        let byPrice = store.objects(Article.self).sorted(by: [ObjectStore.SortDescriptor(keyPath: "price"), ObjectStore.SortDescriptor(keyPath: "id")])
        queries.value.onNext(byPrice)
        await withTaskGroup(of: Void.self) { group in
            for writer in 1...2 {
                group.addTask {
                    for i in 0..<150 {
                        try? store.write { tx in
                            try tx.add(Article(id: writer * 1000 + i % 40, title: "w\(i)", price: (i * 7) % 50, topics: []), update: .modified)
                            if i % 3 == 0, let old = tx.object(ofType: Article.self, forPrimaryKey: writer * 1000 + (i + 20) % 40) { try tx.delete(old) }
                        }
                    }
                }
            }
            group.addTask {
                for i in 0..<150 { queries.value.onNext(byPrice.filter("price < %@", i % 50)) }
            }
        }
        let last = byPrice.filter("price < %@", 30)
        queries.value.onNext(last)
        #expect(shown.rows == last.toArray())
        #expect(shown.initials == 1)
        subscription.dispose()
    }

    /// Results of another store, or frozen ones, may hold other versions of the same objects:
    /// every kept object is reported modified, and commits are followed where the results live.
    @Test func resultsOfAnotherStoreOrFrozenResultsCountKeptObjectsAsModified() throws {
        var rng = SeededRandom(seed: 9)
        let first = try filledStore(.memory, &rng, count: 8)
        var same = SeededRandom(seed: 9)
        let second = try filledStore(.memory, &same, count: 8)
        try second.write { tx in try tx.add(Article(id: 3, title: "changed", price: 1, topics: []), update: .modified) }
        let queries = PublishSubject<Results<Article>>()
        let shown = ShownList()
        let subscription = queries.observeChanges(on: ImmediateScheduler.instance).subscribe(onNext: shown.apply)
        queries.onNext(first.objects(Article.self))
        queries.onNext(second.objects(Article.self))
        #expect(shown.updates.last?.modifications == Array(0..<8))
        #expect(first.core.observerForTesting(LatestResultsWatcher<Article, Void>.self) == nil)
        try first.write { tx in try tx.add(Article(id: 50, title: "elsewhere", price: 1, topics: [])) }
        #expect(shown.events == 2)
        try second.write { tx in try tx.add(Article(id: 50, title: "here", price: 1, topics: [])) }
        #expect(shown.events == 3 && shown.rows?.last?.title == "here")
        queries.onNext(second.objects(Article.self).freeze())
        try second.write { tx in try tx.add(Article(id: 51, title: "not seen", price: 1, topics: [])) }
        #expect(shown.events == 3)
        queries.onNext(second.objects(Article.self))
        #expect(shown.events == 4 && shown.rows == second.objects(Article.self).toArray())
        subscription.dispose()
    }

    @Test func disposingLetsGoOfTheStoreAndTheWatcher() throws {
        var rng = SeededRandom(seed: 4)
        weak var weakStoreCore: StoreCore?
        weak var weakWatcher: LatestResultsWatcher<Article, Void>?
        do {
            let store = try filledStore(.memory, &rng, count: 5)
            weakStoreCore = store.core
            let queries = PublishSubject<Results<Article>>()
            let shown = ShownList()
            let subscription = queries.observeChanges(on: ImmediateScheduler.instance).subscribe(onNext: shown.apply)
            queries.onNext(store.objects(Article.self))
            queries.onNext(store.objects(Article.self).filter("price < 10"))
            weakWatcher = store.core.observerForTesting(LatestResultsWatcher<Article, Void>.self)
            #expect(weakWatcher != nil)
            subscription.dispose()
            #expect(store.core.observerForTesting(LatestResultsWatcher<Article, Void>.self) == nil)
            try store.write { tx in try tx.add(Article(id: 99, title: "after", price: 1, topics: [])) }
            #expect(shown.events == 2)
        }
        #expect(weakWatcher == nil)
        #expect(weakStoreCore == nil)
    }

    @Test func anErrorOfTheQueriesEndsTheSequenceAfterTheChangesBeforeIt() throws {
        var rng = SeededRandom(seed: 5)
        let store = try filledStore(.memory, &rng, count: 5)
        let scheduler = TestScheduler(initialClock: 0)
        let observer = scheduler.createObserver(Int.self)
        struct Boom: Error {}
        let queries = PublishSubject<Results<Article>>()
        let subscription = queries.observeChanges(on: scheduler).map { change -> Int in
            if case .initial(let results) = change { return results.count }
            return -1
        }.subscribe(observer)
        scheduler.scheduleAt(10) {
            queries.onNext(store.objects(Article.self))
            queries.onError(Boom())
        }
        scheduler.start()
        #expect(observer.events.count == 2)
        #expect(observer.events.first?.value.element == 5)
        #expect(observer.events.last?.value.error is Boom)
        #expect(store.core.observerForTesting(LatestResultsWatcher<Article, Void>.self) == nil)
        subscription.dispose()
    }
}
