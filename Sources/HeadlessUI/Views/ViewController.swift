import Streams

/// A screen: a root view, a title, and a dispose bag for its bindings, released with it.
///
/// Subclasses build their views and bindings in ``viewDidLoad()``, called the first time
/// ``view`` is read.
open class ViewController: ReactiveCompatible {
    /// The screen's title, shown by navigation.
    public var title: String?
    /// The bindings of the screen; disposed when the screen is deallocated.
    public var disposeBag = DisposeBag()
    /// The navigation stack showing this screen, if any.
    public internal(set) weak var navigationController: NavigationController?
    /// The screen presented modally over this one.
    public internal(set) var presentedViewController: ViewController?
    /// The screen that presented this one.
    public internal(set) weak var presentingViewController: ViewController?

    private var loadedView: View?

    /// Creates a screen; its view is made lazily.
    public init() {}

    /// The root view, loaded (``loadView()`` then ``viewDidLoad()``) on first access.
    public var view: View {
        if let loadedView { return loadedView }
        let view = loadView()
        loadedView = view
        viewDidLoad()
        return view
    }

    /// Whether the view was loaded.
    public var isViewLoaded: Bool { loadedView != nil }

    /// Makes the root view; a plain ``View`` by default.
    ///
    /// - Returns: The root view.
    open func loadView() -> View { View() }

    /// Called once after the view is loaded: build subviews and bindings here.
    open func viewDidLoad() {}

    /// Presents `viewController` modally over this screen.
    ///
    /// - Parameters:
    ///   - viewController: The screen to show.
    ///   - animated: Ignored.
    public func present(_ viewController: ViewController, animated: Bool = false) {
        precondition(presentedViewController == nil, "\(type(of: self)) is already presenting \(type(of: presentedViewController!))")
        presentedViewController = viewController
        viewController.presentingViewController = self
        _ = viewController.view
    }

    /// Dismisses the screen presented by this one (or this one, if it was presented).
    ///
    /// - Parameter animated: Ignored.
    public func dismiss(animated: Bool = false) {
        if let presented = presentedViewController {
            presented.presentingViewController = nil
            presentedViewController = nil
        } else if let presenting = presentingViewController {
            presenting.dismiss(animated: animated)
        }
    }

    /// The screen as text: the title, the view, then the presented screen.
    ///
    /// - Returns: The picture.
    public func render() -> String {
        var text = "== \(title ?? String(describing: type(of: self))) =="
        text += "\n" + view.render()
        if let presentedViewController { text += "\n" + presentedViewController.render() }
        return text
    }
}

/// A stack of screens (UIKit's `UINavigationController`); the top one is shown.
open class NavigationController: ViewController {
    /// The screens, root first.
    public private(set) var viewControllers: [ViewController] = []

    /// Creates a stack with `rootViewController` at the bottom.
    ///
    /// - Parameter rootViewController: The first screen.
    public init(rootViewController: ViewController) {
        super.init()
        pushViewController(rootViewController)
    }

    /// The screen shown.
    public var topViewController: ViewController? { viewControllers.last }

    /// Shows `viewController` on top.
    ///
    /// - Parameters:
    ///   - viewController: The screen.
    ///   - animated: Ignored.
    public func pushViewController(_ viewController: ViewController, animated: Bool = false) {
        viewController.navigationController = self
        viewControllers.append(viewController)
        _ = viewController.view
    }

    /// Removes the top screen (never the root).
    ///
    /// - Parameter animated: Ignored.
    /// - Returns: The removed screen.
    @discardableResult
    public func popViewController(animated: Bool = false) -> ViewController? {
        guard viewControllers.count > 1 else { return nil }
        let popped = viewControllers.removeLast()
        popped.navigationController = nil
        return popped
    }

    /// Removes every screen above the root.
    ///
    /// - Parameter animated: Ignored.
    /// - Returns: The removed screens.
    @discardableResult
    public func popToRootViewController(animated: Bool = false) -> [ViewController] {
        var popped: [ViewController] = []
        while let screen = popViewController() { popped.insert(screen, at: 0) }
        return popped
    }

    /// The stack as text: the titles as a path, then the top screen.
    public override func render() -> String {
        let path = viewControllers.map { $0.title ?? String(describing: type(of: $0)) }.joined(separator: " > ")
        var text = "<\(path)>"
        if let top = topViewController { text += "\n" + top.render() }
        if let presentedViewController { text += "\n" + presentedViewController.render() }
        return text
    }
}

/// An alert with buttons (UIKit's `UIAlertController` in `.alert` style).
open class AlertController: ViewController {
    /// The message under the title.
    public var message: String?
    /// The buttons, in order.
    public private(set) var actions: [AlertAction] = []

    /// Creates an alert.
    ///
    /// - Parameters:
    ///   - title: The title.
    ///   - message: The message.
    public init(title: String?, message: String?) {
        self.message = message
        super.init()
        self.title = title
    }

    /// Adds a button.
    ///
    /// - Parameter action: The button.
    public func addAction(_ action: AlertAction) { actions.append(action) }

    /// Simulates tapping the button titled `title`: dismisses the alert, then runs the handler.
    ///
    /// - Parameter title: The button's title.
    /// - Returns: `true` when such a button exists.
    @discardableResult
    public func tapAction(titled title: String) -> Bool {
        guard let action = actions.first(where: { $0.title == title }), action.isEnabled else { return false }
        dismiss()
        action.handler?(action)
        return true
    }

    /// `Alert "title"`, the message and the buttons.
    open override func loadView() -> View { AlertView(alert: self) }
}

/// A button of an ``AlertController``.
public final class AlertAction {
    /// The kind of button.
    public enum Style: Sendable {
        /// A normal button.
        case `default`
        /// The cancel button.
        case cancel
        /// A destructive button.
        case destructive
    }

    /// The title.
    public let title: String
    /// The kind.
    public let style: Style
    /// Whether it can be tapped.
    public var isEnabled = true
    let handler: ((AlertAction) -> Void)?

    /// Creates a button.
    ///
    /// - Parameters:
    ///   - title: The title.
    ///   - style: The kind.
    ///   - handler: Called after the alert is dismissed by this button.
    public init(title: String, style: Style = .default, handler: ((AlertAction) -> Void)? = nil) {
        self.title = title
        self.style = style
        self.handler = handler
    }
}

final class AlertView: View {
    private weak var alert: AlertController?

    init(alert: AlertController) {
        self.alert = alert
        super.init()
    }

    override var renderDescription: String {
        guard let alert else { return "Alert" }
        var text = "Alert \"\(alert.title ?? "")\""
        if let message = alert.message { text += " \"\(message)\"" }
        let buttons = alert.actions.map { "[\($0.title)]\($0.style == .cancel ? "(cancel)" : $0.style == .destructive ? "(destructive)" : "")" }
        if !buttons.isEmpty { text += " " + buttons.joined(separator: " ") }
        return text
    }
}
