import Streams

/// A single-line text field; ``type(_:)`` simulates the user typing.
///
/// As in UIKit, setting ``text`` in code sends no event; typing sends `.editingChanged`
/// for each character, so `rx.text` sees user edits and its own current value.
@MainActor
open class TextField: Control {
    /// The text; `""` when empty.
    public var text: String? = ""
    /// The placeholder shown while the text is empty.
    public var placeholder: String?
    /// Whether the field is being edited: it is the first responder of its view hierarchy
    /// (only one field is at a time; see ``View/becomeFirstResponder()``).
    public var isEditing: Bool { isFirstResponder }
    /// The colour of the text; `nil` for the default colour. ``View/render()`` shows a colour that
    /// is set.
    public var textColor: Color?
    /// Whether the text is shown as dots in ``View/render()``.
    public var isSecureTextEntry = false

    /// Creates a text field.
    ///
    /// - Parameters:
    ///   - text: The initial text.
    ///   - placeholder: The placeholder.
    public init(text: String? = "", placeholder: String? = nil) {
        self.text = text
        self.placeholder = placeholder
        super.init()
    }

    /// `true` while the field accepts input: ``View/becomeFirstResponder()`` then begins editing
    /// (`.editingDidBegin`), and ends the editing of the previous first responder.
    open override var canBecomeFirstResponder: Bool { acceptsInput }

    override func didBecomeFirstResponder() {
        sendActions(for: .editingDidBegin)
    }

    override func didResignFirstResponder() {
        sendActions(for: .editingDidEnd)
    }

    /// Simulates typing `string`, one `.editingChanged` per character; begins editing first
    /// (the field becomes first responder, and the one that was ends editing).
    ///
    /// - Parameter string: The characters typed.
    public func type(_ string: String) {
        guard becomeFirstResponder() else { return }
        for character in string {
            text = (text ?? "") + String(character)
            sendActions(for: [.editingChanged, .valueChanged])
        }
    }

    /// Simulates deleting `count` characters from the end.
    ///
    /// - Parameter count: How many characters to delete.
    public func deleteBackward(_ count: Int = 1) {
        guard becomeFirstResponder() else { return }
        for _ in 0..<count where !(text ?? "").isEmpty {
            text = String((text ?? "").dropLast())
            sendActions(for: [.editingChanged, .valueChanged])
        }
    }

    /// Simulates selecting all the text and deleting it.
    public func clear() {
        guard becomeFirstResponder() else { return }
        text = ""
        sendActions(for: [.editingChanged, .valueChanged])
    }

    /// Simulates the return key: `.editingDidEndOnExit`, then ends editing.
    public func pressReturn() {
        guard isEditing else { return }
        sendActions(for: .editingDidEndOnExit)
        resignFirstResponder()
    }

    /// `TextField "text"`, or the placeholder when empty.
    open override var renderDescription: String {
        let current = text ?? ""
        let shown: String
        if current.isEmpty, let placeholder {
            shown = "(\(placeholder))"
        } else {
            shown = "\"\(isSecureTextEntry ? String(repeating: "•", count: current.count) : current)\""
        }
        let color = textColor.map { " (\($0))" } ?? ""
        return "\(typeName) \(shown)\(color)\(isEditing ? " (editing)" : "")\(stateSuffix)\(accessibilitySuffix)"
    }
}

@MainActor
extension Reactive where Base: TextField {
    /// The text, two-way: the current text then each user edit; setting it changes the field.
    public var text: ControlProperty<String?> { value }

    /// The text, two-way (RxCocoa's `value`).
    public var value: ControlProperty<String?> {
        controlProperty(editingEvents: [.allEditingEvents, .valueChanged], getter: { $0.text }, setter: { field, text in
            if field.text != text { field.text = text }
        })
    }

    /// Binds the placeholder.
    public var placeholder: Binder<String?> { Binder(base) { $0.placeholder = $1 } }

    /// Binds the colour of the field's text.
    public var textColor: Binder<Color?> { Binder(base) { $0.textColor = $1 } }
}
