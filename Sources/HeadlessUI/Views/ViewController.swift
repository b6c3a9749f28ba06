import Streams

/// A screen: a root view, a title, and a dispose bag for its bindings, released with it.
///
/// Subclasses build their views and bindings in ``viewDidLoad()``, called the first time
/// ``view`` is read.
///
/// A screen appears and disappears as UIKit's do: ``viewWillAppear(_:)`` and
/// ``viewDidAppear(_:)`` when it comes on screen, ``viewWillDisappear(_:)`` and
/// ``viewDidDisappear(_:)`` when it leaves or is covered. The root screen is on screen once
/// ``Headless/show(_:)`` shows it (a window's root view controller); from there a
/// ``NavigationController`` shows its top screen (a push covers the previous top, a pop
/// uncovers it), and a presented screen appears over its presenter, which disappears under a
/// ``ModalPresentationStyle/fullScreen`` presentation and stays on screen under a
/// ``ModalPresentationStyle/pageSheet`` one (UIKit's default since iOS 13). A screen that is
/// never shown, or pushed onto a stack that is not, never appears. The `rx` forms
/// (`screen.rx.viewWillAppear`, `rx.isVisible`) are the RxViewController ones.
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

    /// How this screen, when presented, covers its presenter (UIKit's
    /// `modalPresentationStyle`, set on the presented screen): a page sheet by default, under
    /// which the presenter stays on screen; full screen makes the presenter disappear.
    public var modalPresentationStyle: ModalPresentationStyle = .pageSheet

    /// Whether the screen is on screen: between ``viewWillAppear(_:)`` and
    /// ``viewWillDisappear(_:)``, as UIKit's `viewIfLoaded?.window != nil` reads.
    public private(set) var isVisible = false

    private var loadedView: View?
    private let lifecycleEvents = PublishSubject<Lifecycle>()

    /// Creates a screen; its view is made lazily.
    public init() {}

    deinit { lifecycleEvents.onCompleted() }

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

    /// Called before the screen comes on screen (see the type's discussion for when).
    ///
    /// - Parameter animated: Whether the transition is animated; `false` here.
    open func viewWillAppear(_ animated: Bool) {}

    /// Called after the screen came on screen.
    ///
    /// - Parameter animated: Whether the transition was animated; `false` here.
    open func viewDidAppear(_ animated: Bool) {}

    /// Called before the screen leaves the screen or is covered.
    ///
    /// - Parameter animated: Whether the transition is animated; `false` here.
    open func viewWillDisappear(_ animated: Bool) {}

    /// Called after the screen left the screen or was covered.
    ///
    /// - Parameter animated: Whether the transition was animated; `false` here.
    open func viewDidDisappear(_ animated: Bool) {}

    /// The screens this one shows while it is on screen (a stack's top screen), whose
    /// appearance follows this one's. A plain screen shows none.
    var shownChildren: [ViewController] { [] }

    /// Brings the screen and what it shows on screen, then what it presents; under a
    /// full-screen presentation only the presented screen. Nothing for what is already visible.
    func appear() {
        if let presented = presentedViewController, presented.modalPresentationStyle == .fullScreen {
            presented.appear()
            return
        }
        appearSelf()
        presentedViewController?.appear()
    }

    /// Takes what the screen presents, then the screen and what it shows, off screen.
    func disappear() {
        presentedViewController?.disappear()
        disappearSelf()
    }

    /// Will, shown children, did: this screen and what it shows, not what it presents.
    private func appearSelf() {
        guard !isVisible else { return }
        _ = view
        isVisible = true
        viewWillAppear(false)
        lifecycleEvents.onNext(.willAppear)
        for child in shownChildren { child.appear() }
        viewDidAppear(false)
        lifecycleEvents.onNext(.didAppear)
    }

    private func disappearSelf() {
        guard isVisible else { return }
        isVisible = false
        viewWillDisappear(false)
        lifecycleEvents.onNext(.willDisappear)
        for child in shownChildren { child.disappear() }
        viewDidDisappear(false)
        lifecycleEvents.onNext(.didDisappear)
    }

    /// The appearance events, for the `rx` forms; complete when the screen is deallocated.
    var lifecycle: Observable<Lifecycle> { lifecycleEvents.asObservable() }

    /// One appearance event.
    enum Lifecycle {
        case willAppear, didAppear, willDisappear, didDisappear
    }

    /// Presents `viewController` modally over this screen.
    ///
    /// - Parameters:
    ///   - viewController: The screen to show.
    ///   - animated: Ignored.
    public func present(_ viewController: ViewController, animated: Bool = false) {
        precondition(presentedViewController == nil, "\(type(of: self)) is already presenting \(type(of: presentedViewController!))")
        let shown = isVisible
        presentedViewController = viewController
        viewController.presentingViewController = self
        _ = viewController.view
        guard shown else { return }
        if viewController.modalPresentationStyle == .fullScreen { disappearSelf() }
        viewController.appear()
    }

    /// Dismisses the screen presented by this one (or this one, if it was presented).
    ///
    /// - Parameter animated: Ignored.
    public func dismiss(animated: Bool = false) {
        if let presented = presentedViewController {
            let shown = presented.isVisible
            presented.disappear()
            presented.presentingViewController = nil
            presentedViewController = nil
            if shown { appearSelf() }
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

/// How a presented screen covers the one that presented it (UIKit's `UIModalPresentationStyle`,
/// the two cases that decide appearance).
public enum ModalPresentationStyle: Sendable {
    /// Covers the presenter entirely: the presenter disappears until the dismissal.
    case fullScreen
    /// A card over the presenter, which stays on screen (UIKit's `.automatic` since iOS 13).
    case pageSheet
}
