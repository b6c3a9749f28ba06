import Streams

/// What a list has to show: the background view of a table or collection follows it.
public enum ListLoadState: Equatable, Sendable {
    /// Nothing loaded yet: a skeleton of a cell.
    case loading
    /// Content is shown; no background view.
    case loaded
    /// The first load failed with nothing to show: an error view with a Retry button.
    case failed(message: String)
}

/// A grey placeholder shaped like a cell, shown while a list loads.
@MainActor
open class SkeletonView: View {
    /// How many placeholder rows it draws.
    public var rows: Int

    /// Creates a skeleton.
    ///
    /// - Parameter rows: Placeholder rows.
    public init(rows: Int = 3) {
        self.rows = rows
        super.init()
        accessibilityLabel = "Loading"
    }

    /// `Skeleton ░░░░░░ ×3`.
    open override var renderDescription: String {
        "\(typeName) ░░░░░░ ×\(rows)\(accessibilitySuffix)"
    }
}

/// The "network error" view: a message and a Retry button.
@MainActor
open class NetworkErrorView: View {
    /// The message.
    public let messageLabel = Label()
    /// The Retry button.
    public let retryButton = Button(title: "Retry")

    /// Creates an error view.
    ///
    /// - Parameter message: The message shown.
    public init(message: String = "Something went wrong") {
        super.init()
        messageLabel.text = message
        addSubview(messageLabel)
        addSubview(retryButton)
    }
}

@MainActor
extension Reactive where Base: NetworkErrorView {
    /// Taps on Retry.
    public var retry: ControlEvent<Void> { retryButton.rx.tap }

    private var retryButton: Button { base.retryButton }
}

@MainActor
extension Reactive where Base: ListView {
    /// Sets the list's background view from a load state: a ``SkeletonView`` while loading, a
    /// ``NetworkErrorView`` when the first load failed, nothing once loaded.
    ///
    /// Taps on Retry reach `retry` and `rx.retry` (the list's own stream of them, for a view
    /// model that takes its inputs when it is made).
    ///
    /// - Parameter retry: Receives taps on Retry.
    /// - Returns: A binder for the state.
    public func loadState<Retry: ObserverType>(retry: Retry) -> Binder<ListLoadState> where Retry.Element == Void {
        let retryObserver = retry.asObserver()
        return Binder(base) { list, state in
            switch state {
            case .loading:
                if !(list.backgroundView is SkeletonView) { list.backgroundView = SkeletonView() }
            case .loaded:
                list.backgroundView = nil
            case .failed(let message):
                let errorView = NetworkErrorView(message: message)
                errorView.retryButton.onTap = { [weak list] in
                    retryObserver.onNext(())
                    list?.retrySubject.onNext(())
                }
                list.backgroundView = errorView
            }
        }
    }

    /// Taps on the Retry button of the error view that ``loadState`` shows, whichever error
    /// view is shown at the time: a view model's retry input.
    ///
    ///     tap Retry:  ----x--------x---
    ///     retry:      ----()-------()--
    public var retry: ControlEvent<Void> { ControlEvent(events: base.retrySubject) }

    /// Sets the list's background view from a load state (see ``loadState(retry:)``); taps on
    /// Retry reach `rx.retry`.
    public var loadState: Binder<ListLoadState> {
        loadState(retry: AnyObserver<Void> { _ in })
    }
}
