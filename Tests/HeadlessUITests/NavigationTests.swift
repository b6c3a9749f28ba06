import Foundation
import HeadlessUI
import Streams
import TestSupport
import Testing

final class MenuScreen: ViewController {
    let pizzas: Observable<[String]>
    let table = TableView(height: 132)
    let order = Button(title: "Order")
    var orders = 0

    init(pizzas: Observable<[String]>) {
        self.pizzas = pizzas
        super.init()
        title = "Menu"
    }

    override func viewDidLoad() {
        view.addSubview(table)
        view.addSubview(order)
        table.register(TableViewCell.self, forCellReuseIdentifier: "Cell")
        pizzas.bind(to: table.rx.items(cellIdentifier: "Cell", cellType: TableViewCell.self)) { _, name, cell in
            cell.textLabel?.text = name
        }.disposed(by: disposeBag)
        order.rx.tap.subscribe(onNext: { [weak self] in self?.orders += 1 }).disposed(by: disposeBag)
        pizzas.map { !$0.isEmpty }.bind(to: order.rx.isEnabled).disposed(by: disposeBag)
    }
}

@MainActor @Suite(.resourceCheck) struct NavigationTests {
    @Test func pushRenderAndPopReleasesTheScreensResources() {
        let baseline = Resources.total
        let navigation = Headless.run { NavigationController(rootViewController: ViewController()) }
        navigation.viewControllers[0].title = "Home"
        let pizzas = BehaviorSubject(value: ["Margherita", "Marinara"])
        weak var weakMenu: MenuScreen?
        Headless.run {
            let menu = MenuScreen(pizzas: pizzas.asObservable())
            weakMenu = menu
            navigation.pushViewController(menu)
        }
        #expect(Resources.total > baseline)
        #expect(navigation.render() == """
        <Home > Menu>
        == Menu ==
        View
          TableView 2 rows, offset 0
            TableViewCell [0,0]
              Label "Margherita"
            TableViewCell [0,1]
              Label "Marinara"
          Button [Order]
        """)
        weakMenu?.order.tap()
        #expect(weakMenu?.orders == 1)
        Headless.run { _ = navigation.popViewController() }
        #expect(weakMenu == nil)
        #expect(Resources.total == baseline)
        #expect(navigation.topViewController?.title == "Home")
    }

    @Test func presentAndDismissAnAlert() {
        let home = ViewController()
        home.title = "Home"
        var retried = 0
        let alert = AlertController(title: "Network error", message: "Try again?")
        alert.addAction(AlertAction(title: "Cancel", style: .cancel))
        alert.addAction(AlertAction(title: "Retry") { _ in retried += 1 })
        home.present(alert)
        #expect(home.render() == """
        == Home ==
        View
        == Network error ==
        Alert "Network error" "Try again?" [Cancel](cancel) [Retry]
        """)
        #expect(alert.tapAction(titled: "Retry"))
        #expect(retried == 1)
        #expect(home.presentedViewController == nil)
        #expect(!alert.tapAction(titled: "Nope"))
    }

    @Test func popToRoot() {
        let navigation = NavigationController(rootViewController: ViewController())
        navigation.pushViewController(ViewController())
        navigation.pushViewController(ViewController())
        #expect(navigation.popToRootViewController().count == 2)
        #expect(navigation.popViewController() == nil)
        #expect(navigation.viewControllers.count == 1)
    }
}
