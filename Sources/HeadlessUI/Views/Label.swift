import Streams

/// A line of text.
///
///     Label(text: "Margherita").render()  // Label "Margherita"
@MainActor
open class Label: View {
    /// The text shown; `nil` renders as an empty label.
    public var text: String?
    /// The colour of the text; `nil` for the default colour. ``View/render()`` shows a colour that
    /// is set: `Label "Taken" (red)`.
    public var textColor: Color?

    /// Creates a label.
    ///
    /// - Parameter text: The initial text.
    public init(text: String? = nil) {
        self.text = text
        super.init()
    }

    /// `Label "text"`, then the text colour when one is set.
    open override var renderDescription: String {
        "\(typeName) \"\(text ?? "")\"\(textColor.map { " (\($0))" } ?? "")\(accessibilitySuffix)"
    }
}

@MainActor
extension Reactive where Base: Label {
    /// Binds the label's text.
    public var text: Binder<String?> { Binder(base) { $0.text = $1 } }

    /// Binds the colour of the label's text.
    public var textColor: Binder<Color?> { Binder(base) { $0.textColor = $1 } }
}
