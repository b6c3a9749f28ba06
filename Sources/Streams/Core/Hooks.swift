import Foundation
import Synchronization
import Locking

/// Global hooks, as RxSwift's `Hooks`: where an error nobody handles goes, and whether the
/// subscription's call stack goes with it.
///
///     Hooks.recordCallStackOnError = true
///     Hooks.defaultErrorHandler = { callStack, error in
///         print("unhandled \(error), subscribed at:", callStack.joined(separator: "\n"))
///     }
public enum Hooks {
    /// Receives an error that reached `subscribe` without an error handler, with the call stack
    /// captured when that subscription was made (empty unless ``recordCallStackOnError``).
    public typealias DefaultErrorHandler = @Sendable (_ subscriptionCallStack: [String], _ error: Swift.Error) -> Void
    /// Receives the description of a programming error, with the file and line that reported it.
    public typealias ProgrammingErrorHandler = @Sendable (_ message: String, _ file: StaticString, _ line: UInt) -> Void
    /// Captures a call stack for ``defaultErrorHandler``.
    public typealias CustomCaptureSubscriptionCallstack = @Sendable () -> [String]

    private struct State {
        var defaultErrorHandler: DefaultErrorHandler = { callStack, error in
            #if DEBUG
            print("Unhandled error happened: \(error)")
            if !callStack.isEmpty { print("subscription called from:\n" + callStack.joined(separator: "\n")) }
            #endif
        }
        var customCaptureSubscriptionCallstack: CustomCaptureSubscriptionCallstack = { Thread.callStackSymbols }
        var recordCallStackOnError = false
        var programmingErrorHandler: ProgrammingErrorHandler = Hooks.defaultProgrammingErrorHandler
    }

    private static let state = Locked(State())

    /// Called for an error that reaches `subscribe(onNext:…)` (or a trait's `subscribe`)
    /// without an error handler. By default it prints the error in debug builds.
    public static var defaultErrorHandler: DefaultErrorHandler {
        get { state.withLock { $0.defaultErrorHandler } }
        set { state.withLock { $0.defaultErrorHandler = newValue } }
    }

    /// How a subscription's call stack is captured when ``recordCallStackOnError`` is on
    /// (`Thread.callStackSymbols` by default).
    public static var customCaptureSubscriptionCallstack: CustomCaptureSubscriptionCallstack {
        get { state.withLock { $0.customCaptureSubscriptionCallstack } }
        set { state.withLock { $0.customCaptureSubscriptionCallstack = newValue } }
    }

    /// Whether `subscribe` without an error handler captures its call stack, for
    /// ``defaultErrorHandler`` (off by default: capturing costs time at every subscribe).
    public static var recordCallStackOnError: Bool {
        get { state.withLock { $0.recordCallStackOnError } }
        set {
            state.withLock {
                $0.recordCallStackOnError = newValue
                isRecordingCallStacks.store(newValue, ordering: .relaxed)
            }
        }
    }

    /// ``recordCallStackOnError``, readable without the lock: every `subscribe` without an error
    /// handler asks it.
    private static let isRecordingCallStacks = Atomic<Bool>(false)

    /// Called when an error reaches something that cannot take one: a sequence bound to a relay
    /// with `bind(to:)` that fails, or an ``Infallible`` that fails (a throwing closure given to
    /// one of its operators threw).
    ///
    /// The default, ``defaultProgrammingErrorHandler``, stops a debug build with
    /// `assertionFailure` (where RxSwift calls `rxFatalErrorInDebug`) and prints the message in a
    /// release build. Tests replace it to see the report, and put the previous one back after.
    public static var programmingErrorHandler: ProgrammingErrorHandler {
        get { state.withLock { $0.programmingErrorHandler } }
        set { state.withLock { $0.programmingErrorHandler = newValue } }
    }

    /// The default ``programmingErrorHandler``: `assertionFailure` in a debug build, a printed
    /// line in a release build.
    public static let defaultProgrammingErrorHandler: ProgrammingErrorHandler = { message, file, line in
        #if DEBUG
        assertionFailure(message, file: file, line: line)
        #else
        print("Streams programming error: \(message) (\(file):\(line))")
        #endif
    }

    /// Hands `message` to ``programmingErrorHandler``.
    static func reportProgrammingError(_ message: String, file: StaticString = #fileID, line: UInt = #line) {
        programmingErrorHandler(message, file, line)
    }

    /// The call stack to hand to ``defaultErrorHandler`` for a subscription made now.
    @usableFromInline
    static func subscriptionCallStack() -> [String] {
        guard isRecordingCallStacks.load(ordering: .relaxed) else { return [] }
        let (record, capture) = state.withLock { ($0.recordCallStackOnError, $0.customCaptureSubscriptionCallstack) }
        return record ? capture() : []
    }
}
