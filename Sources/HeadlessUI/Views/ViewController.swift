import Streams

/// A screen: a root view, a title, and a dispose bag for its bindings, released with it.
///
/// Subclasses build their views and bindings in ``viewDidLoad()``, called the first time
/// ``view`` is read.
@MainActor
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
