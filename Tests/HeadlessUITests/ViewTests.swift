import Foundation
import HeadlessUI
import Streams
import TestSupport
import Testing

@MainActor @Suite(.resourceCheck) struct ViewTests {
    @Test func renderShowsTheTreeAndSkipsHiddenViews() {
        let root = View()
        root.accessibilityIdentifier = "root"
        root.addSubview(Label(text: "Margherita"))
        let order = Button(title: "Order")
        order.isEnabled = false
        root.addSubview(order)
        let secret = Label(text: "hidden")
        secret.isHidden = true
        root.addSubview(secret)
        root.addSubview(ImageView(image: Image(width: 64, height: 64, color: .init(r: 1, g: 2, b: 3), name: "pepperoni")))
        root.addSubview(ImageView())
        #expect(root.render() == """
        View #root
          Label "Margherita"
          Button [Order] (disabled)
          ImageView [image pepperoni 64×64]
          ImageView (empty)
        """)
    }

    @Test func viewPropertiesBind() {
        let view = View()
        let bag = DisposeBag()
        Headless.run {
            Observable.just(true).bind(to: view.rx.isHidden).disposed(by: bag)
            Observable.just(false).bind(to: view.rx.isUserInteractionEnabled).disposed(by: bag)
            Observable.just("Pizza list").bind(to: view.rx.accessibilityLabel).disposed(by: bag)
            Observable<View?>.just(Label(text: "Loading…")).bind(to: view.rx.backgroundView).disposed(by: bag)
        }
        #expect(view.isHidden)
        #expect(!view.isUserInteractionEnabled)
        #expect(view.accessibilityLabel == "Pizza list")
        #expect((view.backgroundView as? Label)?.text == "Loading…")
        view.isHidden = false
        #expect(view.render() == "View 'Pizza list'\n  Label \"Loading…\"")
    }

    @Test func buttonTapsOnlyWhenEnabledAndInteractive() {
        let container = View()
        let button = Button(title: "Order")
        container.addSubview(button)
        var taps = 0
        let subscription = button.rx.tap.subscribe(onNext: { taps += 1 })
        #expect(button.tap())
        button.isEnabled = false
        #expect(!button.tap())
        button.isEnabled = true
        container.isHidden = true
        #expect(!button.tap())
        container.isHidden = false
        container.isUserInteractionEnabled = false
        #expect(!button.tap())
        #expect(taps == 1)
        subscription.dispose()
    }

    @Test func buttonStateBindsAndRenders() {
        let button = Button(title: "Order")
        Headless.run {
            button.rx.isEnabled.onNext(false)
            button.rx.isSelected.onNext(true)
            button.rx.title.onNext("Ordered")
        }
        #expect(button.render() == "Button [Ordered] (disabled) (selected)")
    }

    @Test func controlEventsCompleteWhenTheControlIsDeallocated() {
        var button: Button? = Button(title: "Bye")
        var completed = false
        let subscription = button!.rx.tap.subscribe(onCompleted: { completed = true })
        button = nil
        #expect(completed)
        subscription.dispose()
    }

    @Test func textFieldTypingEmitsEachEditButCodeDoesNot() {
        let field = TextField(placeholder: "Name")
        #expect(field.render() == "TextField (Name)")
        var texts: [String?] = []
        var began = 0
        let bag = DisposeBag()
        field.rx.text.subscribe(onNext: { texts.append($0) }).disposed(by: bag)
        field.rx.controlEvent(.editingDidBegin).subscribe(onNext: { began += 1 }).disposed(by: bag)
        field.type("Ok")
        field.text = "set in code"
        field.deleteBackward()
        // Beginning to edit re-reads the text, as RxCocoa's default editing events do.
        #expect(texts == ["", "", "O", "Ok", "set in cod"])
        #expect(began == 1)
        #expect(field.render() == "TextField \"set in cod\" (editing)")
        var ended = 0
        field.rx.controlEvent(.editingDidEndOnExit).subscribe(onNext: { ended += 1 }).disposed(by: bag)
        field.pressReturn()
        #expect(ended == 1)
        #expect(!field.isEditing)
    }

    @Test func textFieldTextIsTwoWay() {
        let field = TextField()
        let name = Variable("Margherita")
        let bag = DisposeBag()
        Headless.run {
            name.asObservable().bind(to: field.rx.text).disposed(by: bag)
            field.rx.text.orEmpty.changed.bind(to: name).disposed(by: bag)
        }
        #expect(field.text == "Margherita")
        Headless.run { field.clear(); field.type("Diavola") }
        #expect(name.value == "Diavola")
        Headless.run { name.value = "Capricciosa" }
        #expect(field.text == "Capricciosa")
    }

    @Test func switchToggleIsTwoWay() {
        let toggle = Switch()
        var values: [Bool] = []
        let bag = DisposeBag()
        toggle.rx.isOn.subscribe(onNext: { values.append($0) }).disposed(by: bag)
        toggle.toggle()
        toggle.setOn(false)
        Headless.run { toggle.rx.isOn.onNext(true) }
        #expect(values == [false, true])
        #expect(toggle.render() == "Switch on")
        toggle.isEnabled = false
        #expect(!toggle.toggle())
    }

    @Test func activityIndicatorAndProgressRender() {
        let root = View()
        let spinner = ActivityIndicatorView()
        let progress = ProgressView()
        root.addSubview(spinner)
        root.addSubview(progress)
        #expect(root.render() == "View\n  ProgressView 0%")
        Headless.run {
            spinner.rx.isAnimating.onNext(true)
            progress.rx.progress.onNext(0.4)
        }
        #expect(root.render() == "View\n  ActivityIndicatorView (animating)\n  ProgressView 40%")
        progress.progress = 7
        #expect(progress.progress == 1)
    }

    @Test func findsViewsByIdentifierAndType() {
        let root = View()
        let inner = View()
        let label = Label(text: "x")
        label.accessibilityIdentifier = "price"
        inner.addSubview(label)
        root.addSubview(inner)
        #expect(root.view(withAccessibilityIdentifier: "price") === label)
        #expect(root.descendants(ofType: Label.self).count == 1)
        label.removeFromSuperview()
        #expect(root.view(withAccessibilityIdentifier: "price") == nil)
    }
}
