import Streams

/// An alert with buttons (UIKit's `UIAlertController` in `.alert` style).
@MainActor
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
@MainActor
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

@MainActor
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
