import Foundation
import HeadlessUI
import MVVM
import ObjectStore
import Repository
import Streams
import StreamsTesting
import TestSupport
import Testing

private struct Todo: StoreObject, Equatable {
    static var primaryKey: KeyPath<Todo, Int> { \.id }
    var id: Int
    var title: String
    var done: Bool
}

private let titles = ["buy milk", "bake bread", "book flights", "call mum", "clean the oven", "check the tyres", "water plants"]

private func todoStore(_ count: Int, _ rng: inout SeededRandom) throws -> Store {
    let store = Store()
    try store.write { tx in
        for id in 0..<count {
            try tx.add(Todo(id: id, title: "\(titles.randomElement(using: &rng)!) \(id)", done: Bool.random(using: &rng)))
        }
    }
    return store
}

/// A table bound the way a screen binds a live list: each change set becomes one batch update.
@MainActor
private func boundTable(_ changes: Observable<ListChange<String>>, _ bag: DisposeBag) -> TableView {
    let table = TableView(height: 400, rowHeight: 40)
    table.register(TableViewCell.self, forCellReuseIdentifier: "Cell")
    let dataSource = RxTableViewSectionedChangesetDataSource<SectionModel<String, String>>(configureCell: { _, table, indexPath, text in
        let cell = table.dequeueReusableCell(withIdentifier: "Cell", for: indexPath)
        cell.textLabel?.text = text
        return cell
    })
    changes.map { $0.changeset(section: "todos") }
        .bind(to: table.rx.items(dataSource: dataSource))
        .disposed(by: bag)
    return table
}

@MainActor
private func rows(of table: TableView) -> [String] {
    (0..<table.numberOfRows(inSection: 0)).compactMap { table.cellForRow(at: IndexPath(row: $0, section: 0))?.textLabel?.text }
}

/// The rows of the table's model (every row, not only the visible ones).
@MainActor
private func modelRows(_ changes: [ListChange<String>]) -> [String] { changes.last?.items ?? [] }

/// What a query reads now.
private func read(_ query: ViewModelQuery<Todo, String>) -> [String] {
    var rows: [String] = []
    _ = query.all().asObservable().subscribe(onNext: { rows = $0 })
    return rows
}

@MainActor @Suite(.resourceCheck) struct QueryLatestChangesTests {
    /// A search field drives the query; every keystroke animates, the table reloads once.
    @Test func aSearchFieldAnimatesTheTableInsteadOfReloadingIt() throws {
        var rng = SeededRandom(seed: 7)
        let store = try todoStore(12, &rng)
        let todos = ViewModelQuery<Todo, String>(store: store, sortedBy: [ObjectStore.SortDescriptor(keyPath: "title")]) { $0.title }
        let search = PublishSubject<String>()
        let bag = DisposeBag()
        let seen = Recorder<ListChange<String>>()
        let changes = search.map { text in text.isEmpty ? todos : todos.where { $0.title.contains(text, caseInsensitive: true) } }
            .observeChanges(on: ImmediateScheduler.instance)
            .do(onNext: seen.append)
        let table = Headless.run { boundTable(changes, bag) }
        Headless.run { search.onNext("") }
        let reloads = table.reloadCount                         // binding and the first list
        for text in ["b", "bo", "boo", "bo", "c", "", "ca"] {
            Headless.run { search.onNext(text) }
            let expected = read(todos).filter { text.isEmpty || $0.localizedCaseInsensitiveContains(text) }
            #expect(table.numberOfRows(inSection: 0) == expected.count)
            #expect(rows(of: table) == Array(expected.prefix(rows(of: table).count)))
        }
        #expect(table.reloadCount == reloads)
        #expect(seen.values.count >= 6)                        // "bo" after "boo" may change nothing
        #expect(table.batchUpdateCount == seen.values.count - 1)
    }

