import Foundation
import HeadlessUI
import Streams
import TestSupport
import Testing

@MainActor @Suite(.resourceCheck) struct ActionTests {
    @Test func executesWorkAndReportsExecution() {
        let work = PublishSubject<Int>()
        let action = Action<Int, Int> { input in work.map { $0 * input } }
        var elements: [Int] = [], executing: [Bool] = [], enabled: [Bool] = []
        let bag = DisposeBag()
        action.elements.subscribe(onNext: { elements.append($0) }).disposed(by: bag)
        action.isExecuting.subscribe(onNext: { executing.append($0) }).disposed(by: bag)
        action.isEnabled.subscribe(onNext: { enabled.append($0) }).disposed(by: bag)
        var results: [Int] = []
        action.execute(10).subscribe(onNext: { results.append($0) }).disposed(by: bag)
        work.onNext(1)
        work.onNext(2)
        work.onCompleted()
        #expect(elements == [10, 20])
        #expect(results == [10, 20])
        #expect(executing == [false, true, false])
        #expect(enabled == [true, false, true])
    }

    @Test func noConcurrentExecution() {
        let work = PublishSubject<String>()
        var runs = 0
        let action = Action<Void, String> { _ in
            runs += 1
            return work.asObservable()
        }
        var errors: [String] = []
        let bag = DisposeBag()
        action.errors.subscribe(onNext: { errors.append(String(reflecting: $0)) }).disposed(by: bag)
        action.execute(())
        var secondFailed = false
        action.execute(()).subscribe(onError: { _ in secondFailed = true }).disposed(by: bag)
        #expect(runs == 1)
        #expect(secondFailed)
        #expect(errors == ["notEnabled"])
        work.onCompleted()
    }

    @Test func enabledIfAndErrors() {
        let allowed = BehaviorSubject(value: false)
        let action = Action<Int, Int>(enabledIf: allowed.asObservable()) { input in
            input < 0 ? Observable.error(TestError.code(input)) : Observable.just(input)
        }
        var underlying: [Error] = []
        var enabled: [Bool] = []
        let bag = DisposeBag()
        action.underlyingError.subscribe(onNext: { underlying.append($0) }).disposed(by: bag)
        action.isEnabled.subscribe(onNext: { enabled.append($0) }).disposed(by: bag)
        var elements: [Int] = []
        action.elements.subscribe(onNext: { elements.append($0) }).disposed(by: bag)
        action.execute(1)
        allowed.onNext(true)
        action.execute(2)
        action.execute(-3)
        #expect(elements == [2])
        #expect(underlying.count == 1)
        #expect((underlying.first as? TestError) == .code(-3))
        #expect(enabled.first == false && enabled.last == true)
    }

    @Test func bindsToAButton() {
        let button = Button(title: "Order")
        let allowed = BehaviorSubject(value: true)
        let work = PublishSubject<String>()
        var inputs: [String] = []
        let action = Action<String, String>(enabledIf: allowed.asObservable()) { input in
            inputs.append(input)
            return work.asObservable()
        }
        let bag = DisposeBag()
        Headless.run { button.rx.bind(to: action, input: "margherita").disposed(by: bag) }
        #expect(button.isEnabled)
        Headless.run { button.tap() }
        #expect(inputs == ["margherita"])
        #expect(!button.isEnabled)
        #expect(!button.tap())
        Headless.run { work.onCompleted() }
        #expect(button.isEnabled)
        Headless.run { allowed.onNext(false) }
        #expect(!button.isEnabled)
    }

    /// A screen that makes its view model (and so its actions) in `viewDidLoad` keeps only the
    /// bindings: they must keep the actions running until they are disposed.
    @Test func bindingsHoldTheirActionUntilDisposed() {
        let button = Button(title: "Add")
        let rows = PublishSubject<Int>()
        var executed: [String] = []
        weak var weakAction: Action<String, Void>?
        let bag = DisposeBag()
        do {
            let action = Action<String, Void> { input in
                executed.append(input)
                return .empty()
            }
            weakAction = action
            Headless.run { button.rx.bind(to: action, input: "tap").disposed(by: bag) }
            rows.map { "row \($0)" }.bind(to: action.inputs).disposed(by: bag)
        }
        Headless.run { button.tap() }
        rows.onNext(1)
        #expect(executed == ["tap", "row 1"])
        #expect(weakAction != nil)
        withExtendedLifetime(bag) {}
    }

    @Test func anActionIsFreedWhenItsBindingsAreDisposed() {
        let button = Button(title: "Add")
        weak var weakAction: Action<String, Void>?
        var bag: DisposeBag? = DisposeBag()
        do {
            let action = Action<String, Void> { _ in .empty() }
            weakAction = action
            Headless.run { button.rx.bind(to: action, input: "tap").disposed(by: bag!) }
            Observable<String>.never().bind(to: action.inputs).disposed(by: bag!)
        }
        #expect(weakAction != nil)
        bag = nil
        #expect(weakAction == nil)
    }

    @Test func inputsObserverExecutes() {
        let action = Action<Int, Int> { Observable.just($0 + 1) }
        var elements: [Int] = []
        let bag = DisposeBag()
        action.elements.subscribe(onNext: { elements.append($0) }).disposed(by: bag)
        Observable.of(1, 2).bind(to: action.inputs).disposed(by: bag)
        #expect(elements == [2, 3])
    }

    @Test func anActionErrorReadsAsItsUnderlyingError() {
        struct EmptyTitle: Error, CustomStringConvertible {
            var description: String { "a todo needs a title" }
        }
        struct Offline: LocalizedError {
            var errorDescription: String? { "You are offline." }
        }
        enum Plain: Error { case failed }
        let titled = ActionError.underlyingError(EmptyTitle())
        #expect("\(titled)" == "a todo needs a title")
        #expect(titled.localizedDescription == "a todo needs a title")
        #expect(String(reflecting: titled) == "underlyingError(a todo needs a title)")
        #expect(ActionError.underlyingError(Offline()).localizedDescription == "You are offline.")
        #expect("\(ActionError.underlyingError(Plain.failed))" == "failed")
        #expect("\(ActionError.notEnabled)" == "the action is not enabled")
        #expect(ActionError.notEnabled.localizedDescription == "the action is not enabled")
        #expect(String(reflecting: ActionError.notEnabled) == "notEnabled")
    }
}

