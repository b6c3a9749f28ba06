import HeadlessUI
import Streams
import TestSupport
import Testing

/// A screen that writes its appearance calls into a shared log.
@MainActor private final class LoggingScreen: ViewController {
    let name: String
    let log: LifecycleLog

    init(_ name: String, log: LifecycleLog) {
        self.name = name
        self.log = log
        super.init()
        title = name
    }

    override func viewWillAppear(_ animated: Bool) { log.entries.append("\(name) willAppear") }
    override func viewDidAppear(_ animated: Bool) { log.entries.append("\(name) didAppear") }
    override func viewWillDisappear(_ animated: Bool) { log.entries.append("\(name) willDisappear") }
    override func viewDidDisappear(_ animated: Bool) { log.entries.append("\(name) didDisappear") }
}

@MainActor private final class LifecycleLog {
    var entries: [String] = []

    /// The entries since the last call.
    func take() -> [String] {
        defer { entries = [] }
        return entries
    }
}

@MainActor @Suite(.resourceCheck) struct ViewLifecycleTests {
    @Test func showingTheRootMakesItAndTheTopOfItsStackAppear() {
        let log = LifecycleLog()
        let list = LoggingScreen("list", log: log)
        let navigation = NavigationController(rootViewController: list)
        #expect(log.take() == [])                         // never shown: nothing appears
        Headless.show(navigation)
        #expect(log.take() == ["list willAppear", "list didAppear"])
        #expect(list.isVisible && navigation.isVisible)
        Headless.show(navigation)
        #expect(log.take() == [])                         // already visible
        Headless.hide(navigation)
        #expect(log.take() == ["list willDisappear", "list didDisappear"])
        #expect(!list.isVisible)
    }

    @Test func pushCoversThePreviousTopAndPopUncoversIt() {
        let log = LifecycleLog()
        let list = LoggingScreen("list", log: log)
        let navigation = NavigationController(rootViewController: list)
        Headless.show(navigation)
        _ = log.take()
        let detail = LoggingScreen("detail", log: log)
        navigation.pushViewController(detail)
        #expect(log.take() == ["list willDisappear", "list didDisappear", "detail willAppear", "detail didAppear"])
        let more = LoggingScreen("more", log: log)
        navigation.pushViewController(more)
        _ = log.take()
        navigation.popViewController()
        #expect(log.take() == ["more willDisappear", "more didDisappear", "detail willAppear", "detail didAppear"])
        navigation.pushViewController(LoggingScreen("third", log: log))
        _ = log.take()
        navigation.popToRootViewController()
        #expect(log.take() == ["third willDisappear", "third didDisappear", "list willAppear", "list didAppear"])
    }

    @Test func aStackThatIsNotShownSendsNothingOnPushOrPop() {
        let log = LifecycleLog()
        let navigation = NavigationController(rootViewController: LoggingScreen("list", log: log))
        navigation.pushViewController(LoggingScreen("detail", log: log))
        navigation.popViewController()
        #expect(log.take() == [])
    }

    @Test func aFullScreenPresentationCoversThePresenterAPageSheetDoesNot() {
        let log = LifecycleLog()
        let list = LoggingScreen("list", log: log)
        Headless.show(list)
        _ = log.take()
        let sheet = LoggingScreen("sheet", log: log)
        list.present(sheet)
        #expect(log.take() == ["sheet willAppear", "sheet didAppear"])
        #expect(list.isVisible)
        list.dismiss()
        #expect(log.take() == ["sheet willDisappear", "sheet didDisappear"])

        let cover = LoggingScreen("cover", log: log)
        cover.modalPresentationStyle = .fullScreen
        list.present(cover)
        #expect(log.take() == ["list willDisappear", "list didDisappear", "cover willAppear", "cover didAppear"])
        Headless.hide(list)                               // the presented screen leaves with it
        #expect(log.take() == ["cover willDisappear", "cover didDisappear"])
        Headless.show(list)                               // under a full-screen cover only it shows
        #expect(log.take() == ["cover willAppear", "cover didAppear"])
        cover.dismiss()
        #expect(log.take() == ["cover willDisappear", "cover didDisappear", "list willAppear", "list didAppear"])
    }

    @Test func rxFormsFollowTheCallsAndIsVisibleStartsWithTheCurrentState() {
        let log = LifecycleLog()
        let list = LoggingScreen("list", log: log)
        let navigation = NavigationController(rootViewController: list)
        var events: [String] = [], visible: [Bool] = []
        let bag = DisposeBag()
        list.rx.viewWillAppear.subscribe(onNext: { _ in events.append("will") }).disposed(by: bag)
        list.rx.viewDidAppear.subscribe(onNext: { _ in events.append("did") }).disposed(by: bag)
        list.rx.viewWillDisappear.subscribe(onNext: { _ in events.append("willDis") }).disposed(by: bag)
        list.rx.viewDidDisappear.subscribe(onNext: { _ in events.append("didDis") }).disposed(by: bag)
        list.rx.isVisible.subscribe(onNext: { visible.append($0) }).disposed(by: bag)
        Headless.show(navigation)
        navigation.pushViewController(LoggingScreen("detail", log: log))
        navigation.popViewController()
        #expect(events == ["will", "did", "willDis", "didDis", "will", "did"])
        #expect(visible == [false, true, false, true])
        var late: [Bool] = []
        list.rx.isVisible.subscribe(onNext: { late.append($0) }).disposed(by: bag)
        #expect(late == [true])
    }

    @Test func pollingRunsOnlyWhileTheScreenIsVisible() {
        let log = LifecycleLog()
        let list = LoggingScreen("list", log: log)
        let navigation = NavigationController(rootViewController: list)
        let ticks = PublishSubject<Int>()
        var polled: [Int] = []
        let bag = DisposeBag()
        list.rx.isVisible
            .flatMapLatest { $0 ? ticks.asObservable() : Observable.empty() }
            .subscribe(onNext: { polled.append($0) })
            .disposed(by: bag)
        ticks.onNext(1)                                   // not shown yet
        Headless.show(navigation)
        ticks.onNext(2)
        navigation.pushViewController(LoggingScreen("detail", log: log))
        ticks.onNext(3)                                   // covered
        navigation.popViewController()
        ticks.onNext(4)
        #expect(polled == [2, 4])
    }

    @Test func theEventsCompleteWhenTheScreenGoesAway() {
        var completed = false
        var screen: ViewController? = ViewController()
        let subscription = screen!.rx.viewDidAppear.subscribe(onCompleted: { completed = true })
        screen = nil
        #expect(completed)
        subscription.dispose()
    }
}
