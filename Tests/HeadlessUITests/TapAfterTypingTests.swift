import HeadlessUI
import Streams
import TestSupport
import Testing

/// Typing into a field that enables an Action takes effect on the bound button in the same
/// main-actor turn, so a tap right after typing reaches the action (as with RxCocoa's Binder on
/// the main thread).
@MainActor @Suite(.resourceCheck) struct TapAfterTypingTests {
    @Test func tapRightAfterTypingRunsTheAction() {
        let field = TextField()
        let button = Button()
        var runs: [String] = []
        let action = Action<String, String>(enabledIf: field.rx.text.orEmpty.map { !$0.isEmpty }) { text in
            runs.append(text)
            return Observable.just(text)
        }
        let bag = DisposeBag()
        Headless.run {
            button.rx.bind(to: action) { _ in field.text ?? "" }.disposed(by: bag)
        }
        #expect(!button.isEnabled)
        let tapped = Headless.run { () -> Bool in
            field.type("hi")
            return button.tap()
        }
        #expect(tapped)
        #expect(runs == ["hi"])
    }

    @Test func typingEnablesTheButtonInsideTheSameRun() {
        let field = TextField()
        let button = Button()
        let action = Action<Void, Void>(enabledIf: field.rx.text.orEmpty.map { !$0.isEmpty }) { _ in Observable.just(()) }
        let bag = DisposeBag()
        let states = Headless.run { () -> [Bool] in
            button.rx.bind(to: action, input: ()).disposed(by: bag)
            var states = [button.isEnabled]
            field.type("a")
            states.append(button.isEnabled)
            field.clear()
            states.append(button.isEnabled)
            return states
        }
        #expect(states == [false, true, false])
    }
}
