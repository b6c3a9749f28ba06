import Foundation
import HeadlessUI
import ObjectStore
import Repository
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

/// An ``HeadlessUI/Action`` for a tap that writes to the store: `body` runs on each execution
/// and its error, if it throws, is the action's error (shown by the screen, never dropped).
///
/// - Parameter body: The write.
/// - Returns: The action.
func storeAction<Input>(_ body: @escaping (Input) throws -> Void) -> Action<Input, Void> {
    Action { input in
        Observable.deferred {
            try body(input)
            return .just(())
        }
    }
}

/// Runs a store write and says how it went, for a screen's error line: `nil` when it worked,
/// `what` and the error when it threw.
///
///     storeWrite("Could not add the pizza") { try cart.add(page) }   // nil, or "Could not add the pizza: …"
///
/// - Parameters:
///   - what: What failed, e.g. `"Could not add the pizza"`.
///   - body: The write.
/// - Returns: The message, or `nil`.
func storeWrite(_ what: String, _ body: () throws -> Void) -> String? {
    do {
        try body()
        return nil
    } catch {
        return "\(what): \(error)"
    }
}

/// The error line of a screen whose taps run `actions`: a message after a failure (`what`,
/// then the error), `nil` after the next success.
///
/// - Parameter actions: Each action with what it does, e.g. `"Could not add the pizza"`.
/// - Returns: The messages, on the main scheduler.
func errorMessages(_ actions: [(what: String, failures: Observable<Error>, successes: Observable<Void>)]) -> Driver<String?> {
    Observable.merge(actions.flatMap { action in
        [action.failures.map { Optional("\(action.what): \($0)") }, action.successes.map { nil }]
    })
    .startWith(nil)
    .asDriver(onErrorJustReturn: nil)
}

extension Action {
    /// This action's failures and successes, as ``errorMessages(_:)`` takes them.
    ///
    /// - Parameter what: What the action does when it fails, e.g. `"Could not add the pizza"`.
    func reporting(_ what: String) -> (what: String, failures: Observable<Error>, successes: Observable<Void>) {
        (what, underlyingError, elements.map { _ in })
    }
}