    /// For many random searches, sorts and commits, the table applies every change set as a
    /// batch update (its validation checks the counts of each) and never reloads.
    @Test func theTableAcceptsEveryChangeSet() throws {
        for seed in UInt64(20)..<UInt64(24) {
            var rng = SeededRandom(seed: seed)
            let store = try todoStore(60, &rng)
            let todos = ViewModelQuery<Todo, String>(store: store) { "\($0.id) \($0.title)\($0.done ? " ✓" : "")" }
            let queries = PublishSubject<ViewModelQuery<Todo, String>>()
            let seen = Recorder<ListChange<String>>()
            let bag = DisposeBag()
            let changes = queries.observeChanges(on: ImmediateScheduler.instance).share()
            changes.subscribe(onNext: seen.append).disposed(by: bag)
            let table = Headless.run { boundTable(changes, bag) }
            var current = todos
            Headless.run { queries.onNext(current) }
            let reloads = table.reloadCount
            var nextID = 1000
            for _ in 0..<80 {
                switch Int.random(in: 0..<3, using: &rng) {
                case 0:
                    let text = String(titles.randomElement(using: &rng)!.prefix(Int.random(in: 1...3, using: &rng)))
                    let sort = [[], [ObjectStore.SortDescriptor(keyPath: "title")], [ObjectStore.SortDescriptor(keyPath: "done"), ObjectStore.SortDescriptor(keyPath: "id", ascending: false)]]
                        .randomElement(using: &rng)!
                    current = (Bool.random(using: &rng) ? todos : todos.where { $0.title.contains(text) }).sorted(by: sort)
                    Headless.run { queries.onNext(current) }
                case 1:
                    let id = nextID
                    nextID += 1
                    let title = titles.randomElement(using: &rng)!
                    try Headless.runThrowing { try store.write { tx in try tx.add(Todo(id: id, title: "\(title) \(id)", done: false)) } }
                default:
                    let target = Int.random(in: 0..<60, using: &rng)
                    let done = Bool.random(using: &rng)
                    try Headless.runThrowing {
                        try store.write { tx in
                            guard var todo = tx.object(ofType: Todo.self, forPrimaryKey: target) else { return }
                            if done { todo.done.toggle(); try tx.add(todo, update: .modified) } else { try tx.delete(todo) }
                        }
                    }
                }
                let expected = read(current)
                #expect(modelRows(seen.values) == expected, "seed \(seed)")
                #expect(table.numberOfRows(inSection: 0) == expected.count)
            }
            #expect(table.reloadCount == reloads, "seed \(seed): the table reloaded")
            #expect(table.batchUpdateCount == seen.values.count - 1)
            #expect(seen.values.count > 40)
        }
    }

    /// The whole chain of a view model: a `Driver` of search text in, a `Driver` of animated
    /// sections out, on the main scheduler.
    @Test func worksInADriverChain() throws {
        var rng = SeededRandom(seed: 8)
        let store = try todoStore(8, &rng)
        let todos = ViewModelQuery<Todo, String>(store: store, sortedBy: [ObjectStore.SortDescriptor(keyPath: "title")]) { $0.title }
        let text = PublishSubject<String>()
        let bag = DisposeBag()
        let sections = Recorder<Changeset<SectionModel<String, String>>>()
        Headless.run {
            let search: Driver<String> = text.asDriver(onErrorJustReturn: "")
            let rows: Driver<Changeset<SectionModel<String, String>>> = search
                .map { text in text.isEmpty ? todos : todos.where { $0.title.contains(text, caseInsensitive: true) } }
                .observeChanges(on: MainScheduler.instance)
                .map { $0.changeset(section: "todos") }
                .asDriver(onErrorDriveWith: .empty())
            rows.drive(onNext: sections.append).disposed(by: bag)
            text.onNext("")
        }
        Headless.run { text.onNext("b") }
        #expect(sections.values.count == 2)
        #expect(sections.values.first?.reloadData == true)
        #expect(sections.values.last?.reloadData == false)
        let expected = read(todos.where { $0.title.contains("b", caseInsensitive: true) })
        #expect(sections.values.last?.finalSections.first?.items == expected)
    }
}

/// Collects the elements a test observes.
private final class Recorder<Element>: @unchecked Sendable {
    private(set) var values: [Element] = []
    func append(_ value: Element) { values.append(value) }
}
