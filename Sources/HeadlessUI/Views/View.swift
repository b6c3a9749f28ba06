import Streams

/// A headless view: a plain object with bindable state, a tree of subviews and a text
/// picture of itself (``render()``).
///
/// Views are isolated to the main actor, as UIKit's are: they change there only, and a
/// `Binder` into a view runs its update there.
///
///     let view = View()
///     view.addSubview(Label(text: "Margherita"))
///     print(view.render())
///     // View
///     //   Label "Margherita"
@MainActor
open class View: ReactiveCompatible {
    /// Whether the view (and its subviews) is hidden; hidden views are not rendered.
    public var isHidden = false
    /// The opacity, from 0 to 1.
    public var alpha: Double = 1
    /// Whether the view receives taps; a tap on a view that does not is ignored.
    public var isUserInteractionEnabled = true
    /// The label read by assistive technologies; shown by ``render()`` when set.
    public var accessibilityLabel: String?
    /// An identifier for finding the view in tests (``view(withAccessibilityIdentifier:)``).
    public var accessibilityIdentifier: String?
    /// A view shown behind the content, e.g. a table's loading or error view.
    public var backgroundView: View? {
        didSet {
            oldValue?.superview = nil
            backgroundView?.superview = self
        }
    }
    /// The child views, back to front.
    public private(set) var subviews: [View] = []
    /// The view this one is a child of.
    public internal(set) weak var superview: View?
    /// On the root of a hierarchy, its first responder (see `View+FirstResponder.swift`).
    weak var firstResponderOfHierarchy: View?
    /// The gesture recognizers attached (see `GestureRecognizer.swift`).
    var attachedGestureRecognizers: [GestureRecognizer] = []

    /// Creates an empty, visible view.
    public init() {}

    /// Whether this view can become first responder (see ``becomeFirstResponder()``): `true`
    /// for a ``TextField`` that accepts input, `false` for other views.
    open var canBecomeFirstResponder: Bool { false }

    /// Called when the view has become first responder.
    func didBecomeFirstResponder() {}

    /// Called when the view has stopped being first responder.
    func didResignFirstResponder() {}

    /// Adds `view` as the front-most child, removing it from its previous parent.
    ///
    /// - Parameter view: The view to add.
    public func addSubview(_ view: View) {
        view.removeFromSuperview()
        subviews.append(view)
        view.superview = self
        adoptFirstResponder(of: view)
    }

    /// Removes the view from its parent.
    public func removeFromSuperview() {
        guard let parent = superview else { return }
        resignFirstResponderLeaving()
        parent.subviews.removeAll { $0 === self }
        if parent.backgroundView === self { parent.backgroundView = nil }
        superview = nil
    }

    /// Whether the view and all its ancestors are visible and accept taps.
    public var isInteractive: Bool { interactionRefusal == nil }

    /// Why simulated input does not reach the view, or `nil` when it does: the first view, from
    /// this one up through its ancestors, that is hidden, transparent (alpha at most 0.01) or has
    /// user interaction disabled, and which of those it is — `"View \"list\" is hidden"`. A
    /// control adds being disabled (``Control/isEnabled``). A `tap()` that returns `false` says
    /// why here.
    open var inputRefusal: String? { interactionRefusal }

    /// The part of ``inputRefusal`` every view has, and what ``isInteractive`` reads: the first
    /// view up the tree that is hidden, transparent or not interactive (a string only then).
    final var interactionRefusal: String? {
        var view: View? = self
        while let current = view {
            let reason: String? =
                current.isHidden ? "is hidden"
                : current.alpha <= 0.01 ? "is transparent (alpha \(current.alpha))"
                : !current.isUserInteractionEnabled ? "has user interaction disabled"
                : nil
            if let reason {
                return current === self ? "\(current.refusalName) \(reason)" : "\(current.refusalName), an ancestor, \(reason)"
            }
            view = current.superview
        }
        return nil
    }

