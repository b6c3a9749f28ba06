// A SwiftUI screen over StreamsObservation, as an app target writes it: a view model of Drivers
// and an Action, unchanged, read through Observed, ObservedInput, ObservedAction and
// ObservedList, bound with `Bindable` to a TextField and a Toggle, a Button that runs the
// action, and a List of a live query whose predicate follows the search text. check-apple.sh
// type-checks it twice: in a plain Swift 6 target and with Xcode's app-target settings
// (default isolation MainActor, NonisolatedNonsendingByDefault, InferIsolatedConformances).
import ObjectStore
import Repository
import Streams
import StreamsObservation
import SwiftUI

struct Topping: StoreObject, Identifiable {
    static var primaryKey: KeyPath<Topping, Int> { \.id }
    var id: Int
    var name: String
}

struct ToppingsViewModel {
    let summary: Driver<String>
    let add: Action<String, Void>

    init(search: Driver<String>, vegetarianOnly: Driver<Bool>, store: Store) {
        summary = Driver.combineLatest(search, vegetarianOnly) { text, vegetarian in
            (vegetarian ? "vegetarian, " : "") + (text.isEmpty ? "every topping" : "matching \(text)")
        }
        // `Observable` is also Observation's protocol, which SwiftUI re-exports: the stream
        // type is written `RxObservable` in this file. SwiftUI has a `Transaction` too: the
        // write block's parameter is left to inference (or written `ObjectStore.Transaction`).
        add = Action(enabledIf: search.map { !$0.isEmpty }.asObservable()) { (name: String) -> RxObservable<Void> in
            RxObservable.deferred {
                try store.write { tx in try tx.add(Topping(id: name.hashValue, name: name)) }
                return .just(())
            }
        }
    }
}

@MainActor
final class ToppingsModel {
    let search = ObservedInput("")
    let vegetarianOnly = ObservedInput(false)
    let summary: Observed<String>
    let add: ObservedAction<String, Void>
    let toppings: ObservedList<Topping>

    init(store: Store) {
        let viewModel = ToppingsViewModel(search: search.driver, vegetarianOnly: vegetarianOnly.driver, store: store)
        summary = viewModel.summary.observed(initial: "")
        add = ObservedAction(viewModel.add)
        let all = ViewModelQuery<Topping, Topping>(store: store, sortedBy: [ObjectStore.SortDescriptor(keyPath: "name")]) { $0 }
        toppings = ObservedList(search.driver.map { text in
            text.isEmpty ? all : all.where { $0.name.contains(text, caseInsensitive: true) }
        })
    }
}

struct ToppingsView: View {
    @State private var model: ToppingsModel
    @Bindable var search: ObservedInput<String>

    init(store: Store) {
        let model = ToppingsModel(store: store)
        _model = State(wrappedValue: model)
        search = model.search
    }

    var body: some View {
        Form {
            TextField("Search", text: $search.value)
            Toggle("Vegetarian", isOn: Bindable(model.vegetarianOnly).value)
            Text(model.summary.value)
            Button(model.add.isExecuting ? "Adding…" : "Add") { model.add.run(search.value) }
                .disabled(!model.add.isEnabled)
            List {
                ForEach(model.toppings.elements) { topping in Text(topping.name) }
            }
            .searchable(text: $search.value)
            Text(model.add.error.map { "\($0)" } ?? "")
        }
    }
}
