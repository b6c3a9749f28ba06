import HeadlessUI
import Streams
import TestSupport
import Testing

@MainActor @Suite(.resourceCheck) struct FirstResponderTests {
    @Test func onlyTheFirstResponderRendersAsEditing() {
        let form = View()
        let name = TextField(placeholder: "Name")
        let email = TextField(placeholder: "Email")
        form.addSubview(name)
        form.addSubview(email)
        name.type("Ada")
        email.type("ada@example.com")
        #expect(!name.isEditing)
        #expect(email.isFirstResponder)
        #expect(form.render() == "View\n  TextField \"Ada\"\n  TextField \"ada@example.com\" (editing)")
    }

    @Test func becomingFirstResponderEndsThePreviousEditing() {
        let form = View()
        let name = TextField()
        let email = TextField()
        form.addSubview(name)
        form.addSubview(email)
        var log: [String] = []
        let bag = DisposeBag()
        name.rx.controlEvent(.editingDidBegin).subscribe(onNext: { log.append("name began") }).disposed(by: bag)
        name.rx.controlEvent(.editingDidEnd).subscribe(onNext: { log.append("name ended") }).disposed(by: bag)
        email.rx.controlEvent(.editingDidBegin).subscribe(onNext: { log.append("email began") }).disposed(by: bag)
        #expect(name.becomeFirstResponder())
        #expect(name.becomeFirstResponder())
        #expect(email.becomeFirstResponder())
        #expect(log == ["name began", "name ended", "email began"])
        #expect(!name.isFirstResponder)
    }

    @Test func endEditingResignsAFirstResponderUnderTheView() {
        let screen = View()
        let form = View()
        let field = TextField()
        let other = View()
        screen.addSubview(form)
        screen.addSubview(other)
        form.addSubview(field)
        field.becomeFirstResponder()
        #expect(!other.endEditing(true))
        #expect(field.isEditing)
        #expect(screen.endEditing(true))
        #expect(!field.isEditing)
        #expect(!screen.endEditing(false))
    }

    @Test func viewsThatCannotBecomeFirstResponderRefuse() {
        let label = Label(text: "x")
        #expect(!label.becomeFirstResponder())
        let field = TextField()
        field.isEnabled = false
        #expect(!field.becomeFirstResponder())
        #expect(!field.isFirstResponder)
    }

    @Test func leavingTheHierarchyResignsAndHierarchiesAreSeparate() {
        let first = View()
        let second = View()
        let a = TextField()
        let b = TextField()
        first.addSubview(a)
        second.addSubview(b)
        a.becomeFirstResponder()
        b.becomeFirstResponder()
        #expect(a.isFirstResponder && b.isFirstResponder)
        var ended = 0
        let bag = DisposeBag()
        a.rx.controlEvent(.editingDidEnd).subscribe(onNext: { ended += 1 }).disposed(by: bag)
        a.removeFromSuperview()
        #expect(ended == 1)
        #expect(!a.isEditing)
        // Moving a subtree with its own first responder into a hierarchy that has one resigns it.
        let panel = View()
        let c = TextField()
        panel.addSubview(c)
        c.becomeFirstResponder()
        second.addSubview(panel)
        #expect(b.isFirstResponder)
        #expect(!c.isFirstResponder)
    }
}

@MainActor @Suite(.resourceCheck) struct StylingAndGestureTests {
    @Test func textColorBindsAndRendersOnLabelsAndFields() {
        let label = Label(text: "Username taken")
        let field = TextField(text: "ada")
        let color = BehaviorSubject<Color?>(value: .red)
        let bag = DisposeBag()
        Headless.run {
            color.bind(to: label.rx.textColor).disposed(by: bag)
            color.bind(to: field.rx.textColor).disposed(by: bag)
        }
        #expect(label.render() == "Label \"Username taken\" (red)")
        #expect(field.textColor == .red)
        Headless.run { color.onNext(Color(red: 138 / 255, green: 221 / 255, blue: 109 / 255)) }
        #expect(label.render() == "Label \"Username taken\" (rgba(138,221,109,255))")
        #expect(field.render() == "TextField \"ada\" (rgba(138,221,109,255))")
        Headless.run { color.onNext(nil) }
        #expect(label.render() == "Label \"Username taken\"")
        #expect(Color(red: 2, green: -1, blue: .nan) == Color(red: 1, green: 0, blue: 0))
    }

    @Test func aTapGestureSendsItsRecognizer() {
        let view = View()
        let tap = TapGestureRecognizer()
        #expect(!tap.tap())
        view.addGestureRecognizer(tap)
        #expect(view.gestureRecognizers?.count == 1)
        var states: [GestureRecognizer.State] = []
        let bag = DisposeBag()
        tap.rx.event.subscribe(onNext: { recognizer in states.append(recognizer.state) }).disposed(by: bag)
        let event: ControlEvent<TapGestureRecognizer> = tap.rx.event
        _ = event
        #expect(tap.tap())
        #expect(states == [.recognized])
        #expect(tap.state == .possible)
        tap.isEnabled = false
        #expect(!tap.tap())
        tap.isEnabled = true
        view.isHidden = true
        #expect(!tap.tap())
        #expect(states.count == 1)
        view.removeGestureRecognizer(tap)
        #expect(view.gestureRecognizers == nil)
        #expect(tap.view == nil)
    }

    @Test func aTapThatEndsEditing() {
        let screen = View()
        let field = TextField()
        screen.addSubview(field)
        let tap = TapGestureRecognizer()
        screen.addGestureRecognizer(tap)
        let bag = DisposeBag()
        tap.rx.event.subscribe(onNext: { _ in screen.endEditing(true) }).disposed(by: bag)
        field.type("x")
        tap.tap()
        #expect(!field.isEditing)
    }

    @Test func foundationComesWithHeadlessUI() {
        // This file imports HeadlessUI and Streams only, as RxCocoa code imports RxCocoa only.
        let url = URL(string: "https://example.com")
        let error = NSError(domain: "x", code: 1)
        #expect(url?.host == "example.com")
        #expect(error.code == 1)
    }
}
