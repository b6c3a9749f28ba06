import Streams

/// A button: a title, enabled and selected states, and ``tap()`` to simulate the user.
///
///     let order = Button(title: "Order")
///     order.rx.tap.subscribe(onNext: { print("order") })
///     order.tap()   // prints order
///     order.render() // Button [Order]
@MainActor
open class Button: Control {
    /// The title for the normal state.
    public var title: String?
    /// The image shown beside the title.
    public var image: Image?

    /// Creates a button.
    ///
    /// - Parameter title: The title.
    public init(title: String? = nil) {
        self.title = title
        super.init()
    }

    /// Simulates a tap: sends `.touchUpInside` when the button is enabled, visible and
    /// interactive.
    ///
    /// - Returns: `true` when the tap reached the button; when `false`, ``Control/inputRefusal`` says
    ///   why (disabled, hidden, transparent, interaction disabled). Tests check it —
    ///   `#expect(button.tap())` — since a refused tap runs nothing.
    @discardableResult
    public func tap() -> Bool {
        guard acceptsInput else { return false }
        sendActions(for: .touchUpInside)
        onTap?()
        return true
    }

    /// A plain closure called on each tap after the `.touchUpInside` event, for target-action
    /// style code that does not need a subscription.
    public var onTap: (() -> Void)?

    /// UIKit's `setTitle(_:for:)`; there is one state here.
    ///
    /// - Parameter title: The title.
    public func setTitle(_ title: String?) {
        self.title = title
    }

    /// `Button [Title]` with ` (disabled)`/` (selected)`.
    open override var renderDescription: String {
        let imagePart = image.map { " \($0)" } ?? ""
        return "\(typeName) [\(title ?? "")]\(imagePart)\(stateSuffix)\(accessibilitySuffix)"
    }
}

@MainActor
extension Reactive where Base: Button {
    /// The button's taps.
    public var tap: ControlEvent<Void> { controlEvent(.touchUpInside) }
    /// Binds the button's title.
    public var title: Binder<String?> { Binder(base) { $0.title = $1 } }

    /// Binds the button's title (RxCocoa's `title(for:)`; there is one state here).
    ///
    /// - Returns: A binder for the title.
    public func title(for state: Void = ()) -> Binder<String?> { Binder(base) { $0.title = $1 } }
    /// Binds the button's image.
    public var image: Binder<Image?> { Binder(base) { $0.image = $1 } }
}
