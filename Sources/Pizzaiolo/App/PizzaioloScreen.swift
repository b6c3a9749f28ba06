import Foundation
import HeadlessUI
import Streams

/// A Pizzaiolo screen: a navigation bar with the cart badge (shown only when the cart holds
/// something), an error line (shown when a tap that changes the store failed), then the
/// screen's content. Every badge binds the app's one ``PizzaioloApp/cartCount``.
open class PizzaioloScreen: ViewController {
    /// The app the screen belongs to.
    public private(set) weak var app: PizzaioloApp?
    /// The cart badge of the navigation bar: `Cart (2)`; hidden while the cart is empty.
    public let cartBadge = Button(title: "Cart")
    /// Why the last tap that changes the store failed; hidden until one does, and again after
    /// the next one succeeds.
    public let errorLabel = Label()

    /// Creates a screen of `app`.
    public init(app: PizzaioloApp, title: String) {
        self.app = app
        super.init()
        self.title = title
    }

    open override func viewDidLoad() {
        cartBadge.accessibilityIdentifier = "cart-badge"
        errorLabel.accessibilityIdentifier = "error"
        errorLabel.isHidden = true
        view.addSubview(cartBadge)
        view.addSubview(errorLabel)
        guard let app else { return }
        app.cartCount.drive(cartBadge.rx.cartCount).disposed(by: disposeBag)
        cartBadge.rx.tap.bind(to: app.rx.openCart).disposed(by: disposeBag)
    }

    /// Shows each message of `errors` in ``errorLabel``; `nil` hides it.
    ///
    /// - Parameter errors: A view model's error output.
    public func showErrors(_ errors: Driver<String?>) {
        errors.drive(errorLabel.rx.text).disposed(by: disposeBag)
        errors.map { $0 == nil }.drive(errorLabel.rx.isHidden).disposed(by: disposeBag)
    }
}

extension Reactive where Base: Button {
    /// Shows a count of pizzas on the cart badge: `Cart (2)`, hidden at zero.
    var cartCount: Binder<Int> {
        Binder(base) { badge, count in
            badge.title = "Cart (\(count))"
            badge.isHidden = count == 0
        }
    }
}
