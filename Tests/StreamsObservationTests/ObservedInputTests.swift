import Foundation
import Locking
import Observation
import Streams
import StreamsObservation
import TestSupport
import Testing

@MainActor @Suite(.resourceCheck) struct ObservedInputTests {
    @Test func theDriverSendsTheCurrentValueThenEachChangeOnceOnTheMainActor() {
        let search = ObservedInput("")
        let seen = Locked<[String]>([])
        let offMain = Locked(0)
        let bag = DisposeBag()
        search.driver.drive(onNext: { text in
            if !MainScheduler.isOnMainActor { offMain.withLock { $0 += 1 } }
            seen.withLock { $0.append(text) }
        }).disposed(by: bag)
        let field = BodyReader { search.value }             // what `TextField(text:)` reads

        for text in ["m", "ma", "ma", "mar"] {               // SwiftUI sets the binding per edit
            search.value = text
            field.render()
        }
        #expect(seen.withLock { $0 } == ["", "m", "ma", "mar"])
        #expect(field.invalidations == 3)                    // setting the same text is no change
        #expect(offMain.withLock { $0 } == 0)
        #expect(field.offMainActor == 0)
    }

    @Test func changesSendsOnlyLaterEdits() {
        let isVegetarian = ObservedInput(false)              // a Toggle
        let seen = Locked<[Bool]>([])
        let bag = DisposeBag()
        isVegetarian.changes.emit(onNext: { value in seen.withLock { $0.append(value) } }).disposed(by: bag)
        isVegetarian.value = true
        isVegetarian.value = true
        isVegetarian.value = false
        #expect(seen.withLock { $0 } == [true, false])
    }

    @Test func aViewModelTakesTheInputAsTheDriverItTakesToday() {
        // A view model written for a HeadlessUI text field: `Driver<String>` in, `Driver` out.
        func greeting(name: Driver<String>) -> Driver<String> {
            name.map { $0.isEmpty ? "Who are you?" : "Hello, \($0)" }
        }
        let name = ObservedInput("")
        let output = Observed(greeting(name: name.driver), initial: "")
        let label = BodyReader { output.value }
        #expect(label.output == "Who are you?")
        name.value = "Ada"
        #expect(label.invalidations == 1)
        #expect(label.render() == "Hello, Ada")
    }
}

private struct Burnt: Error, CustomStringConvertible {
    var description: String { "the oven is too hot" }
}

@MainActor @Suite(.resourceCheck) struct ObservedActionTests {
    @Test func executingEnabledAndErrorsAreObservableStateOnTheMainActor() async throws {
        let work = PublishSubject<Int>()
        let bake = ObservedAction(Action<String, Int> { _ in work.asObservable() })
        let spinner = BodyReader { bake.isExecuting }
        let button = BodyReader { bake.isEnabled }
        let alert = BodyReader { bake.error.map { "\($0)" } }
        #expect(spinner.output == false && button.output == true && alert.output == nil)

        bake.run("margherita")
        #expect(spinner.invalidations == 1 && spinner.render() == true)
        #expect(button.invalidations == 1 && button.render() == false)
        #expect(alert.invalidations == 0)

        bake.run("marinara")                                 // one execution at a time
        #expect(alert.invalidations == 1)
        #expect(alert.render() == "the action is not enabled")

        // The work fails on another thread: the state changes on the main actor (through the
        // main queue, before this test resumes there), never on that thread.
        try await onAnotherThread { work.onError(Burnt()) }
        #expect(spinner.invalidations == 2 && spinner.render() == false)
        #expect(button.invalidations == 2 && button.render() == true)
        #expect(alert.invalidations == 2 && alert.render() == "the oven is too hot")
        #expect(spinner.offMainActor + button.offMainActor + alert.offMainActor == 0)

        bake.dismissError()
        #expect(alert.invalidations == 3 && alert.render() == nil)
    }

    @Test func aDisabledActionDoesNoWorkAndSaysWhy() {
        let open = BehaviorRelay(value: false)
        var runs = 0
        let order = ObservedAction(Action<Void, Void>(enabledIf: open.asObservable()) { _ in
            runs += 1
            return .just(())
        })
        let button = BodyReader { order.isEnabled }
        #expect(button.output == false)
        order.run()
        #expect(runs == 0)
        #expect(order.error.map { "\($0)" } == "the action is not enabled")
        open.accept(true)
        #expect(button.invalidations == 1 && button.render() == true)
        order.run()
        #expect(runs == 1)
        #expect(order.error == nil)                           // an execution clears the last error
        #expect(order.isExecuting == false)                   // `.just` completed at once
    }
}
