import Streams

/// A stack of screens (UIKit's `UINavigationController`); the top one is shown, and while the
/// stack is on screen a push makes the previous top disappear and the new one appear, a pop the
/// reverse (see ``ViewController`` for the appearance methods).
@MainActor
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
        let covered = topViewController
        viewController.navigationController = self
        viewControllers.append(viewController)
        _ = viewController.view
        guard isVisible else { return }
        covered?.disappear()
        viewController.appear()
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
        if isVisible {
            popped.disappear()
            topViewController?.appear()
        }
        return popped
    }

    /// Removes every screen above the root.
    ///
    /// - Parameter animated: Ignored.
    /// - Returns: The removed screens.
    @discardableResult
    public func popToRootViewController(animated: Bool = false) -> [ViewController] {
        guard viewControllers.count > 1 else { return [] }
        let popped = Array(viewControllers.dropFirst())
        viewControllers.removeSubrange(1...)
        for screen in popped { screen.navigationController = nil }
        if isVisible {
            popped.last?.disappear()           // only the shown one disappears, as in UIKit
            topViewController?.appear()
        }
        return popped
    }

    /// The top screen: a stack shows it while the stack is on screen.
    override var shownChildren: [ViewController] { topViewController.map { [$0] } ?? [] }

    /// The stack as text: the titles as a path, then the top screen.
    public override func render() -> String {
        let path = viewControllers.map { $0.title ?? String(describing: type(of: $0)) }.joined(separator: " > ")
        var text = "<\(path)>"
        if let top = topViewController { text += "\n" + top.render() }
        if let presentedViewController { text += "\n" + presentedViewController.render() }
        return text
    }
}
