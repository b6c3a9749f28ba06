import Streams

/// A line of text.
///
///     Label(text: "Margherita").render()  // Label "Margherita"
open class Label: View {
    /// The text shown; `nil` renders as an empty label.
    public var text: String?

    /// Creates a label.
    ///
    /// - Parameter text: The initial text.
    public init(text: String? = nil) {
        self.text = text
        super.init()
    }

    /// `Label "text"`.
    open override var renderDescription: String {
        "\(typeName) \"\(text ?? "")\"\(accessibilitySuffix)"
    }
}

extension Reactive where Base: Label {
    /// Binds the label's text.
    public var text: Binder<String?> { Binder(base) { $0.text = $1 } }
}
