import Foundation
import HeadlessUI
import Streams
import TestSupport
import Testing

@MainActor @Suite(.resourceCheck) struct BinderTests {
    @Test func bindsElementsInlineOnTheMainScheduler() {
        let label = Label()
        let subject = PublishSubject<String?>()
        let subscription = Headless.run { subject.bind(to: label.rx.text) }
        Headless.run { subject.onNext("Margherita") }
        #expect(label.text == "Margherita")
        subscription.dispose()
    }

    @Test func elementsFromAnotherThreadWaitForTheMainScheduler() {
        let label = Label(text: "before")
        let subject = PublishSubject<String?>()
        let subscription = subject.bind(to: label.rx.text)
        // Another thread is not the main scheduler: the update is queued.
        onAnotherThread { subject.onNext("after") }
        #expect(label.text == "before")
        #expect(Headless.drain() == 1)
        #expect(label.text == "after")
        subscription.dispose()
    }

    @Test func bindingAnErrorIsReportedAsAProgrammingError() {
        let label = Label(text: "kept")
        let (_, errors) = capturingProgrammingErrors {
            Headless.run {
                let subscription = Observable<String?>.error(TestError.boom).bind(to: label.rx.text)
                subscription.dispose()
            }
        }
        #expect(errors.count == 1)
        #expect(errors.first?.contains("Binding error") == true)
        #expect(label.text == "kept")
    }

    @Test func completionIsIgnoredAndTheTargetIsHeldWeakly() {
        var label: Label? = Label()
        weak let weakLabel = label
        let binder = label!.rx.text
        label = nil
        #expect(weakLabel == nil)
        let (_, errors) = capturingProgrammingErrors {
            Headless.run {
                binder.onNext("nobody")
                binder.onCompleted()
            }
        }
        #expect(errors.isEmpty)
    }

    @Test func dynamicMemberBinderSetsAnyProperty() {
        let view = View()
        Headless.run {
            let subscription = Observable.just(0.5).bind(to: view.rx.alpha)
            subscription.dispose()
            view.rx.accessibilityIdentifier.onNext("hero")
        }
        #expect(view.alpha == 0.5)
        #expect(view.accessibilityIdentifier == "hero")
    }

    @Test func bindsToSeveralObserversAndOptionals() {
        let first = Label(), second = Label()
        Headless.run {
            let subscription = Observable.just("Marinara").bind(to: first.rx.text, second.rx.text)
            subscription.dispose()
        }
        #expect(first.text == "Marinara")
        #expect(second.text == "Marinara")
    }

    @Test func bindsToRelaysAndVariables() {
        let relay = BehaviorRelay(value: 0)
        let variable = Variable(0)
        let subscriptions = [Observable.of(1, 2).bind(to: relay), Observable.of(3, 4).bind(to: variable)]
        #expect(relay.value == 2)
        #expect(variable.value == 4)
        subscriptions.forEach { $0.dispose() }
    }

    @Test func controlPropertyChangedSkipsTheCurrentValue() {
        let field = TextField(text: "Ma")
        var all: [String] = [], changes: [String] = []
        let bag = DisposeBag()
        field.rx.text.orEmpty.subscribe(onNext: { all.append($0) }).disposed(by: bag)
        field.rx.text.orEmpty.changed.subscribe(onNext: { changes.append($0) }).disposed(by: bag)
        field.type("r")
        // As in RxCocoa, beginning to edit re-reads the text (all editing events count).
        #expect(all == ["Ma", "Ma", "Mar"])
        #expect(changes == ["Ma", "Mar"])
    }
}

@MainActor @Suite(.resourceCheck) struct BindWithTests {
    final class Screen { var title = "" }

    @Test func bindWithPassesTheObjectAndStopsOnceItIsGone() {
        let subject = PublishSubject<String>()
        var screen: Screen? = Screen()
        weak let weakScreen = screen
        var calls = 0
        let subscription = subject.bind(with: screen!) { screen, title in
            screen.title = title
            calls += 1
        }
        subject.onNext("Menu")
        #expect(screen?.title == "Menu")
        screen = nil
        #expect(weakScreen == nil)
        subject.onNext("Cart")
        subscription.dispose()
        #expect(calls == 1)
    }

    @Test func bindWithReportsAnErrorAsAProgrammingError() {
        let screen = Screen()
        let (_, errors) = capturingProgrammingErrors {
            Observable<String>.error(TestError.boom).bind(with: screen) { screen, title in screen.title = title }.dispose()
        }
        #expect(errors == ["Binding error: boom"])
        #expect(screen.title == "")
    }
}