    /// The view as a refusal names it: its type, and its accessibility identifier if it has one.
    final var refusalName: String {
        accessibilityIdentifier.map { "\(typeName) \"\($0)\"" } ?? typeName
    }

    /// The first view in this tree (depth first, including self) with the identifier.
    ///
    /// - Parameter identifier: An ``accessibilityIdentifier``.
    /// - Returns: The view, or `nil`.
    public func view(withAccessibilityIdentifier identifier: String) -> View? {
        if accessibilityIdentifier == identifier { return self }
        for child in allChildren {
            if let found = child.view(withAccessibilityIdentifier: identifier) { return found }
        }
        return nil
    }

    /// All views of type `T` in this tree, depth first, including self.
    ///
    /// - Parameter type: The type to look for.
    /// - Returns: The views found, in tree order.
    public func descendants<T: View>(ofType type: T.Type) -> [T] {
        var found: [T] = []
        if let me = self as? T { found.append(me) }
        for child in allChildren { found += child.descendants(ofType: type) }
        return found
    }

    // MARK: Rendering

    /// A deterministic, readable text picture of the view and its visible descendants, one
    /// view per line, indented by depth. Hidden views are left out.
    ///
    /// - Returns: The picture, lines separated by `\n`, without a trailing newline.
    public func render() -> String {
        var lines: [String] = []
        renderLines(into: &lines, depth: 0)
        return lines.joined(separator: "\n")
    }

    /// The line describing this view alone, e.g. `Label "Margherita"`.
    ///
    /// Subclasses override it; the default is the type name, the accessibility identifier
    /// (`#id`) and label when set.
    open var renderDescription: String {
        "\(typeName)\(accessibilitySuffix)"
    }

    /// The children drawn under this view by ``render()``: the background view (when shown)
    /// then the subviews. Containers such as tables override it.
    open var renderedChildren: [View] {
        var children: [View] = []
        if let backgroundView { children.append(backgroundView) }
        return children + subviews
    }

    /// The type's name, as used by ``renderDescription``.
    public var typeName: String { String(describing: type(of: self)) }

    /// ` #identifier` and ` 'label'` when set, for ``renderDescription``.
    public var accessibilitySuffix: String {
        var suffix = ""
        if let accessibilityIdentifier { suffix += " #\(accessibilityIdentifier)" }
        if let accessibilityLabel { suffix += " '\(accessibilityLabel)'" }
        if alpha < 1 { suffix += " alpha=\(formatFraction(alpha))" }
        return suffix
    }

    var allChildren: [View] {
        var children = renderedChildren
        for view in subviews where !children.contains(where: { $0 === view }) { children.append(view) }
        return children
    }

    func renderLines(into lines: inout [String], depth: Int) {
        guard !isHidden else { return }
        lines.append(String(repeating: "  ", count: depth) + renderDescription)
        for child in renderedChildren { child.renderLines(into: &lines, depth: depth + 1) }
    }
}

func formatFraction(_ value: Double) -> String {
    let hundredths = Int((value * 100).rounded())
    let whole = hundredths / 100
    let rest = hundredths % 100
    if rest == 0 { return "\(whole)" }
    return rest % 10 == 0 ? "\(whole).\(rest / 10)" : "\(whole).\(rest < 10 ? "0" : "")\(rest)"
}

@MainActor
extension Reactive where Base: View {
    /// Binds whether the view is hidden.
    public var isHidden: Binder<Bool> { Binder(base) { $0.isHidden = $1 } }
    /// Binds the view's opacity.
    public var alpha: Binder<Double> { Binder(base) { $0.alpha = $1 } }
    /// Binds whether the view receives taps.
    public var isUserInteractionEnabled: Binder<Bool> { Binder(base) { $0.isUserInteractionEnabled = $1 } }
    /// Binds the view's accessibility label.
    public var accessibilityLabel: Binder<String?> { Binder(base) { $0.accessibilityLabel = $1 } }
    /// Binds the view's background view.
    public var backgroundView: Binder<View?> { Binder(base) { $0.backgroundView = $1 } }
}
