import Foundation
import Locking

/// Why an ``Action`` did not produce elements.
///
/// It reads as what a screen can show: `"\(error)"` and `error.localizedDescription` are the
/// underlying error's own description (its `errorDescription` when it is a `LocalizedError`),
/// not `underlyingError(…)`; `String(reflecting: error)` keeps the case for a developer.
///
///     struct EmptyTitle: Error, CustomStringConvertible { var description: String { "a todo needs a title" } }
///     ActionError.underlyingError(EmptyTitle()).localizedDescription   // "a todo needs a title"
public enum ActionError: Error {
    /// The action was executed while disabled (or already executing).
    case notEnabled
    /// The work failed with this error.
    case underlyingError(Error)
}

/// A command: turns an input into work (an observable), one execution at a time, and tells
/// the UI whether it is running and whether it can run (RxSwiftCommunity's `Action`).
///
///     let order = Action<Pizza, Receipt>(enabledIf: cart.isNotEmpty) { pizza in api.order(pizza) }
///     order.elements.subscribe(onNext: { receipt in … })
///     button.rx.bind(to: order, input: pizza)          // taps execute; isEnabled follows
///
/// `isEnabled` is `enabledIf`'s latest value and not executing. Executing a disabled action
/// sends ``ActionError/notEnabled`` on ``errors`` and does no work.
public final class Action<Input, Element>: @unchecked Sendable {
    /// Makes the work for an input.
    public typealias WorkFactory = (Input) -> Observable<Element>

    /// Makes the work for an input.
    public let workFactory: WorkFactory
    /// Elements of every execution.
    public let elements: Observable<Element>
    /// Failures of executions, and attempts to execute while disabled.
    public let errors: Observable<ActionError>
    /// Only the work's own errors.
    public let underlyingError: Observable<Error>
    /// Whether an execution is running; starts with `false`, repeats no value.
    public let isExecuting: Observable<Bool>
    /// Whether the action can execute; repeats no value.
    public let isEnabled: Observable<Bool>
    /// An observer that executes the action for each input.
    ///
    /// The observer holds the action: a subscription bound to it (`bind(to: action.inputs)`)
    /// keeps the action alive until it is disposed, so an action made in `viewDidLoad` and bound
    /// there still runs after `viewDidLoad` returns.
    public var inputs: AnyObserver<Input> {
        AnyObserver { [self] event in
            if case .next(let input) = event { self.execute(input) }
        }
    }

    private let elementsSubject = PublishSubject<Element>()
    private let errorsSubject = PublishSubject<ActionError>()
    private let executingSubject = BehaviorSubject(value: false)
    private let enabledSubject: BehaviorSubject<Bool>
    private let state = Locked(State())
    private let enabledIfSubscription: Disposable

    private struct State {
        var enabledIf = true
        var executing = false
        var execution: Disposable?
        var enabled: Bool { enabledIf && !executing }
    }

    /// Creates an action.
    ///
    /// - Parameters:
    ///   - enabledIf: Whether the action may run; always by default.
    ///   - workFactory: Makes the work for an input.
    public init(enabledIf: Observable<Bool> = Observable.just(true), workFactory: @escaping WorkFactory) {
        self.workFactory = workFactory
        enabledSubject = BehaviorSubject(value: true)
        elements = elementsSubject.asObservable()
        errors = errorsSubject.asObservable()
        underlyingError = errorsSubject.asObservable().filter {
            if case .underlyingError = $0 { return true }
            return false
        }.map {
            if case .underlyingError(let error) = $0 { return error }
            return ActionError.notEnabled
        }
        isExecuting = executingSubject.distinctUntilChanged()
        isEnabled = enabledSubject.distinctUntilChanged()
        let state = self.state
        let enabledSubject = self.enabledSubject
        enabledIfSubscription = enabledIf.subscribe(onNext: { enabled in
            let now = state.withLock { state -> Bool in
                state.enabledIf = enabled
                return state.enabled
            }
            enabledSubject.onNext(now)
        })
    }

    deinit {
        enabledIfSubscription.dispose()
        state.withLock { $0.execution }?.dispose()
        elementsSubject.onCompleted()
        errorsSubject.onCompleted()
        executingSubject.onCompleted()
        enabledSubject.onCompleted()
    }

    /// Runs the work for `value` unless the action is disabled or already running.
    ///
    /// - Parameter value: The input.
    /// - Returns: This execution's elements (replayed to late subscribers), or an error
    ///   ``ActionError/notEnabled``.
    @discardableResult
    public func execute(_ value: Input) -> Observable<Element> {
        let started = state.withLock { state -> Bool in
            guard state.enabled else { return false }
            state.executing = true
            return true
        }
        guard started else {
            errorsSubject.onNext(.notEnabled)
            return Observable.error(ActionError.notEnabled)
        }
        executingSubject.onNext(true)
        enabledSubject.onNext(false)
        let execution = ReplaySubject<Element>.createUnbounded()
        let subscription = SingleAssignmentDisposable()
        state.withLock { $0.execution = subscription }
        let workFactory = self.workFactory
        let work = Observable.deferred { workFactory(value) }
        subscription.setDisposable(work.subscribe(
            onNext: { [weak self] element in
                self?.elementsSubject.onNext(element)
                execution.onNext(element)
            },
            onError: { [weak self] error in
                self?.finish()
                self?.errorsSubject.onNext(.underlyingError(error))
                execution.onError(error)
            },
            onCompleted: { [weak self] in
                self?.finish()
                execution.onCompleted()
            }
        ))
        return execution.asObservable()
    }

    private func finish() {
        let enabled = state.withLock { state -> Bool in
            state.executing = false
            state.execution = nil
            return state.enabled
        }
        executingSubject.onNext(false)
        enabledSubject.onNext(enabled)
    }
}

extension ActionError: CustomStringConvertible, CustomDebugStringConvertible, LocalizedError {
    /// What a screen can show: the underlying error's description, or, for ``notEnabled``,
    /// "the action is not enabled".
    public var description: String {
        switch self {
        case .notEnabled:
            return "the action is not enabled"
        case .underlyingError(let error):
            if let localized = error as? LocalizedError, let text = localized.errorDescription { return text }
            if type(of: error) is NSError.Type { return error.localizedDescription }
            return String(describing: error)
        }
    }

    /// The same text as ``description``, so that `localizedDescription` reads well.
    public var errorDescription: String? { description }

    /// The case and the underlying error as a developer reads them, e.g.
    /// `underlyingError(no Todo with primary key 7)`: what `String(reflecting:)` and `dump` show.
    public var debugDescription: String {
        switch self {
        case .notEnabled: return "notEnabled"
        case .underlyingError(let error): return "underlyingError(\(String(reflecting: error)))"
        }
    }
}
