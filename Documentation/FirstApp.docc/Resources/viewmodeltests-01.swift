import Foundation
import ObjectStore
import Streams
import StreamsTesting
import Testing
@testable import TodoApp

@Test func searchNarrowsTheListAfterTypingPauses() throws {
    let store = Store()
    try store.write { transaction in
        for title in ["buy milk", "mind the gap", "call mum"] {
            try transaction.add(Todo(id: title, title: title))
        }
    }
    // A tick is a millisecond, so the 300 ms debounce waits 300 ticks.
    let scheduler = TestScheduler(initialClock: 0, resolution: 0.001)
    SharingScheduler.mock(scheduler: scheduler) {
        let typed = scheduler.createHotObservable([.next(0, ""), .next(1_000, "m"), .next(1_100, "mi")])
        let viewModel = TodoListViewModel(search: typed.asDriver(onErrorJustReturn: ""), store: store, scheduler: scheduler)
        let titles = scheduler.createObserver([String].self)
        let subscription = viewModel.sections
            .map { $0.finalSections.flatMap { $0.items.map(\.text) } }
            .drive(titles)
        scheduler.start()
        #expect(titles.events.map(\.value.element) == [
            ["[ ] buy milk", "[ ] call mum", "[ ] mind the gap"],
            ["[ ] buy milk", "[ ] mind the gap"],
        ])
        // "" typed at 0 shows at 303, "mi" typed at 1,100 at 1,403; "m" never passes the debounce.
        #expect(titles.events.map(\.time) == [303, 1_403])
        subscription.dispose()
    }
}
